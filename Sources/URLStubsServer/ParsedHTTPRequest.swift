import Foundation

/// A request read whole from the wire: its head and its body (de-chunked).
struct ParsedHTTPRequest: Sendable {
    /// `GET`, `POST`, … as sent (methods are case-sensitive).
    let method: String
    /// The request target: a path with its query (`/users?page=2`), or an absolute URL (a client
    /// that takes the server for a proxy), or `*`.
    let target: String
    /// The `x` of `HTTP/1.x`.
    let minorVersion: Int
    /// The header fields in the order the client sent them, repeats kept.
    let headers: [(name: String, value: String)]
    /// The body, de-chunked; empty when there was none.
    let body: Data
    /// `true` when the head announced a body (`Content-Length` or `Transfer-Encoding`).
    let announcedBody: Bool

    /// The first value of `name`, compared without case.
    func value(of name: String) -> String? {
        headers.first { $0.name.isSameFieldName(as: name) }?.value
    }

    /// Whether the client asks to keep the connection: HTTP/1.1 unless `Connection: close`;
    /// HTTP/1.0 only with `Connection: keep-alive`.
    var keepsAlive: Bool {
        var keepAlive = minorVersion >= 1
        for field in headers where field.name.utf8.count == 10 && field.name.isSameFieldName(as: "Connection") {
            // Options compared byte by byte, without case: no Foundation trimming or lowercasing
            // for a field nearly every client sends.
            for option in field.value.utf8.split(separator: UInt8(ascii: ",")) {
                var token = option[...]
                while let first = token.first, first == 32 || first == 9 { token = token.dropFirst() }
                while let last = token.last, last == 32 || last == 9 { token = token.dropLast() }
                if Self.equalsIgnoringCase(token, "close") { return false }
                if Self.equalsIgnoringCase(token, "keep-alive") { keepAlive = true }
            }
        }
        return keepAlive
    }

    /// `true` when `bytes` spell `word` (lowercase ASCII), letters compared without case.
    private static func equalsIgnoringCase(_ bytes: Substring.UTF8View.SubSequence, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { $0 == $1 || ($0 >= 65 && $0 <= 90 && $0 | 0x20 == $1) }
        }
    }
}

/// Why a request cannot be answered: the status of the answer, and a sentence for its body.
/// The connection closes after such an answer (what follows cannot be framed).
struct RequestRejection: Error, Sendable, Equatable {
    let status: Int
    let reason: String
}

extension String {
    /// `true` when both are the same field name: ASCII letters compared without case.
    func isSameFieldName(as other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { $0 == $1 || ($0 | 0x20 == $1 | 0x20 && ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) }
    }
}
