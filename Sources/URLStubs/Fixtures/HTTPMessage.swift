import Foundation

/// A malformed HTTP message file: which file, which line, what was expected and what was found.
public struct HTTPMessageError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The file (or the source name given for in-memory data).
    public let source: String
    /// The 1-based line of the problem.
    public let line: Int
    /// What the parser expected there.
    public let expected: String
    /// What it found (shortened).
    public let found: String

    /// `users.response:3: expected a header line "Name: value", found "Content-Type application/json"`.
    public var description: String {
        "\(source):\(line): expected \(expected), found \(found)"
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

/// The raw HTTP response text that `curl -is` prints, parsed.
///
/// Format: a status line (`HTTP/1.1 200 OK`, `HTTP/2 200`), header lines, an empty line, the
/// body (any bytes). Line ends may be CRLF or LF. Several header blocks (a `100 Continue`, or a
/// redirect chain from `curl -isL`) are allowed: the last one is the response. Several
/// `Set-Cookie` lines stay separate; other repeated headers are joined with ", ". A
/// `Content-Length` must match the body, except for one final newline an editor may add.
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
               (100...199).contains(message.statusCode) || (300...399).contains(message.statusCode) {
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
        -> (HTTPMessage, Int, Data.SubSequence) {
        guard !data.isEmpty else {
            throw HTTPMessageError(source: source, line: firstLine, expected: #"a status line like "HTTP/1.1 200 OK""#, found: "an empty file")
        }
        // Find the end of the head: the first empty line.
        var index = data.startIndex
        var lineStart = index
        var lines: [String] = []
        var bodyStart: Data.Index?
        while index < data.endIndex {
            if data[index] == UInt8(ascii: "\n") {
                var lineEnd = index
                if lineEnd > lineStart, data[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                if lineEnd == lineStart {
                    bodyStart = index + 1
                    break
                }
                lines.append(String(decoding: data[lineStart..<lineEnd], as: UTF8.self))
                lineStart = index + 1
            }
            index += 1
        }
        if bodyStart == nil, lineStart < data.endIndex {
            // No empty line: the head runs to the end of the file and the body is empty.
            var end = data.endIndex
            if data[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            lines.append(String(decoding: data[lineStart..<end], as: UTF8.self))
        }
        guard let statusLine = lines.first else {
            throw HTTPMessageError(source: source, line: firstLine, expected: #"a status line like "HTTP/1.1 200 OK""#, found: "an empty line")
        }
        let (version, status) = try parseStatusLine(statusLine, source: source, line: firstLine)
        var headers: [(name: String, value: String)] = []
        for (offset, line) in lines.dropFirst().enumerated() {
            let lineNumber = firstLine + 1 + offset
            if line.first == " " || line.first == "\t" {
                guard !headers.isEmpty else {
                    throw HTTPMessageError(source: source, line: lineNumber, expected: #"a header line "Name: value""#, found: shorten(line))
                }
                headers[headers.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else {
                throw HTTPMessageError(source: source, line: lineNumber, expected: #"a header line "Name: value""#, found: shorten(line))
            }
            let name = String(line[..<colon])
            guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "!#$%&'*+-.^_`|~".contains($0)) }) else {
                throw HTTPMessageError(source: source, line: lineNumber, expected: "a header name made of letters, digits and -", found: shorten(name))
            }
            headers.append((name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let rest = bodyStart.map { data[$0...] } ?? data[data.endIndex...]
        let consumed = lines.count + (bodyStart == nil ? 0 : 1)
        return (HTTPMessage(httpVersion: version, statusCode: status, headers: headers, body: Data()), consumed, rest)
    }

    private static func parseStatusLine(_ line: String, source: String, line number: Int) throws -> (String, Int) {
        let expected = #"a status line like "HTTP/1.1 200 OK""#
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard let version = parts.first, version.hasPrefix("HTTP/"),
              ["HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/2.0", "HTTP/3"].contains(String(version)) else {
            throw HTTPMessageError(source: source, line: number, expected: expected, found: shorten(line))
        }
        guard parts.count >= 2 else {
            throw HTTPMessageError(source: source, line: number, expected: "a 3-digit status code after \(version)", found: "the end of the line")
        }
        guard parts[1].count == 3, let code = Int(parts[1]), (100...599).contains(code) else {
            throw HTTPMessageError(source: source, line: number, expected: "a status code from 100 to 599", found: shorten(String(parts[1])))
        }
        return (String(version), code)
    }

    private mutating func checkLength(source: String, line: Int) throws {
        if headers.contains(where: { $0.name.caseInsensitiveCompare("Transfer-Encoding") == .orderedSame }) {
            // curl prints a chunked body already decoded; its length is whatever arrived.
            headers.removeAll { $0.name.caseInsensitiveCompare("Transfer-Encoding") == .orderedSame }
            return
        }
        guard let declared = headers.last(where: { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }) else { return }
        guard let length = Int(declared.value), length >= 0 else {
            throw HTTPMessageError(source: source, line: line, expected: "a number in Content-Length", found: Self.shorten(declared.value))
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
        throw HTTPMessageError(source: source, line: line, expected: "a body of \(length) bytes (Content-Length)", found: "\(body.count) bytes")
    }

    private static func shorten(_ text: String) -> String {
        let escaped = text.debugDescription
        return escaped.count > 80 ? String(escaped.prefix(77)) + "…\"" : escaped
    }

    /// The message as a stub response.
    var stubResponse: StubResponse {
        var fields: [String: String] = [:]
        var cookies: [String] = []
        for (name, value) in headers {
            if name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
                cookies.append(value)
            } else if let existing = fields.first(where: { $0.key.caseInsensitiveCompare(name) == .orderedSame }) {
                fields[existing.key] = existing.value + ", " + value
            } else {
                fields[name] = value
            }
        }
        var response = StubResponse(data: body, statusCode: statusCode, headers: fields)
        response.setCookieHeaders = cookies
        response.httpVersion = httpVersion.hasPrefix("HTTP/2") ? "HTTP/2" : httpVersion
        return response
    }
}

extension StubResponse {
    /// A response read from an HTTP message file: what `curl -is URL > users.response` saves.
    ///
    /// ```swift
    /// registry.stub(isPath("/users")) { _ in try StubResponse(httpMessageAt: fixtures.appendingPathComponent("users.response")) }
    /// ```
    ///
    /// - Throws: ``HTTPMessageError`` naming the file, the line and what was expected, or
    ///   ``StubError/fileNotFound(path:)``.
    public init(httpMessageAt url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { throw StubError.fileNotFound(path: url.path) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StubError.fileUnreadable(path: url.path, reason: error.localizedDescription)
        }
        try self.init(httpMessage: data, source: url.lastPathComponent)
    }

    /// A response parsed from HTTP message bytes; `source` names them in errors.
    public init(httpMessage data: Data, source: String = "HTTP message") throws {
        self = try HTTPMessage.parse(data, source: source).stubResponse
    }
}
