import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as matchers, response closures and hooks see it.
///
/// `StubRequest` wraps the `URLRequest` the session is loading and adds what the raw
/// request hides: the body (read from `httpBody`, an `httpBodyStream`, or an upload task's
/// body), and the values a URL pattern captured. Every `URLRequest` property is available
/// directly through dynamic member lookup, so `request.url` and `request.httpMethod` read
/// as they always did.
///
/// ```swift
/// registry.stub(isMethod(.post) && isPath("/users/:id")) { request in
///     let id = request.pathParameters["id"] ?? "?"
///     let name = request.bodyString ?? ""
///     return StubResponse(data: Data("\(id): \(name)".utf8), statusCode: 200)
/// }
/// ```
@dynamicMemberLookup
public struct StubRequest: Sendable, CustomStringConvertible {
    /// The request as the session built it (cookies and configuration headers included).
    public let urlRequest: URLRequest
    /// The request body, whichever way it was sent; `nil` when the request has none.
    public let body: Data?
    /// Values captured by URL patterns such as `isPath("/users/:id")` (`["id": "42"]`).
    public internal(set) var pathParameters: [String: String]
    /// `false` only while deciding whether to claim a request whose body is not visible yet
    /// (upload tasks on Linux): body matchers then answer "maybe" instead of "no".
    package let isBodyKnown: Bool
    /// The percent-decoded path (`%2F` kept as an escape), computed once: every path matcher reads it.
    package let urlPath: String?
    /// The lowercased host, computed once: the host index and every host matcher read it.
    let urlHost: String?
    /// The query items, once the registry's index has parsed them for this lookup, so the
    /// matchers it then runs do not parse the URL again.
    package var parsedQueryItems: [URLQueryItem]?

    /// Creates a request value, for unit-testing a matcher without a session.
    public init(_ urlRequest: URLRequest, body: Data? = nil, pathParameters: [String: String] = [:]) {
        self.init(urlRequest, body: body ?? urlRequest.httpBody, pathParameters: pathParameters, isBodyKnown: true)
    }

    init(_ urlRequest: URLRequest, body: Data?, pathParameters: [String: String], isBodyKnown: Bool) {
        self.urlRequest = urlRequest
        self.body = body
        self.pathParameters = pathParameters
        self.isBodyKnown = isBodyKnown
        let url = urlRequest.url
        self.urlPath = url.map(pathOf)
        self.urlHost = url.flatMap(hostOf)
    }

    /// Any `URLRequest` property: `request.url`, `request.httpMethod`, `request.allHTTPHeaderFields`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<URLRequest, Value>) -> Value {
        urlRequest[keyPath: keyPath]
    }

    /// The HTTP method, `GET` when the request does not say.
    public var method: String {
        guard let method = urlRequest.httpMethod else { return "GET" }
        return Self.isUppercaseASCII(method) ? method : method.uppercased()
    }

    /// Whether `text` is ASCII without lowercase letters, so `uppercased()` would return it
    /// unchanged: the usual method (`GET`, `POST`) is read several times per request, and
    /// `uppercased()` costs about 250 instructions each time.
    private static func isUppercaseASCII(_ text: String) -> Bool {
        for byte in text.utf8 where byte >= 0x80 || (byte >= 0x61 && byte <= 0x7A) { return false }
        return true
    }

    /// The body decoded as UTF-8, or `nil` when there is no body or it is not UTF-8.
    public var bodyString: String? { body.flatMap { String(data: $0, encoding: .utf8) } }

    /// The request's header fields, ordered by name (`URLRequest` holds one value per name).
    public var headers: HeaderFields { HeaderFields(urlRequest.allHTTPHeaderFields ?? [:]) }

    /// A header's value, looked up case-insensitively as HTTP requires.
    public func value(forHTTPHeaderField name: String) -> String? {
        urlRequest.value(forHTTPHeaderField: name)
    }

    /// The query items of the URL, in the order they appear.
    public var queryItems: [URLQueryItem] {
        if let parsedQueryItems { return parsedQueryItems }
        guard let url = urlRequest.url else { return [] }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }

    /// `GET https://api.example.com/users`, as reports print a request.
    public var description: String {
        "\(method) \(urlRequest.url?.absoluteString ?? "<no URL>")"
    }

    /// The request with its body restored into `httpBody`, as hooks hand it on.
    var requestWithBody: URLRequest {
        guard let body, urlRequest.httpBody == nil else { return urlRequest }
        var copy = urlRequest
        copy.httpBodyStream = nil
        copy.httpBody = body
        return copy
    }
}
