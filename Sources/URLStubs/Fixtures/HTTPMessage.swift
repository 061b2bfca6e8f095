import Foundation

/// The raw HTTP response text that `curl -is` prints, parsed.
///
/// Format: a status line (`HTTP/1.1 200 OK`, `HTTP/2 200`), header lines, an empty line, the
/// body (any bytes). Line ends may be CRLF or LF. Several header blocks (a `100 Continue`, or a
/// redirect chain from `curl -isL`) are allowed: the last one is the response. Several
/// `Set-Cookie` lines stay separate; other repeated headers are joined with ", ". A
/// `Content-Length` must match the body, except for one final newline an editor may add.
/// A body with its chunk framing (`curl --raw`) is decoded; one that `curl --compressed`
/// decoded loses its stale `Content-Encoding` and `Content-Length`; one still compressed is
/// an error.
struct HTTPMessage {
    var httpVersion: String
    var statusCode: Int
    var headers: [(name: String, value: String)]
    var body: Data

    static func parse(_ data: Data, source: String) throws -> HTTPMessage {
        var remaining = data[...]
        var lineOffset = 0
        while true {
            let (message, consumedLines, rest) = try parseBlock(remaining, source: source, firstLine: lineOffset + 1)
            lineOffset += consumedLines
            // Another block follows: curl printed an interim (1xx) or redirect response first.
            if rest.starts(with: Data("HTTP/".utf8)),
                (100...199).contains(message.statusCode) || (300...399).contains(message.statusCode)
            {
                remaining = rest
                continue
            }
            var final = message
            final.body = Data(rest)
            try final.checkLength(source: source, line: lineOffset + 1)
            return final
        }
    }

