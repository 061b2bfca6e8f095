import Foundation

/// Which requests a stub answers, as a value a test sends to the app it launched: the
/// ``RequestMatcher``s a closure-free description can hold, all of which must accept a request.
///
/// ```swift
/// RemoteMatcher.get("/api/cart")
/// RemoteMatcher(method: "POST", host: "api.shop.test", path: "/api/orders/:id",
///               queryItems: ["dry-run": nil], headers: ["Authorization": nil],
///               jsonBody: ["sku": "tea"])
/// RemoteMatcher(graphQLOperation: "Cart")
/// ```
///
/// Every field is optional; an empty matcher accepts every request. It is `Codable`, since it
/// crosses from the test process to the app.
public struct RemoteMatcher: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP method, any case.
    @_spi(TestRunnerLink) public var method: String?
    /// The host, exactly.
    @_spi(TestRunnerLink) public var host: String?
    /// Exact, or a pattern (`/users/:id`, `*`, `**`), as for ``isPath(_:)``.
    @_spi(TestRunnerLink) public var path: String?
    /// An absolute URL, query parameters in any order, as for ``isAbsoluteURLString(_:)``.
    @_spi(TestRunnerLink) public var url: String?
    /// `nil` values: present, with any value.
    @_spi(TestRunnerLink) public var queryItems: [String: String?]?
    /// `nil` values: present, with any value.
    @_spi(TestRunnerLink) public var headers: [String: String?]?
    /// A subset the JSON body must contain, as for ``hasJSONBody(containing:arrays:)``.
    @_spi(TestRunnerLink) public var jsonBody: WireJSON?
    /// The GraphQL operation name.
    @_spi(TestRunnerLink) public var graphQLOperation: String?
    /// Why a field given to the initializer cannot be sent (a `jsonBody` that is not JSON).
    @_spi(TestRunnerLink) public var conversionProblem: String?

    private enum CodingKeys: String, CodingKey {
        case method, host, path, url, queryItems, headers, jsonBody, graphQLOperation
    }

    /// A matcher of the fields given.
    /// - Parameters:
    ///   - method: The HTTP method, any case.
    ///   - host: The host, exactly.
    ///   - path: The path exactly, or a pattern such as `/users/:id` (see ``isPath(_:)``).
    ///   - url: The absolute URL, query parameters in any order.
    ///   - queryItems: Parameters the query must hold; a `nil` value accepts any value.
    ///   - headers: Headers the request must have; a `nil` value accepts any value.
    ///   - jsonBody: What the JSON body must contain (`JSONSerialization` values).
    ///   - graphQLOperation: The GraphQL operation name.
    public init(
        method: String? = nil, host: String? = nil, path: String? = nil, url: String? = nil,
        queryItems: [String: String?] = [:], headers: [String: String?] = [:], jsonBody: Any? = nil,
        graphQLOperation: String? = nil
    ) {
        self.method = method
        self.host = host
        self.path = path
        self.url = url
        self.queryItems = queryItems.isEmpty ? nil : queryItems
        self.headers = headers.isEmpty ? nil : headers
        if let jsonBody {
            do {
                self.jsonBody = WireJSON(try JSONValue(any: jsonBody))
            } catch {
                conversionProblem = "jsonBody is not JSON: \(error)"
            }
        }
        self.graphQLOperation = graphQLOperation
    }

    /// Accepts every request.
    public static var any: RemoteMatcher { RemoteMatcher() }
    /// `GET` requests to `path` (exact or a pattern).
    public static func get(_ path: String) -> RemoteMatcher { RemoteMatcher(method: "GET", path: path) }
    /// `POST` requests to `path` (exact or a pattern).
    public static func post(_ path: String) -> RemoteMatcher { RemoteMatcher(method: "POST", path: path) }
    /// `PUT` requests to `path` (exact or a pattern).
    public static func put(_ path: String) -> RemoteMatcher { RemoteMatcher(method: "PUT", path: path) }
    /// `PATCH` requests to `path` (exact or a pattern).
    public static func patch(_ path: String) -> RemoteMatcher { RemoteMatcher(method: "PATCH", path: path) }
    /// `DELETE` requests to `path` (exact or a pattern).
    public static func delete(_ path: String) -> RemoteMatcher { RemoteMatcher(method: "DELETE", path: path) }

    /// The ``RequestMatcher`` the app answers with.
    @_spi(TestRunnerLink) public var requestMatcher: RequestMatcher {
        var parts: [RequestMatcher] = []
        if let method { parts.append(isMethod(StubRequest.Method(rawValue: method))) }
        if let host { parts.append(isHost(host)) }
        if let path { parts.append(isPath(path)) }
        if let url { parts.append(isAbsoluteURLString(url)) }
        if let queryItems { parts.append(containsQueryParams(queryItems)) }
        for (name, value) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) { parts.append(hasHeaderNamed(name, value: value)) }
        if let jsonBody { parts.append(hasJSONBody(containing: jsonBody.value)) }
        if let graphQLOperation { parts.append(isGraphQLOperation(graphQLOperation)) }
        guard var combined = parts.first else { return .any }
        for part in parts.dropFirst() { combined = combined && part }
        return combined
    }

    /// What is wrong with this matcher (a path pattern's syntax, a body that is not JSON, an
    /// empty method); empty when nothing is.
    @_spi(TestRunnerLink) public var problems: [String] {
        var problems = conversionProblem.map { [$0] } ?? []
        if let method, method.isEmpty || method.contains(where: { $0.isWhitespace }) {
            problems.append("method \"\(method)\" is not an HTTP method")
        }
        if let path, !path.hasPrefix("/") { problems.append("path \"\(path)\" must start with \"/\"") }
        if let url, URL(string: url)?.host == nil { problems.append("url \"\(url)\" is not an absolute URL") }
        return problems + requestMatcher.problems
    }

    /// What the matcher accepts, in words (`method is "GET" and path is "/api/cart"`).
    public var description: String { requestMatcher.description }
}
