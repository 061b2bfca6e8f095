import Foundation
import URLStubs

/// One part of a `multipart/*` body.
package struct MultipartPart: Sendable, Equatable {
    /// The part's header lines, names as written, in order.
    package var headers: [(name: String, value: String)]
    /// The part's bytes, without the line break that precedes the next delimiter.
    package var body: Data

    /// The first header named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    private var disposition: MediaType? { header("Content-Disposition").map(MediaType.init) }

    /// The form field name (`Content-Disposition: form-data; name="avatar"`).
    package var name: String? { disposition?.parameters["name"] }

    /// The file name, from `filename*` (RFC 8187) when present, else `filename`.
    package var filename: String? {
        guard let disposition else { return nil }
        return disposition.extendedParameter("filename") ?? disposition.parameters["filename"]
    }

    /// The part's own `Content-Type`, as written.
    package var contentType: String? { header("Content-Type") }

    /// Whether both parts have the same headers, in order, and the same bytes.
    package static func == (lhs: MultipartPart, rhs: MultipartPart) -> Bool {
        lhs.body == rhs.body && lhs.headers.count == rhs.headers.count
            && zip(lhs.headers, rhs.headers).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// `"avatar" (filename "me.png", image/png, 1,024 bytes)`, as reports list parts.
    var summary: String {
        var details: [String] = []
        if let filename { details.append("filename \"\(filename)\"") }
        if let contentType { details.append(contentType) }
        details.append("\(body.count) byte\(body.count == 1 ? "" : "s")")
        return "\(name.map { "\"\($0)\"" } ?? "unnamed part") (\(details.joined(separator: ", ")))"
    }
}

/// Why a body that claims to be multipart could not be read.
struct MultipartError: Error, Sendable, Equatable, CustomStringConvertible {
    let description: String
}