    private static func parseBlock(_ data: Data.SubSequence, source: String, firstLine: Int) throws
        -> (HTTPMessage, Int, Data.SubSequence)
    {
        guard !data.isEmpty else {
            throw FixtureError.malformed(source, line: firstLine, expected: #"a status line like "HTTP/1.1 200 OK""#, found: "an empty file")
        }
        // Find the end of the head: the first empty line. Lines are cut from the raw bytes in
        // one pass (a head may hold 100,000 headers).
        var lines: [String] = []
        var bodyStart: Data.Index?
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var lineStart = 0
            var index = 0
            while index < bytes.count {
                guard let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else { break }
                var lineEnd = newline
                if lineEnd > lineStart, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                if lineEnd == lineStart {
                    bodyStart = data.startIndex + newline + 1
                    return
                }
                lines.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd]), as: UTF8.self))
                lineStart = newline + 1
                index = lineStart
            }
            if lineStart < bytes.count {
                // No empty line: the head runs to the end of the file and the body is empty.
                var end = bytes.count
                if bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                lines.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self))
            }
        }
        guard let statusLine = lines.first else {
            throw FixtureError.malformed(source, line: firstLine, expected: #"a status line like "HTTP/1.1 200 OK""#, found: "an empty line")
        }
        let (version, status) = try parseStatusLine(statusLine, source: source, line: firstLine)
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(lines.count - 1)
        for (offset, line) in lines.dropFirst().enumerated() {
            let lineNumber = firstLine + 1 + offset
            if line.first == " " || line.first == "\t" {
                guard !headers.isEmpty else {
                    throw FixtureError.malformed(source, line: lineNumber, expected: #"a header line "Name: value""#, found: shorten(line))
                }
                headers[headers.count - 1].value += " " + trimmingWhitespace(line[...])
                continue
            }
            guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                throw FixtureError.malformed(source, line: lineNumber, expected: #"a header line "Name: value""#, found: shorten(line))
            }
            let name = String(line[..<colon])
            guard name.utf8.allSatisfy(isTokenByte) else {
                throw FixtureError.malformed(source, line: lineNumber, expected: "a header name made of letters, digits and -", found: shorten(name))
            }
            headers.append((name, trimmingWhitespace(line[line.utf8.index(after: colon)...])))
        }
        let rest = bodyStart.map { data[$0...] } ?? data[data.endIndex...]
        let consumed = lines.count + (bodyStart == nil ? 0 : 1)
        return (HTTPMessage(httpVersion: version, statusCode: status, headers: headers, body: Data()), consumed, rest)
    }

    /// A header-name byte: an RFC 9110 token character (letters, digits and `!#$%&'*+-.^_`|~`).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `text` without the tabs and space separators (Unicode Zs) at its ends: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` does, without bridging for every header line.
    private static func trimmingWhitespace(_ text: Substring) -> String {
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == " " || (!scalar.isASCII && scalar.properties.generalCategory == .spaceSeparator)
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }) else { return "" }
        let last = scalars.lastIndex { !isWhitespace($0) }!
        return String(scalars[first...last])
    }

    private static func parseStatusLine(_ line: String, source: String, line number: Int) throws -> (String, Int) {
        let expected = #"a status line like "HTTP/1.1 200 OK""#
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard let version = parts.first, version.hasPrefix("HTTP/"),
            ["HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/2.0", "HTTP/3"].contains(String(version))
        else {
            throw FixtureError.malformed(source, line: number, expected: expected, found: shorten(line))
        }
        guard parts.count >= 2 else {
            throw FixtureError.malformed(source, line: number, expected: "a 3-digit status code after \(version)", found: "the end of the line")
        }
        guard parts[1].count == 3, let code = Int(parts[1]), (100...599).contains(code) else {
            throw FixtureError.malformed(source, line: number, expected: "a status code from 100 to 599", found: shorten(String(parts[1])))
        }
        return (String(version), code)
    }

    private mutating func checkLength(source: String, line: Int) throws {
        try decodeTransferAndContentEncoding(source: source, line: line)
        if hasHeader("Transfer-Encoding") {
            // curl prints a chunked body already decoded; its length is whatever arrived.
            removeHeaders("Transfer-Encoding")
            return
        }
        guard let declared = headers.last(where: { $0.name.equalsIgnoringASCIICase("Content-Length") }) else { return }
        guard let length = Int(declared.value), length >= 0 else {
            throw FixtureError.malformed(source, line: line, expected: "a number in Content-Length", found: Self.shorten(declared.value))
        }
        if body.count == length { return }
        if body.count == length + 1, body.last == UInt8(ascii: "\n") {
            body.removeLast()
            return
        }
        if body.count == length + 2, body.suffix(2) == Data("\r\n".utf8) {
            body.removeLast(2)
            return
        }
        throw FixtureError.malformed(source, line: line, expected: "a body of \(length) bytes (Content-Length)", found: "\(body.count) bytes")
    }

    /// Bodies saved by tools other than plain `curl -is`:
    /// - `curl --raw` (or a proxy dump) keeps the chunk framing of a chunked body: it is decoded
    ///   when the whole body parses as chunks ending in a zero-size chunk;
    /// - `curl --compressed` prints the decoded body under the server's `Content-Encoding` and
    ///   `Content-Length` (the compressed size): both are dropped, since the body is now plain;
    /// - a body still compressed is an error: a `URLProtocol`'s data reaches the app as it is
    ///   (no layer below decodes it), so replaying it would hand the app compressed bytes.
    private mutating func decodeTransferAndContentEncoding(source: String, line: Int) throws {
        if hasHeader("Transfer-Encoding"), let decoded = Self.decodeChunks(body) {
            body = decoded
        }
        let encodings = headers.filter { $0.name.equalsIgnoringASCIICase("Content-Encoding") }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard let encoding = encodings.first else { return }
        let gzipMagic = body.starts(with: [0x1F, 0x8B])
        let zstdMagic = body.starts(with: [0x28, 0xB5, 0x2F, 0xFD])
        let declaredLength = headers.last { $0.name.equalsIgnoringASCIICase("Content-Length") }.flatMap { Int($0.value) }
        let lengthMatches = declaredLength == body.count && !hasHeader("Transfer-Encoding")
        if gzipMagic || zstdMagic || (lengthMatches && ["br", "deflate", "compress"].contains(encoding)) {
            throw FixtureError.malformed(
                source, line: line,
                expected: "a decoded body (save it with `curl -is --compressed`, which decodes it)",
                found: "\(encoding)-compressed bytes (Content-Encoding: \(encodings.joined(separator: ", ")))")
        }
        removeHeaders("Content-Encoding")
        removeHeaders("Content-Length")
    }

    /// The body of a chunked message, or `nil` when `data` is not exactly a run of chunks
    /// (`<hex size>[;extensions]CRLF <bytes> CRLF` ... `0 CRLF [trailers] CRLF`).
    static func decodeChunks(_ data: Data) -> Data? {
        var decoded = Data()
        var index = data.startIndex
        func readLine() -> Data.SubSequence? {
            guard let newline = data[index...].firstIndex(of: UInt8(ascii: "\n")), newline > index,
                data[newline - 1] == UInt8(ascii: "\r")
            else { return nil }
            let line = data[index..<(newline - 1)]
            index = newline + 1
            return line
        }
        while true {
            guard let sizeLine = readLine() else { return nil }
            let sizeField = sizeLine.prefix { $0 != UInt8(ascii: ";") }
            let hex = String(decoding: sizeField, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            // Hex digits only: `Int(_:radix:)` also takes a sign, and a negative size made an
            // inverted range (a trap, found by fuzzing).
            guard !hex.isEmpty, hex.count <= 15, hex.allSatisfy(\.isHexDigit), let size = Int(hex, radix: 16) else { return nil }
            if size == 0 {
                // Trailers, if any, then the final empty line; nothing may follow.
                while let trailer = readLine() {
                    // An editor may have added a final newline.
                    if trailer.isEmpty { return data[index...].allSatisfy { $0 == 0x0A || $0 == 0x0D } ? decoded : nil }
                }
                return nil
            }
            guard data.endIndex - index >= size + 2 else { return nil }
            decoded.append(data[index..<(index + size)])
            index += size
            guard data[index] == UInt8(ascii: "\r"), data[index + 1] == UInt8(ascii: "\n") else { return nil }
            index += 2
        }
    }

    private func hasHeader(_ name: String) -> Bool {
        headers.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    private mutating func removeHeaders(_ name: String) {
        headers.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    private static func shorten(_ text: String) -> String {
        let escaped = text.debugDescription
        return escaped.count > 80 ? String(escaped.prefix(77)) + "…\"" : escaped
    }

    /// The message as a stub response, its fields in the order written, repeated ones kept.
    var stubResponse: StubResponse {
        var response = StubResponse(data: body, statusCode: statusCode, headers: HeaderFields(headers))
        response.httpVersion = httpVersion.hasPrefix("HTTP/2") ? "HTTP/2" : httpVersion
        return response
    }
}

extension StubResponse {
    /// A response read from an HTTP message file: what `curl -is URL > users.response` saves,
    /// for the 0.1 spelling `StubResponse(httpMessageAt:)` that URLStubsMigration keeps (``init(fixture:statusCode:headers:)``
    /// reads `.response` files the same way, and reports the file's problems as ``FixtureError``).
    ///
    /// - Throws: ``FixtureError``: ``FixtureError/Kind/notFound`` or
    ///   ``FixtureError/Kind/unreadable`` for the path, ``FixtureError/Kind/malformed`` naming
    ///   the file, the line and what was expected.
    package init(httpMessageFileAt url: URL) throws {
        try self.init(httpMessageData: try FixtureFileCheck.contents(of: url), source: url.lastPathComponent)
    }

    /// A response parsed from HTTP message bytes; `source` names them in errors. The public
    /// spelling is a `.response` file read by ``init(fixture:statusCode:headers:)``;
    /// URLStubsMigration's `init(httpMessage:source:)` comes here.
    /// - Throws: ``FixtureError`` (``FixtureError/Kind/malformed``) naming `source`, the line,
    ///   what was expected there and what was found.
    package init(httpMessageData data: Data, source: String = "HTTP message") throws {
        self = try HTTPMessage.parse(data, source: source).stubResponse
    }
}
