import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Every matcher explains a mismatch as "expected X, got Y", because that sentence is what a
// developer reads in a near-miss report when a request went unanswered.

/// `value` between double quotes, as a report quotes it; `none` for a missing value.
package func quoted(_ value: String?) -> String {
    value.map { "\"\($0)\"" } ?? "none"
}

// MARK: - URL

/// Accepts requests whose URL scheme is `scheme` (case-insensitive).
public func isScheme(_ scheme: String) -> RequestMatcher {
    let expected = scheme.lowercased()
    return RequestMatcher("scheme is \"\(expected)\"") { request in
        let actual = request.url?.scheme?.lowercased()
        return actual == expected ? nil : "expected scheme \"\(expected)\", got \(quoted(actual))"
    }
}

/// Accepts requests to `host` (case-insensitive, port ignored).
///
/// - Important: An internationalized host compares in its ASCII (`xn--`) form on both sides:
///   `isHost("bücher.example")` accepts requests to `bücher.example` and to
///   `xn--bcher-kva.example` alike, and so does `isHost("xn--bcher-kva.example")`. Labels are
///   lower-cased and composed (NFC) before the Punycode encoding; the rest of IDNA's mapping
///   (UTS 46, such as full-width dots) is not applied, so write the host as a browser shows it.
public func isHost(_ host: String) -> RequestMatcher {
    let expected = asciiHost(host)
    return RequestMatcher(
        description: "host is \"\(expected)\"", keys: MatchKeys(host: expected), pattern: RequestPattern(host: .equalTo(expected))
    ) { request in
        let actual = request.urlHost
        return actual == expected ? .matched : .failed("expected host \"\(expected)\", got \(quoted(actual))")
    }
}

/// Accepts requests whose path is `path`.
///
/// - Important: The request's path is compared percent-decoded, except for `%2F`: an encoded
///   slash stays the three characters `%2F`, since `/a%2Fb` is one path segment and `/a/b` two.
///   So `isPath("/a/b")` does not accept `/a%2Fb`, `isPath("/a%2Fb")` does (`%2f` too), and
///   `isPath("/a b")` accepts `/a%20b`. Every path matcher (patterns, prefixes, suffixes,
///   regular expressions) sees the path in this form; `isPath("/files/:name")` accepts
///   `/files/x%2Fy` (one segment) and captures `x/y`.
///
/// A path holding `:name`, `*` or a final `**` segment is a pattern: `isPath("/users/:id")`
/// accepts `/users/42` and hands `["id": "42"]` to the response closure as
/// ``StubRequest/pathParameters``. A pattern syntax error is reported by every request that
/// reaches the stub (see ``StubError/invalidMatcher(stub:problems:)``).
public func isPath(_ path: String) -> RequestMatcher {
    guard PathPattern.isPattern(path) else {
        return RequestMatcher(description: "path is \"\(path)\"", keys: MatchKeys(path: path), pattern: RequestPattern(path: .equalTo(path))) {
            request in
            let actual = request.urlPath
            return actual == path ? .matched : .failed("expected path \"\(path)\", got \(quoted(actual))")
        }
    }
    return patternPathMatcher(path)
}

/// Accepts requests whose path fits `pattern` and captures its parameters.
package func patternPathMatcher(_ pattern: String) -> RequestMatcher {
    let parsed: PathPattern
    do {
        parsed = try PathPattern(pattern)
    } catch {
        return .invalid("path matches \"\(pattern)\"", problem: "\(error)")
    }
    return RequestMatcher(description: "path matches \"\(pattern)\"", pattern: RequestPattern(path: .template(pattern))) { request in
        let actual = request.urlPath ?? ""
        guard let captures = parsed.match(actual) else {
            return .failed("expected path matching \"\(pattern)\", got \"\(actual)\"")
        }
        return .matched(captures: captures)
    }
}

/// Accepts requests whose path starts with `prefix`.
public func pathStartsWith(_ prefix: String) -> RequestMatcher {
    RequestMatcher("path starts with \"\(prefix)\"") { request in
        let actual = request.urlPath ?? ""
        return actual.hasPrefix(prefix) ? nil : "expected path starting with \"\(prefix)\", got \"\(actual)\""
    }.withoutUserCode(RequestPattern(path: .hasPrefix(prefix)))
}

