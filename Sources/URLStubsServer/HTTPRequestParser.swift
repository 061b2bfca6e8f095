import Foundation

/// An incremental HTTP/1.1 request parser (RFC 9112): bytes go in as they arrive, whole
/// requests come out, in order, so pipelined requests and any split of the bytes give the same
/// requests.
///
/// Its limits make it safe to face any client: a head larger than `maximumHeaderBytes` is
/// rejected with 431 (414 when the request line alone is), a body larger than
/// `maximumBodyBytes` with 413 (as soon as `Content-Length` says so). It buffers at most one
/// head and one body beyond what it returned. Line ends are CRLF, or a bare LF (RFC 9112 §2.2
/// lets a server accept one); a header line folded onto the next (obsolete line folding), a
/// request with both `Content-Length` and `Transfer-Encoding`, or with a transfer coding other
/// than `chunked` are rejected rather than guessed at, so the server never frames a request
/// differently from a proxy in front of it.
struct HTTPRequestParser {
    // Members are internal, not private, so that the head's reading (HTTPRequestParser+Head)
    // reaches them; nothing outside the parser and its tests uses them.
    /// What ``next()`` found.
    enum Event: Sendable {
        /// A whole request.
        case request(ParsedHTTPRequest)
        /// A head saying `Expect: 100-continue` arrived, and its body has not: the client
        /// waits for `100 Continue` (or a final answer) before sending it.
        case expectsContinue
        /// The bytes cannot be a request; nothing more comes out of this parser.
        case rejected(RequestRejection)
    }

    enum State {
        case head
        case fixedBody(Head, remaining: Int)
        case chunkSize(Head)
        case chunkData(Head, remaining: Int)
        case chunkDataEnd(Head)
        case trailers(Head)
        case rejected
    }

    struct Head {
        var method: String
        var target: String
        var minorVersion: Int
        var headers: [(name: String, value: String)]
        var announcedBody: Bool
    }

