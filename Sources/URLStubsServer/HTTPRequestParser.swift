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

    private enum State {
        case head
        case fixedBody(Head, remaining: Int)
        case chunkSize(Head)
        case chunkData(Head, remaining: Int)
        case chunkDataEnd(Head)
        case trailers(Head)
        case rejected
    }

    private struct Head {
        var method: String
        var target: String
        var minorVersion: Int
        var headers: [(name: String, value: String)]
        var announcedBody: Bool
    }

    let maximumHeaderBytes: Int
    let maximumBodyBytes: Int
    private var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer`.
    private var start = 0
    /// How far the search for the current head's end (or a line's end) got.
    private var scanned = 0
    private var state = State.head
    private var body = Data()
    /// Trailer bytes read so far (bounded by the header limit).
    private var trailerBytes = 0

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
    private var bodyCountAtStart = 0
    /// When the last bytes were appended.
    private var lastArrival: UInt64 = 0

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

    private mutating func nextEvent() -> Event? {
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

    // MARK: Head

    /// The head, when its end is in the buffer: `.success(nil)` when the parser moved on to
    /// the body and should go on.
    private mutating func readHead() -> Result<Event?, RequestRejection>? {
        // Empty lines before a request line are ignored (RFC 9112 §2.2).
        while start < buffer.count, buffer[start] == 13 || buffer[start] == 10 {
            if buffer[start] == 13, start + 1 >= buffer.count { return nil }
            if buffer[start] == 13, buffer[start + 1] != 10 {
                return .failure(RequestRejection(status: 400, reason: "a bare CR before the request line"))
            }
            start += buffer[start] == 13 ? 2 : 1
        }
        scanned = max(scanned, start)
        // The limit counts the whole head, line ends and blank line included. Without its end
        // in the buffer, a head is already too large once it holds the limit's bytes (its end
        // will add one more), so bytes arriving whole or one by one are judged alike.
        guard let end = headEnd() else {
            return buffer.count - start >= maximumHeaderBytes ? .failure(oversizedHead()) : nil
        }
        guard end.consumed <= maximumHeaderBytes else { return .failure(oversizedHead()) }
        let lines = splitLines(buffer[start..<start + end.headLength])
        start += end.consumed
        scanned = start
        let head: Head
        switch parseHead(lines) {
        case .failure(let rejection): return .failure(rejection)
        case .success(let parsed): head = parsed
        }
        return framing(of: head)
    }

    /// 414 when the request line alone passes the limit, else 431.
    private func oversizedHead() -> RequestRejection {
        let lineEnded = buffer[start..<min(buffer.count, start + maximumHeaderBytes)].contains(10)
        return lineEnded
            ? RequestRejection(status: 431, reason: "the request head is larger than the server's limit of \(maximumHeaderBytes) bytes")
            : RequestRejection(status: 414, reason: "the request line is longer than the server's limit of \(maximumHeaderBytes) bytes")
    }

    /// Where the current head ends: its length without the blank line, and with it.
    private mutating func headEnd() -> (headLength: Int, consumed: Int)? {
        var index = max(scanned, start)
        while index < buffer.count {
            if buffer[index] == 10 {
                // LF, then LF or CRLF: the blank line.
                if index + 1 < buffer.count, buffer[index + 1] == 10 { return (index - start, index + 2 - start) }
                if index + 2 < buffer.count, buffer[index + 1] == 13, buffer[index + 2] == 10 { return (index - start, index + 3 - start) }
                if index + 2 >= buffer.count { break }
            }
            index += 1
        }
        // Resume a few bytes back next time: the blank line may be split between reads.
        scanned = max(start, index - 2)
        return nil
    }

    private func splitLines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
    }

    private func parseHead(_ lines: [ArraySlice<UInt8>]) -> Result<Head, RequestRejection> {
        guard let requestLine = lines.first else { return .failure(RequestRejection(status: 400, reason: "an empty request line")) }
        // METHOD SP target SP HTTP/d.d, found by index: no array per request.
        func malformed() -> Result<Head, RequestRejection> {
            .failure(RequestRejection(status: 400, reason: "the request line is not METHOD SP target SP HTTP-version: \(Self.quoted(requestLine))"))
        }
        guard let firstSpace = requestLine.firstIndex(of: 32) else { return malformed() }
        let method = requestLine[requestLine.startIndex..<firstSpace]
        let afterMethod = requestLine[(firstSpace + 1)...]
        guard let secondSpace = afterMethod.firstIndex(of: 32) else { return malformed() }
        let target = afterMethod[afterMethod.startIndex..<secondSpace]
        let version = afterMethod[(secondSpace + 1)...]
        guard !method.isEmpty, method.allSatisfy(Self.isTokenByte), !version.contains(32) else { return malformed() }
        guard !target.isEmpty, target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .failure(
                RequestRejection(status: 400, reason: "the request target holds a space, a control or a non-ASCII byte: \(Self.quoted(target))"))
        }
        let v = version.startIndex
        guard version.count == 8, version[v] == 72, version[v + 1] == 84, version[v + 2] == 84, version[v + 3] == 80, version[v + 4] == 47,
            version[v + 6] == UInt8(ascii: "."), (48...57).contains(version[v + 5]), (48...57).contains(version[v + 7])
        else { return .failure(RequestRejection(status: 400, reason: "\(Self.quoted(version)) is not an HTTP version")) }
        guard version[v + 5] == UInt8(ascii: "1") else {
            return .failure(
                RequestRejection(status: 505, reason: "HTTP/\(version[v + 5] - 48).\(version[v + 7] - 48) is not served here; send HTTP/1.1"))
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                if line.first == 32 || line.first == 9 {
                    return .failure(
                        RequestRejection(status: 400, reason: "a header line folded onto the next (obsolete line folding): \(Self.quoted(line))"))
                }
                return .failure(RequestRejection(status: 400, reason: "a header line without a colon: \(Self.quoted(line))"))
            }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
                return .failure(
                    RequestRejection(status: 400, reason: "an invalid header name (a space before the colon, or not a token): \(Self.quoted(line))"))
            }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 32 || first == 9 { value = value.dropFirst() }
            while let last = value.last, last == 32 || last == 9 { value = value.dropLast() }
            guard value.allSatisfy({ $0 >= 32 && $0 != 127 || $0 == 9 }) else {
                return .failure(RequestRejection(status: 400, reason: "a control character in the value of \(Self.quoted(name))"))
            }
            headers.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        return .success(
            Head(
                method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
                minorVersion: Int(version[v + 7] - 48), headers: headers, announcedBody: false))
    }

    /// How the head's body is framed: decides the next state, and the event (if any).
    private mutating func framing(of parsed: Head) -> Result<Event?, RequestRejection> {
        var head = parsed
        // One pass over the fields; the framing ones are rare enough to split only when there.
        var hosts = 0
        var codings: [String] = []
        var lengths: [String] = []
        var expectation: String?
        for field in head.headers {
            switch field.name.utf8.count {
            case 4 where field.name.isSameFieldName(as: "Host"):
                hosts += 1
            case 6 where field.name.isSameFieldName(as: "Expect"):
                expectation = expectation ?? field.value
            case 14 where field.name.isSameFieldName(as: "Content-Length"):
                lengths += field.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case 17 where field.name.isSameFieldName(as: "Transfer-Encoding"):
                codings += field.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            default:
                break
            }
        }
        if hosts > 1 { return .failure(RequestRejection(status: 400, reason: "more than one Host header")) }
        if head.minorVersion >= 1, hosts == 0 { return .failure(RequestRejection(status: 400, reason: "an HTTP/1.1 request without a Host header")) }
        var expectsContinue = false
        if head.minorVersion >= 1, let expectation {
            guard expectation.caseInsensitiveCompare("100-continue") == .orderedSame else {
                return .failure(RequestRejection(status: 417, reason: "Expect: \(expectation) is not understood; only 100-continue is"))
            }
            expectsContinue = true
        }
        if !codings.isEmpty {
            guard lengths.isEmpty else {
                return .failure(RequestRejection(status: 400, reason: "both Content-Length and Transfer-Encoding: the body's length is ambiguous"))
            }
            guard head.minorVersion >= 1 else { return .failure(RequestRejection(status: 400, reason: "Transfer-Encoding in an HTTP/1.0 request")) }
            guard codings == ["chunked"] else {
                return .failure(
                    RequestRejection(
                        status: 501,
                        reason:
                            "Transfer-Encoding: \(codings.joined(separator: ", ")) is not supported; send the body chunked or with a Content-Length"))
            }
            head.announcedBody = true
            body = Data()
            state = .chunkSize(head)
            return .success(expectsContinue && buffer.count == start ? .expectsContinue : nil)
        }
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18, first.allSatisfy(\.isASCIIDigit),
                let length = Int(first)
            else {
                return .failure(
                    RequestRejection(
                        status: 400, reason: "Content-Length \(lengths.joined(separator: ", ").debugDescription) is not one whole number of bytes"))
            }
            guard length <= maximumBodyBytes else {
                return .failure(
                    RequestRejection(
                        status: 413, reason: "the body of \(length) bytes is larger than the server's limit of \(maximumBodyBytes) bytes"))
            }
            head.announcedBody = true
            // Memory follows the bytes that arrive, never the length announced: a client that
            // announces a large body and sends none costs nothing.
            body = Data()
            state = .fixedBody(head, remaining: length)
            return .success(expectsContinue && length > 0 && buffer.count == start ? .expectsContinue : nil)
        }
        state = .fixedBody(head, remaining: 0)
        return .success(nil)
    }

    // MARK: Helpers

    /// The next line (without its end), `.failure` when it is longer than `limit`, `nil` when
    /// its end has not arrived.
    private mutating func readLine(limit requested: Int) -> Result<String, RequestRejection>? {
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
    private mutating func noteWaiting() {
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

    private mutating func complete(_ head: Head) -> Event {
        headBegan = nil
        bodyBegan = nil
        state = .head
        let request = ParsedHTTPRequest(
            method: head.method, target: head.target, minorVersion: head.minorVersion, headers: head.headers, body: body,
            announcedBody: head.announcedBody)
        body = Data()
        return .request(request)
    }

    private mutating func reject(_ rejection: RequestRejection) -> Event {
        state = .rejected
        buffer = []
        start = 0
        scanned = 0
        body = Data()
        return .rejected(rejection)
    }

    private mutating func reject(_ status: Int, _ reason: String) -> Event {
        reject(RequestRejection(status: status, reason: reason))
    }

    /// A token byte (RFC 9110 §5.6.2): letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39: return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }

    /// At most 80 bytes of `bytes`, quoted for a message.
    private static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        let shown = String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription
        return bytes.count > 80 ? shown + " (cut at 80 of \(bytes.count) bytes)" : shown
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
