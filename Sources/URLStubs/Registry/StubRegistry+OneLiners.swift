import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRequest {
    /// An HTTP method, for the one-line stubs keyed by method and URL
    /// (``StubRegistry/stub(_:_:name:statusCode:headers:json:fileID:filePath:line:)``).
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

extension StubRegistry {
    /// Stubs one method and URL with a JSON body, in one line (the Mocker habit).
    ///
    /// ```swift
    /// registry.stub(.get, "https://api.example.com/users", json: ["users": [["id": 1]]])
    /// registry.stub(.post, "https://api.example.com/users", statusCode: 201, json: ["id": 2])
    /// ```
    ///
    /// The URL must match exactly, query included (its parameters in any order): it is
    /// `isMethod(method) && isAbsoluteURLString(url)`, named `"GET https://…"` unless `name`
    /// says otherwise. `json` is what `JSONSerialization` accepts (dictionaries, arrays,
    /// strings, numbers, `Bool`, `NSNull`), as for ``hasJSONBody(_:)``; a value that is not
    /// JSON fails each request the stub answers with an error naming its type.
    @discardableResult
    public func stub(
        _ method: StubRequest.Method, _ url: String, name: String? = nil, statusCode: Int = 200,
        headers: [String: String] = [:], json: Any,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) -> StubDescriptor {
        var headers = headers
        if !headers.keys.contains(where: { $0.equalsIgnoringASCIICase("Content-Type") }) {
            headers["Content-Type"] = "application/json"
        }
        let answer: StubAnswer
        do {
            answer = .constant(StubResponse(data: try JSONValue(any: json).serialized(), statusCode: statusCode, headers: headers))
        } catch {
            let failure = SendableError(error: error)
            answer = .closure { _, _ in throw failure.error }
        }
        return add(
            isMethod(method.rawValue) && isAbsoluteURLString(url), name: name ?? "\(method) \(url)", times: nil,
            location: StubLocation(fileID: fileID, filePath: filePath, line: line), answer: answer)
    }

    /// Stubs one method and URL with a body of bytes (none by default), in one line.
    ///
    /// ```swift
    /// registry.stub(.delete, "https://api.example.com/users/1", statusCode: 204)
    /// registry.stub(.get, "https://cdn.example.com/logo.png", headers: ["Content-Type": "image/png"], data: png)
    /// ```
    ///
    /// The URL must match exactly, query included (its parameters in any order).
    @discardableResult
    public func stub(
        _ method: StubRequest.Method, _ url: String, name: String? = nil, statusCode: Int = 200,
        headers: [String: String] = [:], data: Data = Data(),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) -> StubDescriptor {
        add(
            isMethod(method.rawValue) && isAbsoluteURLString(url), name: name ?? "\(method) \(url)", times: nil,
            location: StubLocation(fileID: fileID, filePath: filePath, line: line),
            answer: .constant(StubResponse(data: data, statusCode: statusCode, headers: headers)))
    }
}