/// Accepts requests whose path ends with `suffix`.
public func pathEndsWith(_ suffix: String) -> RequestMatcher {
    RequestMatcher("path ends with \"\(suffix)\"") { request in
        let actual = request.urlPath ?? ""
        return actual.hasSuffix(suffix) ? nil : "expected path ending with \"\(suffix)\", got \"\(actual)\""
    }.withoutUserCode(RequestPattern(path: .hasSuffix(suffix)))
}

/// Accepts requests whose path matches the regular expression `pattern` (ICU syntax).
///
/// An invalid expression does not crash and does not silently never match: the stub reports
/// it, with the expression and the reason, to every request that reaches it.
public func pathMatches(_ pattern: String) -> RequestMatcher {
    regexMatcher(pattern, subject: "path") { $0.urlPath }.described(by: RequestPattern(path: .matches(pattern)))
}

/// Accepts requests whose absolute URL matches the regular expression `pattern`.
public func urlMatches(_ pattern: String) -> RequestMatcher {
    regexMatcher(pattern, subject: "URL") { $0.url?.absoluteString }.described(by: RequestPattern(url: .matches(pattern)))
}

/// Accepts requests whose body, read as UTF-8, matches the regular expression `pattern`.
public func bodyMatches(_ pattern: String) -> RequestMatcher {
    regexMatcher(pattern, subject: "body", unknownBodyPasses: true) { $0.bodyString }.described(by: RequestPattern(body: [.matches(pattern)]))
}

/// Accepts requests whose last path component has the extension `ext` (without the dot).
public func isExtension(_ ext: String) -> RequestMatcher {
    let expected = ext.lowercased()
    return RequestMatcher("extension is \"\(expected)\"") { request in
        let actual = request.url?.pathExtension.lowercased() ?? ""
        return actual == expected ? nil : "expected extension \"\(expected)\", got \"\(actual)\""
    }
}

/// Accepts requests whose absolute URL is exactly `urlString`. Query parameters must be the
/// same, in any order.
public func isAbsoluteURLString(_ urlString: String) -> RequestMatcher {
    let expected = URL(string: urlString).map(normalizedURL) ?? urlString
    var keys = MatchKeys()
    if let url = URL(string: urlString) {
        keys.host = hostOf(url)
        keys.path = pathOf(url)
    }
    return RequestMatcher(description: "URL is \"\(urlString)\"", keys: keys, pattern: RequestPattern(url: .equalTo(urlString))) { request in
        // The same spelling needs no parsing (the one-line stubs' common case).
        if request.url?.absoluteString == urlString { return .matched }
        let actual = request.url.map(normalizedURL)
        return actual == expected ? .matched : .failed("expected URL \"\(urlString)\", got \(quoted(request.url?.absoluteString))")
    }
}

// MARK: - Method

/// Accepts requests with the HTTP method `method` (case-insensitive).
///
/// ```swift
/// registry.stub(isMethod(.post) && isPath("/orders")) { _ in StubResponse(statusCode: 201) }
/// ```
public func isMethod(_ method: StubRequest.Method) -> RequestMatcher {
    methodMatcher(method.rawValue)
}

func methodMatcher(_ method: String) -> RequestMatcher {
    let expected = method.uppercased()
    return RequestMatcher(description: "method is \(expected)", keys: MatchKeys(method: expected), pattern: RequestPattern(method: expected)) {
        request in
        request.method == expected ? .matched : .failed("expected method \(expected), got \(request.method)")
    }
}

// MARK: - Query and headers

/// Accepts requests whose query holds every listed parameter; a `nil` value means "present,
/// whatever its value". Other parameters may also be present.
///
/// ```swift
/// containsQueryParams(["q": "swift", "page": nil])
/// ```
public func containsQueryParams(_ parameters: [String: String?]) -> RequestMatcher {
    let sorted = parameters.sorted { $0.key < $1.key }
    let words = sorted.map { name, value in value.map { "\(name)=\($0)" } ?? name }.joined(separator: "&")
    let required = sorted.compactMap { name, value in value.map { MatchKeys.QueryParameter(name: name, value: $0) } }
    let pattern = RequestPattern(
        query: Dictionary(uniqueKeysWithValues: sorted.map { ($0.key, $0.value.map { TextPattern.equalTo($0) } ?? .present) }))
    return RequestMatcher(description: "query contains \(words)", keys: MatchKeys(queryParameters: required), pattern: pattern) { request in
        let items = request.queryItems
        var failures: [String] = []
        for (name, expected) in sorted {
            let present = items.filter { $0.name == name }
            if present.isEmpty {
                failures.append("missing query parameter \"\(name)\"")
            } else if let expected, !present.contains(where: { $0.value == expected }) {
                let got = present.map { quoted($0.value) }.joined(separator: ", ")
                failures.append("expected query parameter \"\(name)\" = \"\(expected)\", got \(got)")
            }
        }
        return failures.isEmpty ? MatchResult(passed: sorted.count) : MatchResult(failures: failures, passed: sorted.count - failures.count)
    }
}

