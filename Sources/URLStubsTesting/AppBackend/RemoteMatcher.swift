import Foundation
import URLStubs
import URLStubsTestRunnerLink

/// Which requests a stub the test adds to the app answers (``AppBackend/stub(_:name:times:response:fileID:line:)``,
/// ``AppBackend/waitForRequests(matching:count:timeout:)``): the request matchers a
/// closure-free description can hold, all of which must accept a request.
///
/// ```swift
/// RemoteMatcher.get("/api/cart")
/// RemoteMatcher(method: "POST", host: "api.shop.test", path: "/api/orders/:id",
///               queryItems: ["dry-run": nil], headers: ["Authorization": nil],
///               jsonBody: ["sku": "tea"])
/// RemoteMatcher(graphQLOperation: "Cart")
/// ```
///
/// Every field is optional; an empty matcher accepts every request. The app matches with the
/// `URLStubs` matchers of the same names (`isMethod`, `isHost`, `isPath`, `isAbsoluteURLString`,
/// `containsQueryParams`, `hasHeaderNamed`, `hasJSONBody(containing:)`, `isGraphQLOperation`).
public struct RemoteMatcher: Codable, Sendable, Equatable, CustomStringConvertible {
    /// What crosses to the app.
    var wire: WireMatcher
    /// Why a field given to the initializer cannot be sent (a `jsonBody` that is not JSON).
    private var conversionProblem: String?

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
        var json: WireJSON?
        if let jsonBody {
            do {
                json = WireJSON(try JSONValue(any: jsonBody))
            } catch {
                conversionProblem = "jsonBody is not JSON: \(error)"
            }
        }
        wire = WireMatcher(
            method: method, host: host, path: path, url: url, queryItems: queryItems, headers: headers, jsonBody: json,
            graphQLOperation: graphQLOperation)
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

    /// Reads a matcher in the form the app receives.
    public init(from decoder: any Decoder) throws {
        wire = try WireMatcher(from: decoder)
    }

    /// Writes the matcher in the form the app receives.
    /// - Throws: `EncodingError.invalidValue` for a matcher that cannot be sent (a `jsonBody`
    ///   that is not JSON).
    public func encode(to encoder: any Encoder) throws {
        try encodeForTheApp(wire, of: self, unlessRefusedBecause: conversionProblem, to: encoder)
    }

    /// What is wrong with this matcher (a path pattern's syntax, a body that is not JSON, an
    /// empty method); empty when nothing is.
    var problems: [String] {
        (conversionProblem.map { [$0] } ?? []) + wire.problems
    }

    /// What the matcher accepts, in words (`method is "GET" and path is "/api/cart"`).
    public var description: String { wire.description }
}

/// Writes `wire`, the form the app receives, for `value`; throws `EncodingError.invalidValue`
/// instead when `problem` says why `value` cannot be sent (a JSON body that is not JSON).
func encodeForTheApp(_ wire: some Encodable, of value: Any, unlessRefusedBecause problem: String?, to encoder: any Encoder) throws {
    if let problem {
        throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: problem))
    }
    try wire.encode(to: encoder)
}
