import Foundation

extension StubRequest {
    /// An HTTP method: what ``isMethod(_:)-(StubRequest.Method)`` accepts and what the one-line stubs are keyed by
    /// (``StubRegistry/stub(_:_:name:statusCode:headers:json:fileID:filePath:line:)``). A string
    /// literal is a method, so `isMethod(.post)` and `isMethod("POST")` say the same.
    ///
    /// Nested here rather than a top-level `HTTPMethod`, a name many apps and networking
    /// libraries already use: importing URLStubs into their tests must not make it ambiguous.
    public struct Method: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The method as sent, upper-cased (`GET`).
        public let rawValue: String

        /// A method by name; `"get"` and `"GET"` are the same method.
        public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

        /// `"PROPFIND"` as a method.
        public init(stringLiteral value: String) { self.init(rawValue: value) }

        /// `GET`.
        public static let get = Method(rawValue: "GET")
        /// `POST`.
        public static let post = Method(rawValue: "POST")
        /// `PUT`.
        public static let put = Method(rawValue: "PUT")
        /// `PATCH`.
        public static let patch = Method(rawValue: "PATCH")
        /// `DELETE`.
        public static let delete = Method(rawValue: "DELETE")
        /// `HEAD`.
        public static let head = Method(rawValue: "HEAD")
        /// `OPTIONS`.
        public static let options = Method(rawValue: "OPTIONS")

        /// The raw value.
        public var description: String { rawValue }
    }
}
