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
            // Options read byte by byte from contiguous UTF-8, without case: no Foundation
            // trimming or lowercasing, no arrays, for a field nearly every client sends.
            var value = field.value
            let (closes, keeps) = value.withUTF8 { Self.connectionOptions($0) }
            if closes { return false }
            if keeps { keepAlive = true }
        }
        return keepAlive
    }

    /// Whether the comma-separated options in `bytes` hold `close` and `keep-alive`.
    private static func connectionOptions(_ bytes: UnsafeBufferPointer<UInt8>) -> (closes: Bool, keeps: Bool) {
        var closes = false
        var keeps = false
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            var first = start
            var last = end
            while first < last, bytes[first] == 32 || bytes[first] == 9 { first += 1 }
            while last > first, bytes[last - 1] == 32 || bytes[last - 1] == 9 { last -= 1 }
            let token = UnsafeBufferPointer(rebasing: bytes[first..<last])
            if equalsIgnoringCase(token, "close") { closes = true }
            if equalsIgnoringCase(token, "keep-alive") { keeps = true }
            start = end + 1
        }
        return (closes, keeps)
    }

    /// `true` when `bytes` spell `word` (lowercase ASCII), letters compared without case.
    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let expected = word.utf8Start
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let lowered = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
            if lowered != expected[index] { return false }
        }
        return true
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
    /// Byte by byte with two iterators (not `zip`, whose iterator cost about 900 instructions
    /// a comparison): names are compared several times for every request.
    func isSameFieldName(as other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        var left = lhs.makeIterator()
        var right = rhs.makeIterator()
        while let a = left.next(), let b = right.next() {
            guard a != b else { continue }
            let folded = a | 0x20
            guard folded == b | 0x20, folded >= 0x61, folded <= 0x7A else { return false }
        }
        return true
    }
}
