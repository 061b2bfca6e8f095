import Foundation
import URLStubs
import URLStubsGraphQL
import URLStubsTestRunnerLink

/// Which requests a stub the test adds to the app answers (``AppBackend/stub(_:name:times:response:fileID:line:)``,
/// ``AppBackend/waitForRequests(matching:count:timeout:)``): a spelling of the engine's
/// `RequestPattern`, which is what crosses to the app.
///
/// ```swift
/// RemoteMatcher.get("/api/cart")
/// RemoteMatcher(method: "POST", host: "api.shop.test", path: "/api/orders/:id",
///               queryItems: ["dry-run": nil], headers: ["Authorization": nil],
///               jsonBody: ["sku": "tea"])
/// RemoteMatcher(graphQLOperation: "Cart")
/// RemoteMatcher(pattern)                          // any RequestPattern
/// ```
///
/// Every field is optional; an empty matcher accepts every request. The fields stand for the
/// `URLStubs` matchers of the same names (`isMethod`, `isHost`, `isPath`, `isAbsoluteURLString`,
/// `containsQueryParams`, `hasHeaderNamed`, `hasJSONBody(containing:)`, `isGraphQLOperation`).
/// A GraphQL operation crosses as the pattern kind URLStubsGraphQL registers: the app calls
/// `GraphQLPatternKinds.register()` at launch, or the stub fails naming that call.
public struct RemoteMatcher: Codable, Sendable, Equatable, CustomStringConvertible {
    /// What crosses to the app.
    var pattern: RequestPattern
    /// Why a field given to the initializer cannot be sent (a `jsonBody` that is not JSON, a
    /// path that does not start with `/`).
    private var conversionProblems: [String] = []

    /// A matcher of the fields given.
    /// - Parameters:
    ///   - method: The HTTP method, any case.
    ///   - host: The host, exactly.
    ///   - path: The path exactly, or a pattern such as `/users/:id` (as `isPath(_:)` reads it).
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
        var problems: [String] = []
        var parts: [RequestMatcher] = []
        if let method {
            if method.isEmpty || method.contains(where: { $0.isWhitespace }) { problems.append("method \"\(method)\" is not an HTTP method") }
            parts.append(isMethod(StubRequest.Method(rawValue: method)))
        }
        if let host { parts.append(isHost(host)) }
        if let path {
            if !path.hasPrefix("/") { problems.append("path \"\(path)\" must start with \"/\"") }
            parts.append(isPath(path))
        }
        if let url {
            if URL(string: url)?.host == nil { problems.append("url \"\(url)\" is not an absolute URL") }
            parts.append(isAbsoluteURLString(url))
        }
        if !queryItems.isEmpty { parts.append(containsQueryParams(queryItems)) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { parts.append(hasHeaderNamed(name, value: value)) }
        if let jsonBody {
            do {
                parts.append(hasJSONBody(containing: try JSONValue(any: jsonBody)))
            } catch {
                problems.insert("jsonBody is not JSON: \(error)", at: 0)
            }
        }
        if let graphQLOperation { parts.append(isGraphQLOperation(graphQLOperation)) }
        let matcher = parts.dropFirst().reduce(parts.first ?? .any) { $0 && $1 }
        problems += matcher.problems
        if matcher.pattern == nil { problems.append("\(matcher.description) has no declarative form to send") }
        self.pattern = matcher.pattern ?? RequestPattern()
        conversionProblems = problems
    }

    /// A matcher of `pattern`, the engine's declarative form (what every other spelling is).
    public init(_ pattern: RequestPattern) {
        self.pattern = pattern
        conversionProblems = RequestMatcher(pattern).problems
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

    /// Reads a matcher in the form the app receives: a declaration's `request` member.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            self.init(try DeclarationForms.pattern(from: json, source: "a RemoteMatcher"))
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    /// Writes the matcher in the form the app receives: a declaration's `request` member.
    /// - Throws: `EncodingError.invalidValue` for a matcher that cannot be sent (a `jsonBody`
    ///   that is not JSON).
    public func encode(to encoder: any Encoder) throws {
        try encodeForTheApp(DeclarationForms.json(of: pattern), of: self, unlessRefusedBecause: problems.first, to: encoder)
    }

    /// What is wrong with this matcher (a path pattern's syntax, a body that is not JSON, an
    /// empty method); empty when nothing is.
    var problems: [String] { conversionProblems }

    /// What the matcher accepts, in words (`method is GET and path is "/api/cart"`).
    public var description: String { RequestMatcher(pattern).description }
}

/// Writes `wire`, the form the app receives, for `value`; throws `EncodingError.invalidValue`
/// instead when `problem` says why `value` cannot be sent (a JSON body that is not JSON).
func encodeForTheApp(_ wire: some Encodable, of value: Any, unlessRefusedBecause problem: String?, to encoder: any Encoder) throws {
    if let problem {
        throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: problem))
    }
    try wire.encode(to: encoder)
}
