import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decides whether a stub answers a request, and explains itself when it does not.
///
/// A matcher is a plain value: build it from the functions in this module
/// (`isHost`, `isPath`, `containsQueryParams`, …) or from a closure, and combine matchers with
/// `&&`, `||` and `!`. Its ``description`` is what reports and failure messages print, so a
/// custom matcher deserves a name that reads well after "expected".
///
/// ```swift
/// let matcher = isHost("api.example.com") && (isMethod(.get) || isMethod(.head))
/// let onPort8080 = RequestMatcher("port 8080") { request in request.url?.port == 8080 }
/// ```
public struct RequestMatcher: Sendable, CustomStringConvertible {
    /// What the matcher accepts, in words ("host is \"api.example.com\"").
    public let description: String
    let evaluate: @Sendable (StubRequest) -> MatchResult
    /// Exact values every accepted request must have; the registry indexes stubs by them.
    let keys: MatchKeys
    /// Mistakes found while building the matcher (an invalid regular expression, a URL
    /// pattern syntax error). A stub with problems fails every request that reaches it
    /// with a ``StubError/invalidMatcher(stub:problems:)`` instead of silently never matching.
    public let problems: [String]
    /// `true` when the matcher runs code handed to it (a closure given to a public
    /// initializer): it may block, so the loading context never runs it (``UserCodeRunner``).
    let runsUserCode: Bool
    /// What the matcher accepts, as data (``pattern``).
    private(set) var declaredPattern: RequestPattern?

    /// A matcher from a predicate.
    /// - Parameters:
    ///   - description: Words that complete "expected …" in a mismatch report.
    ///   - predicate: Returns `true` for requests this matcher accepts.
    public init(_ description: String, _ predicate: @escaping @Sendable (StubRequest) -> Bool) {
        self.init(description: description, runsUserCode: true) { request in
            predicate(request) ? .matched : .failed("expected \(description)")
        }
    }

    /// A matcher that explains its mismatches: the closure returns `nil` to accept the
    /// request, or the reason it does not (`"expected host \"a\", got \"b\""`).
    public init(_ description: String, explaining check: @escaping @Sendable (StubRequest) -> String?) {
        self.init(description: description, runsUserCode: true) { request in
            check(request).map(MatchResult.failed) ?? .matched
        }
    }

    init(
        description: String, keys: MatchKeys = MatchKeys(), problems: [String] = [], runsUserCode: Bool = false,
        pattern: RequestPattern? = nil, evaluate: @escaping @Sendable (StubRequest) -> MatchResult
    ) {
        self.description = description
        self.declaredPattern = pattern
        self.keys = keys
        self.problems = problems
        self.runsUserCode = runsUserCode
        self.evaluate = evaluate
    }

    /// `true` when the matcher accepts `request`.
    public func matches(_ request: StubRequest) -> Bool { evaluate(request).isMatch }

    /// Every reason `request` is refused; empty when it matches.
    public func mismatches(for request: StubRequest) -> [String] { evaluate(request).failures }

    /// A matcher that accepts every request.
    public static let any = RequestMatcher(description: "any request", pattern: RequestPattern()) { _ in .matched }

    /// The same matcher, saying `pattern` is what it accepts.
    package func described(by pattern: RequestPattern) -> RequestMatcher {
        var copy = self
        copy.declaredPattern = pattern
        return copy
    }

    /// A matcher of this library built through the public closure initializer: its code never
    /// blocks, so it may run on the loading context, and `pattern` says what it accepts.
    func withoutUserCode(_ pattern: RequestPattern) -> RequestMatcher {
        RequestMatcher(description: description, keys: keys, problems: problems, pattern: pattern, evaluate: evaluate)
    }

}

/// The outcome of one matcher against one request.
struct MatchResult: Sendable {
    /// Values captured by URL patterns.
    var captures: [String: String] = [:]
    /// Why the request was refused; empty when it matched.
    var failures: [String] = []
    /// How many elementary conditions held, to rank near misses.
    var passed: Int = 0
    /// `true` when the outcome assumed a body matcher would accept a body that cannot be read
    /// (an upload task on Apple platforms; on Linux, only while `canInit` decides). The final
    /// decision must not rest on it.
    var dependsOnUnknownBody = false

    var isMatch: Bool { failures.isEmpty }

    static let matched = MatchResult(passed: 1)
    static func failed(_ reason: String) -> MatchResult { MatchResult(failures: [reason]) }
    static func matched(captures: [String: String]) -> MatchResult { MatchResult(captures: captures, passed: 1) }
    /// A body matcher's answer when the body cannot be read: "maybe".
    static let bodyUnknown = MatchResult(passed: 1, dependsOnUnknownBody: true)
}

