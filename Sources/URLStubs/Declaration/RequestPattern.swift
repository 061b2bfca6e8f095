import Foundation

/// Which requests a declared stub answers, as data: every part given must hold.
///
/// ```swift
/// var pattern = RequestPattern(method: "GET", path: .template("/users/:id"))
/// pattern.headers["Accept"] = .contains("json")
/// pattern.query["expand"] = .absent
/// ```
///
/// The matcher functions build the same value: `(isMethod(.get) && isPath("/users/:id")).pattern`
/// equals the pattern above without its headers and query. A matcher built from a closure has
/// no pattern: closures stay the way to say what data cannot.
///
/// Names of headers compare without case; query parameters and cookies by exact name. A
/// repeated query parameter holds when any of its values does.
public struct RequestPattern: Sendable, Hashable {
    /// The method, upper-cased (`GET`); `nil` for any.
    public var method: String?
    /// The whole URL: `equalTo` compares normalized URLs (query parameters in any order).
    public var url: TextPattern?
    /// The host, lower-cased and in its ASCII form (``isHost(_:)``).
    public var host: TextPattern?
    /// The path as path matchers see it (``isPath(_:)``): `equalTo`, `hasPrefix`, `matches`
    /// or `template`.
    public var path: TextPattern?
    /// Query parameters by name.
    public var query: [String: TextPattern]
    /// Header fields by name (any case).
    public var headers: [String: TextPattern]
    /// Cookies the request sends, by name.
    public var cookies: [String: TextPattern]
    /// Conditions on the body; each must hold.
    public var body: [BodyPattern]
    /// Patterns of which at least one must hold as well (an `||` of matchers).
    public var anyOf: [RequestPattern]
    /// Patterns none of which may hold (a `!` of a matcher).
    public var noneOf: [RequestPattern]
    /// Further patterns that must all hold (an `&&` whose sides name the same part).
    public var allOf: [RequestPattern]

    /// A pattern; with no argument, one that accepts every request.
    public init(
        method: String? = nil, url: TextPattern? = nil, host: TextPattern? = nil, path: TextPattern? = nil,
        query: [String: TextPattern] = [:], headers: [String: TextPattern] = [:], cookies: [String: TextPattern] = [:],
        body: [BodyPattern] = [], anyOf: [RequestPattern] = [], noneOf: [RequestPattern] = [], allOf: [RequestPattern] = []
    ) {
        self.method = method?.uppercased()
        self.url = url
        self.host = host
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.anyOf = anyOf
        self.noneOf = noneOf
        self.allOf = allOf
    }

    /// `true` for the pattern that accepts every request.
    public var acceptsEverything: Bool { self == RequestPattern() }

    /// Both patterns at once (`&&`): their parts side by side where they name different
    /// parts, else the two kept whole in ``allOf``.
    func and(_ other: RequestPattern) -> RequestPattern {
        if acceptsEverything { return other }
        if other.acceptsEverything { return self }
        func disjoint<Value>(_ left: Value?, _ right: Value?) -> Bool { left == nil || right == nil }
        let headerNames = Set(headers.keys.map { $0.lowercased() })
        guard disjoint(method, other.method), disjoint(url, other.url), disjoint(host, other.host), disjoint(path, other.path),
            Set(query.keys).isDisjoint(with: other.query.keys), headerNames.isDisjoint(with: other.headers.keys.map { $0.lowercased() }),
            Set(cookies.keys).isDisjoint(with: other.cookies.keys), anyOf.isEmpty || other.anyOf.isEmpty
        else {
            return RequestPattern(allOf: [self, other])
        }
        var merged = self
        merged.method = method ?? other.method
        merged.url = url ?? other.url
        merged.host = host ?? other.host
        merged.path = path ?? other.path
        merged.query.merge(other.query) { first, _ in first }
        merged.headers.merge(other.headers) { first, _ in first }
        merged.cookies.merge(other.cookies) { first, _ in first }
        merged.body += other.body
        merged.anyOf += other.anyOf
        merged.noneOf += other.noneOf
        merged.allOf += other.allOf
        return merged
    }
}
