import Foundation

/// Reading a request head: its end, its lines, the request line and fields, and the framing of
/// the body it announces.
extension HTTPRequestParser {
    // MARK: Head

    /// The head, when its end is in the buffer: `.success(nil)` when the parser moved on to
    /// the body and should go on.
    mutating func readHead() -> Result<Event?, RequestRejection>? {
        // Empty lines before a request line are ignored (RFC 9112 §2.2).
        while start < buffer.count, buffer[start] == 13 || buffer[start] == 10 {
            if buffer[start] == 13, start + 1 >= buffer.count { return nil }
            if buffer[start] == 13, buffer[start + 1] != 10 {
                return .failure(RequestRejection(status: 400, reason: "a bare CR before the request line"))
            }
            start += buffer[start] == 13 ? 2 : 1
        }
        scanned = max(scanned, start)
        if let last = lastHead, buffer.count - start >= last.bytes.count, Self.bytes(buffer[start..<start + last.bytes.count], equal: last.bytes) {
            // The same head as the last one (a keep-alive client asking again), its blank line
            // in the same place: read already.
            start += last.bytes.count
            scanned = start
            guard last.hasNoBody else { return framing(of: last.head) }
            state = .fixedBody(last.head, remaining: 0)
            return .success(nil)
        }
        // The limit counts the whole head, line ends and blank line included. Without its end
        // in the buffer, a head is already too large once it holds the limit's bytes (its end
        // will add one more), so bytes arriving whole or one by one are judged alike.
        guard let end = headEnd() else {
            return buffer.count - start >= maximumHeaderBytes ? .failure(oversizedHead()) : nil
        }
        guard end.consumed <= maximumHeaderBytes else { return .failure(oversizedHead()) }
        let head: Head
        switch parseHead(splitLines(buffer[start..<start + end.headLength])) {
        case .failure(let rejection): return .failure(rejection)
        case .success(let parsed): head = parsed
        }
        let bytes = end.consumed <= Self.largestRememberedHead ? Array(buffer[start..<start + end.consumed]) : nil
        start += end.consumed
        scanned = start
        let framed = framing(of: head)
        lastHead = nil
        if let bytes, case .success = framed {
            var hasNoBody = false
            if case .fixedBody(let framedHead, remaining: 0) = state, !framedHead.announcedBody { hasNoBody = true }
            lastHead = RememberedHead(bytes: bytes, head: head, hasNoBody: hasNoBody)
        }
        return framed
    }

    /// The longest head kept for comparing the next one with.
    static let largestRememberedHead = 4096

    /// `true` when `slice` holds exactly `bytes` (one `memcmp`).
    static func bytes(_ slice: ArraySlice<UInt8>, equal bytes: [UInt8]) -> Bool {
        guard slice.count == bytes.count else { return false }
        return slice.withUnsafeBytes { left in bytes.withUnsafeBytes { right in memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 } }
    }

    /// 414 when the request line alone passes the limit, else 431.
    func oversizedHead() -> RequestRejection {
        let lineEnded = buffer[start..<min(buffer.count, start + maximumHeaderBytes)].contains(10)
        return lineEnded
            ? RequestRejection(status: 431, reason: "the request head is larger than the server's limit of \(maximumHeaderBytes) bytes")
            : RequestRejection(status: 414, reason: "the request line is longer than the server's limit of \(maximumHeaderBytes) bytes")
    }

    /// Where the current head ends: its length without the blank line, and with it.
    mutating func headEnd() -> (headLength: Int, consumed: Int)? {
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

    /// The head's lines, each without its LF or CR LF: one pass by index, no closures.
    func splitLines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        lines.reserveCapacity(16)
        var lineStart = bytes.startIndex
        while true {
            let lineEnd = bytes[lineStart...].firstIndex(of: 10) ?? bytes.endIndex
            let line = bytes[lineStart..<lineEnd]
            lines.append(line.last == 13 ? line.dropLast() : line)
            guard lineEnd < bytes.endIndex else { return lines }
            lineStart = lineEnd + 1
        }
    }

    func parseHead(_ lines: [ArraySlice<UInt8>]) -> Result<Head, RequestRejection> {
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
    mutating func framing(of parsed: Head) -> Result<Event?, RequestRejection> {
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
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