/// Exact request properties implied by a matcher, for the registry's index: a request that
/// lacks one of them can never be accepted. `&&` keeps both sides' keys, `||` only those both
/// sides require, `!` and closures none (their stubs are scanned).
package struct MatchKeys: Sendable, Equatable {
    var host: String?
    var path: String?
    /// The upper-cased method (`isMethod`).
    var method: String?
    /// Query parameters with the exact value required (`containsQueryParams`).
    var queryParameters: [QueryParameter] = []
    /// A value of a kind a request strategy reads (an operation name).
    var strategyKey: IndexKey?
    /// The whole JSON body (`hasJSONBody(_:)`).
    var jsonBody: JSONValue?
    /// The whole body, byte for byte (`hasBody`).
    var body: Data?

    struct QueryParameter: Sendable, Hashable {
        let name: String
        let value: String
    }

    init(
        host: String? = nil, path: String? = nil, method: String? = nil, queryParameters: [QueryParameter] = [],
        strategyKey: IndexKey? = nil, jsonBody: JSONValue? = nil, body: Data? = nil
    ) {
        self.host = host
        self.path = path
        self.method = method
        self.queryParameters = queryParameters
        self.strategyKey = strategyKey
        self.jsonBody = jsonBody
        self.body = body
    }

    /// Both sets of keys (for `&&`). Where both name a value, either is a valid key: a
    /// request must then have both, which no request has, and the stub never matches.
    func merged(with other: MatchKeys) -> MatchKeys {
        MatchKeys(
            host: host ?? other.host, path: path ?? other.path, method: method ?? other.method,
            queryParameters: queryParameters + other.queryParameters.filter { !queryParameters.contains($0) },
            strategyKey: strategyKey ?? other.strategyKey,
            jsonBody: jsonBody ?? other.jsonBody, body: body ?? other.body)
    }

    /// The keys both sides require (for `||`: a request accepted by either side has them).
    func common(with other: MatchKeys) -> MatchKeys {
        func same<Value: Equatable>(_ left: Value?, _ right: Value?) -> Value? { left == right ? left : nil }
        return MatchKeys(
            host: same(host, other.host), path: same(path, other.path), method: same(method, other.method),
            queryParameters: queryParameters.filter { other.queryParameters.contains($0) },
            strategyKey: same(strategyKey, other.strategyKey),
            jsonBody: same(jsonBody, other.jsonBody), body: same(body, other.body))
    }
}

// MARK: - Operators

/// Accepts a request only when both matchers do. Evaluates both, so a report lists every
/// reason a request was refused, not just the first.
public func && (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
    RequestMatcher(
        description: "\(lhs.description) and \(rhs.description)",
        keys: lhs.keys.merged(with: rhs.keys),
        problems: lhs.problems + rhs.problems,
        runsUserCode: lhs.runsUserCode || rhs.runsUserCode,
        pattern: lhs.declaredPattern.flatMap { left in rhs.declaredPattern.map { left.and($0) } }
    ) { request in
        var left = lhs.evaluate(request)
        let right = rhs.evaluate(request)
        // In place, and without touching the (usually empty) collections: this runs for
        // every candidate stub of every request.
        if !right.captures.isEmpty { left.captures.merge(right.captures) { first, _ in first } }
        if !right.failures.isEmpty { left.failures += right.failures }
        left.passed += right.passed
        if right.dependsOnUnknownBody { left.dependsOnUnknownBody = true }
        return left
    }
}

/// Accepts a request when either matcher does.
public func || (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
    RequestMatcher(
        description: "(\(lhs.description) or \(rhs.description))",
        keys: lhs.keys.common(with: rhs.keys),
        problems: lhs.problems + rhs.problems,
        runsUserCode: lhs.runsUserCode || rhs.runsUserCode,
        pattern: lhs.declaredPattern.flatMap { left in rhs.declaredPattern.map { RequestPattern(anyOf: [left, $0]) } }
    ) { request in
        let left = lhs.evaluate(request)
        if left.isMatch { return left }
        let right = rhs.evaluate(request)
        if right.isMatch { return right }
        let reason =
            "expected \(lhs.description) or \(rhs.description): "
            + (left.failures + right.failures).joined(separator: "; ")
        return MatchResult(failures: [reason], passed: max(left.passed, right.passed))
    }
}

/// Accepts a request when the matcher does not.
public prefix func ! (matcher: RequestMatcher) -> RequestMatcher {
    RequestMatcher(
        description: "not (\(matcher.description))", problems: matcher.problems, runsUserCode: matcher.runsUserCode,
        pattern: matcher.declaredPattern.map { RequestPattern(noneOf: [$0]) }
    ) { request in
        let inner = matcher.evaluate(request)
        // "Not maybe" is still maybe.
        if inner.dependsOnUnknownBody { return .bodyUnknown }
        return inner.isMatch ? .failed("expected not (\(matcher.description))") : .matched
    }
}
