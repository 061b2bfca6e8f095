import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Parts of a request that change on every run (a cache-busting query parameter, a request
/// id header, a timestamp or nonce in the JSON body) and so must not decide whether a
/// recorded or expected request is "the same" as a live one.
///
/// One value serves every place that compares requests: `HARReplayOptions.volatileFields` (in
/// `URLStubsRecording`) for replay, and the same paths as ``hasJSONBody(_:ignoring:)`` takes.
///
/// ```swift
/// var options = HARReplayOptions()
/// options.volatileFields = VolatileFields(queryParameters: ["_"], headers: ["X-Request-ID"],
///                                         jsonPaths: ["$.timestamp", "$.items[*].id", "$..nonce"])
/// try registry.stubs(fromHAR: harURL, options: options)
/// ```
///
/// JSON paths: `$` is the body, `.name` or `['name']` a member, `[2]` an array element,
/// `[*]` or `.*` every element or member, `..name` a member at any depth. A format module
/// that reads a request as a JSON object of its own applies the paths to that object (with
/// `URLStubsGraphQL`, an operation's `{"query", "operationName", "variables", "extensions"}`,
/// however it was sent: `$.variables.clientTime`).
///
/// - Important: A path that cannot be parsed never silently ignores nothing: stubs built with
///   it fail every request that reaches them with ``StubError/invalidMatcher(stub:problems:)``
///   naming the path and the column, and ``StubRegistry/verify(includePassedThrough:)``
///   reports them as invalid stubs.
public struct VolatileFields: Sendable, Equatable {
    /// Query parameter names (case-sensitive, as URLs are) whose presence and value are ignored.
    let queryParameters: Set<String>
    /// Header names, lower-cased, whose presence and value are ignored.
    let headers: Set<String>
    /// The JSON paths as written.
    package let jsonPaths: [String]
    /// Syntax errors in ``jsonPaths``, one sentence each; empty when every path is valid.
    package let problems: [String]
    let paths: [JSONPath]

    /// Fields to ignore when comparing requests; `VolatileFields()` ignores nothing.
    /// - Parameters:
    ///   - queryParameters: Query parameter names such as `_` or `cacheBuster`.
    ///   - headers: Header names (case-insensitive) such as `X-Request-ID` or `Date`.
    ///   - jsonPaths: JSON paths into the body such as `$.timestamp` or `$.items[*].id`.
    public init(queryParameters: Set<String> = [], headers: Set<String> = [], jsonPaths: [String] = []) {
        self.queryParameters = queryParameters
        self.headers = Set(headers.map { $0.lowercased() })
        self.jsonPaths = jsonPaths
        var parsed: [JSONPath] = []
        var problems: [String] = []
        for text in jsonPaths {
            do { parsed.append(try JSONPath(text)) } catch { problems.append("\(error)") }
        }
        self.paths = parsed
        self.problems = problems
    }

    /// These fields and `other`'s.
    func union(_ other: VolatileFields) -> VolatileFields {
        VolatileFields(
            queryParameters: queryParameters.union(other.queryParameters), headers: headers.union(other.headers),
            jsonPaths: jsonPaths + other.jsonPaths.filter { !jsonPaths.contains($0) })
    }

    /// `true` when nothing is ignored.
    var isEmpty: Bool { queryParameters.isEmpty && headers.isEmpty && jsonPaths.isEmpty }

    // MARK: Applying

    /// Whether the header `name` is ignored (case-insensitive).
    package func ignoresHeader(_ name: String) -> Bool {
        !headers.isEmpty && headers.contains(name.lowercased())
    }

    /// The query items without the volatile ones.
    package func keptQueryItems(_ items: [URLQueryItem]) -> [URLQueryItem] {
        queryParameters.isEmpty ? items : items.filter { !queryParameters.contains($0.name) }
    }

    /// `url` without its volatile query parameters (`nil` query when none is left).
    func removingQueryParameters(from url: URL) -> URL {
        guard !queryParameters.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let items = components.queryItems
        else { return url }
        let kept = keptQueryItems(items)
        guard kept.count != items.count else { return url }
        components.queryItems = kept.isEmpty ? nil : kept
        return components.url ?? url
    }

    /// `json` without the members and elements the paths name.
    package func removingPaths(from json: JSONValue) -> JSONValue {
        paths.reduce(json) { $1.removing(from: $0) }
    }
}