    let maximumHeaderBytes: Int
    let maximumBodyBytes: Int
    var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer`.
    var start = 0
    /// How far the search for the current head's end (or a line's end) got.
    var scanned = 0
    var state = State.head
    var body = Data()
    /// Trailer bytes read so far (bounded by the header limit).
    var trailerBytes = 0
    /// The last head read whole (see ``RememberedHead``).
    var lastHead: RememberedHead?

    /// A head's bytes (its blank line included) and what they said: a keep-alive client often
    /// sends the same head again, which is then not read anew. A class: reading it costs one
    /// retain, not a copy of every field.
    final class RememberedHead: Sendable {
        let bytes: [UInt8]
        let head: Head
        /// `true` when the head announces no body and expects nothing (its framing is none).
        let hasNoBody: Bool

        init(bytes: [UInt8], head: Head, hasNoBody: Bool) {
            self.bytes = bytes
            self.head = head
            self.hasNoBody = hasNoBody
        }
    }

    init(maximumHeaderBytes: Int, maximumBodyBytes: Int) {
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Bytes held that no returned request used yet.
    var bufferedCount: Int { buffer.count - start + body.count }

    /// `true` while no part of a next request has arrived (a connection may close now without
    /// cutting a request short).
    var isBetweenRequests: Bool {
        guard case .head = state else { return false }
        return buffer[start...].allSatisfy { $0 == 13 || $0 == 10 }
    }

    /// When (``DispatchTime/uptimeNanoseconds``) the first byte of the head being read
    /// arrived; `nil` unless a head is begun and not whole. Set when ``next()`` needs more bytes.
    private(set) var headBegan: UInt64?
    /// When the body being read began (its head ended); `nil` unless a body is being read.
    private(set) var bodyBegan: UInt64?
    /// Body bytes of the current request received since ``bodyBegan``.
    var bodyReceived: Int { body.count - bodyCountAtStart }
    var bodyCountAtStart = 0
    /// When the last bytes were appended.
    var lastArrival: UInt64 = 0

    /// Adds bytes read from the wire, which arrived at `now` (uptime nanoseconds).
    mutating func append(_ bytes: UnsafeRawBufferPointer, at now: UInt64 = 0) {
        lastArrival = now
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next event the bytes so far make, or `nil` when more bytes are needed.
    mutating func next() -> Event? {
        if let event = nextEvent() { return event }
        noteWaiting()
        return nil
    }

    mutating func nextEvent() -> Event? {
        while true {
            switch state {
            case .rejected:
                return nil
            case .head:
                switch readHead() {
                case .none: return nil
                case .some(.failure(let rejection)): return reject(rejection)
                case .some(.success(let event)):
                    if let event { return event }
                }
            case .fixedBody(let head, let remaining):
                let take = min(remaining, buffer.count - start)
                body.append(contentsOf: buffer[start..<start + take])
                start += take
                if take < remaining {
                    state = .fixedBody(head, remaining: remaining - take)
                    return nil
                }
                return complete(head)
            case .chunkSize(let head):
                guard let line = readLine(limit: 1024) else { return nil }
                guard case .success(let text) = line else { return reject(400, "a chunk-size line longer than 1,024 bytes") }
                // chunk-size [; extensions]: the extensions are ignored (RFC 9112 §7.1.1).
                let sizeText = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
                    .trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
                guard !sizeText.isEmpty, sizeText.count <= 16, sizeText.allSatisfy(\.isHexDigit),
                    let size = Int(sizeText, radix: 16)
                else { return reject(400, "the chunk size \(String(sizeText.prefix(40)).debugDescription) is not a hexadecimal number") }
                if size == 0 {
                    state = .trailers(head)
                    trailerBytes = 0
                } else if size > maximumBodyBytes - body.count {
                    return reject(413, "the chunked body is larger than the server's limit of \(maximumBodyBytes) bytes")
                } else {
                    state = .chunkData(head, remaining: size)
                }
            case .chunkData(let head, let remaining):
                let take = min(remaining, buffer.count - start)
                body.append(contentsOf: buffer[start..<start + take])
                start += take
                guard take == remaining else {
                    state = .chunkData(head, remaining: remaining - take)
                    return nil
                }
                state = .chunkDataEnd(head)
            case .chunkDataEnd(let head):
                guard let line = readLine(limit: 2) else { return nil }
                guard case .success(let text) = line, text.isEmpty else { return reject(400, "a chunk's data is not followed by CRLF") }
                state = .chunkSize(head)
            case .trailers(let head):
                guard let line = readLine(limit: maximumHeaderBytes - trailerBytes) else { return nil }
                guard case .success(let text) = line else {
                    return reject(431, "the chunked body's trailer fields are larger than the server's limit of \(maximumHeaderBytes) bytes")
                }
                if text.isEmpty { return complete(head) }
                trailerBytes += text.utf8.count + 2
            }
        }
    }

    // MARK: Helpers

    /// The next line (without its end), `.failure` when it is longer than `limit`, `nil` when
    /// its end has not arrived.
    mutating func readLine(limit requested: Int) -> Result<String, RequestRejection>? {
        let limit = max(0, requested)
        let searchEnd = min(buffer.count, start + limit + 2)
        guard let newline = buffer[start..<searchEnd].firstIndex(of: 10) else {
            if buffer.count - start > limit + 1 { return .failure(RequestRejection(status: 400, reason: "line too long")) }
            return nil
        }
        var line = buffer[start..<newline]
        if line.last == 13 { line = line.dropLast() }
        start = newline + 1
        return .success(String(decoding: line, as: UTF8.self))
    }

    /// Records when the head or body the parser now waits for began.
    mutating func noteWaiting() {
        switch state {
        case .head:
            bodyBegan = nil
            if headBegan == nil, buffer[start...].contains(where: { $0 != 13 && $0 != 10 }) { headBegan = lastArrival }
        case .rejected:
            headBegan = nil
            bodyBegan = nil
        case .fixedBody, .chunkSize, .chunkData, .chunkDataEnd, .trailers:
            headBegan = nil
            if bodyBegan == nil {
                bodyBegan = lastArrival
                bodyCountAtStart = 0
            }
        }
    }

    /// Counts the head or body being read as begun at `now`: the client could not send while
    /// the server answered what came before.
    mutating func restartClocks(at now: UInt64) {
        if headBegan != nil { headBegan = now }
        if bodyBegan != nil {
            bodyBegan = now
            bodyCountAtStart = body.count
        }
    }

    mutating func complete(_ head: Head) -> Event {
        headBegan = nil
        bodyBegan = nil
        state = .head
        let request = ParsedHTTPRequest(
            method: head.method, target: head.target, minorVersion: head.minorVersion, headers: head.headers, body: body,
            announcedBody: head.announcedBody)
        body = Data()
        return .request(request)
    }

    mutating func reject(_ rejection: RequestRejection) -> Event {
        state = .rejected
        buffer = []
        start = 0
        scanned = 0
        body = Data()
        return .rejected(rejection)
    }

    mutating func reject(_ status: Int, _ reason: String) -> Event {
        reject(RequestRejection(status: status, reason: reason))
    }

    /// A token byte (RFC 9110 §5.6.2): letters, digits and ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39: return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }

    /// At most 80 bytes of `bytes`, quoted for a message.
    static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        let shown = String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription
        return bytes.count > 80 ? shown + " (cut at 80 of \(bytes.count) bytes)" : shown
    }
}