/// Accepts requests that send header `name` (case-insensitive), with `value` when given.
public func hasHeaderNamed(_ name: String, value: String? = nil) -> RequestMatcher {
    let words = value.map { "header \(name): \($0)" } ?? "header \(name) present"
    // No request carries such a header: say so at once instead of never matching.
    if !StubResponse.isHeaderToken(name) {
        return .invalid(
            words,
            problem: "\(name.debugDescription) is not a header name (names are letters, digits and !#$%&'*+-.^_`|~)")
    }
    if let value, !StubResponse.isHeaderValue(value) {
        return .invalid(words, problem: "the value \(value.debugDescription) holds CR, LF or NUL, which no header value may hold")
    }
    return RequestMatcher(words) { request in
        let actual = request.value(forHTTPHeaderField: name)
        guard let actual else { return "missing header \"\(name)\"" }
        guard let value else { return nil }
        return actual == value ? nil : "expected header \"\(name)\" = \"\(value)\", got \"\(actual)\""
    }.withoutUserCode(RequestPattern(headers: [name: value.map { .equalTo($0) } ?? .present]))
}

// MARK: - Helpers

/// The lower-cased host in its ASCII form (see ``asciiHost(_:)``), without Foundation's slow
/// path when the host has no escape.
func hostOf(_ url: URL) -> String? {
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *), let raw = url.host(percentEncoded: true),
        !StubTable.containsPercent(raw)
    {
        return StubTable.isLowercaseASCII(raw) ? raw : asciiHost(raw)
    }
    return url.host.map { asciiHost($0) }
}

/// The path as every path matcher compares it: percent-decoded except for `%2F` (see
/// ``decodedPath(_:)``), "/" for an empty one.
func pathOf(_ url: URL) -> String {
    let raw: String
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *), url.baseURL == nil {
        raw = url.path(percentEncoded: true)
    } else {
        raw = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
    }
    // Without a percent escape the raw path is the decoded one.
    let path = StubTable.containsPercent(raw) ? decodedPath(raw) : raw
    return path.isEmpty ? "/" : path
}

private func normalizedURL(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
    components.scheme = components.scheme?.lowercased()
    components.host = components.host?.lowercased()
    if components.path.isEmpty { components.path = "/" }
    components.queryItems = components.queryItems?.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
    if components.queryItems?.isEmpty == true { components.queryItems = nil }
    return components.string ?? url.absoluteString
}

/// `body` in a few words for a report: its text (shortened past 200 characters), its size, or `empty`.
package func describeBody(_ body: Data?) -> String {
    guard let body, !body.isEmpty else { return "empty" }
    if let text = String(data: body, encoding: .utf8) {
        return text.count > 200 ? "\"\(text.prefix(200))…\" (\(body.count) bytes)" : "\"\(text)\""
    }
    return "\(body.count) bytes of binary data"
}

/// A regular expression matcher: every match has ``BudgetedRegex/defaultBudget`` seconds, and one
/// that runs out refuses the request, saying which pattern backtracked and on what.
private func regexMatcher(
    _ pattern: String, subject: String, unknownBodyPasses: Bool = false,
    _ value: @escaping @Sendable (StubRequest) -> String?
) -> RequestMatcher {
    let description = "\(subject) matches /\(pattern)/"
    let compiled: BudgetedRegex
    do {
        compiled = try BudgetedRegex(pattern)
    } catch {
        return .invalid(description, problem: "invalid regular expression /\(pattern)/ for the \(subject): \(RegexDiagnosis.explain(pattern))")
    }
    return RequestMatcher(description: description) { request in
        if unknownBodyPasses, !request.isBodyKnown { return .bodyUnknown }
        let actual = value(request) ?? ""
        switch compiled.firstMatch(in: actual) {
        case .matched: return .matched
        case .notMatched: return .failed("expected \(subject) matching /\(pattern)/, got \"\(actual)\"")
        case .ranOut: return .failed(compiled.ranOutExplanation(subject: subject, length: actual.count))
        }
    }
}