/// A `multipart/*` body (RFC 2046, `multipart/form-data` as RFC 7578 uses it), read from its
/// bytes and the boundary its `Content-Type` names. The boundary changes on every run, so
/// comparisons go through the parts, never through the raw bytes.
package struct MultipartBody: Sendable, Equatable {
    /// `multipart/form-data`, `multipart/mixed`, …
    package let mediaType: String
    /// The boundary the `Content-Type` names.
    package let boundary: String
    /// The parts, in order.
    package let parts: [MultipartPart]

    /// Whether a `Content-Type` value announces a multipart body.
    package static func isMultipart(contentType: String?) -> Bool {
        guard let contentType else { return false }
        return MediaType(contentType).essence.hasPrefix("multipart/")
    }

    /// Reads `body` as the multipart document `contentType` announces.
    ///
    /// Tolerates what real clients send: a preamble and an epilogue, LF instead of CRLF,
    /// spaces after a delimiter, folded header lines. Everything else that cannot be a
    /// multipart body throws a ``MultipartError`` saying where and why.
    package init(_ body: Data, contentType: String) throws {
        let type = MediaType(contentType)
        guard type.essence.hasPrefix("multipart/") else {
            throw MultipartError(description: "the Content-Type is \"\(type.essence)\", not multipart")
        }
        guard let boundary = type.parameters["boundary"], !boundary.isEmpty else {
            throw MultipartError(description: "the Content-Type \"\(contentType)\" names no boundary")
        }
        self.mediaType = type.essence
        self.boundary = boundary
        self.parts = try Self.parts(of: [UInt8](body), boundary: Array(("--" + boundary).utf8))
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let dash = UInt8(ascii: "-")

    private static func parts(of bytes: [UInt8], boundary delimiter: [UInt8]) throws -> [MultipartPart] {
        let shown = String(decoding: delimiter, as: UTF8.self)
        // The first delimiter: at the very start, or at the start of a line after a preamble.
        var position: Int
        if hasPrefix(bytes, delimiter, at: 0) {
            position = delimiter.count
        } else if let found = findDelimiter(bytes, delimiter, from: 0) {
            position = found.end
        } else {
            throw MultipartError(description: "the body never contains the delimiter \"\(shown)\" its Content-Type announces")
        }
        var parts: [MultipartPart] = []
        while true {
            if hasPrefix(bytes, [dash, dash], at: position) { return parts }  // the close delimiter
            // Transport padding, then the line break that ends the delimiter line.
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") {
                position += 1
            }
            if position < bytes.count, bytes[position] == carriageReturn { position += 1 }
            guard position < bytes.count, bytes[position] == lineFeed else {
                if position >= bytes.count {
                    throw MultipartError(description: "the body ends after \"\(shown)\" without the closing \"\(shown)--\" (truncated?)")
                }
                throw MultipartError(description: "expected a line break after \"\(shown)\" at byte \(position)")
            }
            position += 1
            let number = parts.count + 1
            let (headers, bodyStart) = try readHeaders(bytes, from: position, part: number)
            // An empty body whose delimiter follows the blank line directly (strictly, a line
            // break belongs in between; some clients leave it out).
            if hasPrefix(bytes, delimiter, at: bodyStart), isDelimiterEnd(bytes, at: bodyStart + delimiter.count) {
                parts.append(MultipartPart(headers: headers, body: Data()))
                position = bodyStart + delimiter.count
                continue
            }
            guard let next = findDelimiter(bytes, delimiter, from: bodyStart) else {
                throw MultipartError(
                    description: "part \(number) is not followed by a delimiter \"\(shown)\" (the body is truncated, or the boundary is wrong)")
            }
            parts.append(MultipartPart(headers: headers, body: Data(bytes[bodyStart..<next.bodyEnd])))
            position = next.end
        }
    }

    /// The part's header lines, and where its body starts (after the empty line).
    private static func readHeaders(_ bytes: [UInt8], from start: Int, part: Int) throws -> ([(name: String, value: String)], Int) {
        var headers: [(name: String, value: String)] = []
        var position = start
        while true {
            guard let lineEnd = bytes[position...].firstIndex(of: lineFeed) else {
                throw MultipartError(description: "the headers of part \(part) never end with an empty line")
            }
            var line = bytes[position..<lineEnd]
            if line.last == carriageReturn { line = line.dropLast() }
            position = lineEnd + 1
            if line.isEmpty { return (headers, position) }
            if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), !headers.isEmpty {
                // A folded line continues the previous header's value.
                let more = trimmed(line)
                let previous = headers[headers.count - 1].value
                if !more.isEmpty { headers[headers.count - 1].value = previous.isEmpty ? more : previous + " " + more }
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw MultipartError(
                    description: "part \(part): expected a header line \"Name: value\", found \"\(String(decoding: line.prefix(80), as: UTF8.self))\""
                )
            }
            let name = trimmed(line[line.startIndex..<colon])
            guard !name.isEmpty else {
                throw MultipartError(description: "part \(part): a header line has no name before \":\"")
            }
            headers.append((name, trimmed(line[(colon + 1)...])))
        }
    }

    /// The next delimiter line after `start`: a line break, then `delimiter`, then `--`,
    /// padding or a line break (so a part that merely contains the boundary text followed by
    /// more text is not cut there). Returns where the part's body ends (before the line break,
    /// CR included) and where the delimiter ends.
    private static func findDelimiter(_ bytes: [UInt8], _ delimiter: [UInt8], from start: Int) -> (bodyEnd: Int, end: Int)? {
        var search = start
        while search < bytes.count, let lineFeedIndex = bytes[search...].firstIndex(of: lineFeed) {
            let candidate = lineFeedIndex + 1
            if hasPrefix(bytes, delimiter, at: candidate) {
                let end = candidate + delimiter.count
                if isDelimiterEnd(bytes, at: end) {
                    var bodyEnd = lineFeedIndex
                    if bodyEnd > start, bytes[bodyEnd - 1] == carriageReturn { bodyEnd -= 1 }
                    return (bodyEnd, end)
                }
            }
            search = candidate
        }
        return nil
    }

    /// Whether what follows a delimiter ends it: `--`, padding, a line break or the end.
    private static func isDelimiterEnd(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index < bytes.count else { return true }
        switch bytes[index] {
        case dash, carriageReturn, lineFeed, UInt8(ascii: " "), UInt8(ascii: "\t"): return true
        default: return false
        }
    }

    private static func hasPrefix(_ bytes: [UInt8], _ prefix: [UInt8], at index: Int) -> Bool {
        guard index >= 0, bytes.count - index >= prefix.count else { return false }
        for offset in 0..<prefix.count where bytes[index + offset] != prefix[offset] { return false }
        return true
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { slice = slice.dropFirst() }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }

    // MARK: Writing

    /// The body as a client sends it, with `boundary` (tests and the fuzz target's round trip).
    static func serialize(_ parts: [MultipartPart], boundary: String) -> Data {
        var data = Data()
        for part in parts {
            data.append(Data("--\(boundary)\r\n".utf8))
            for header in part.headers { data.append(Data("\(header.name): \(header.value)\r\n".utf8)) }
            data.append(Data("\r\n".utf8))
            data.append(part.body)
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return data
    }
}
