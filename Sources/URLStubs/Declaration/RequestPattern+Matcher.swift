import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// The matcher a pattern stands for: the same descriptions, index keys and reports as the
    /// matcher functions that build the same pattern (`RequestMatcher(RequestPattern(host:
    /// .equalTo("a")))` reads like `isHost("a")`).
    ///
    /// A regular expression or template that does not compile, or a pattern kind no library
    /// registered, gives a matcher whose ``problems`` say so;
    /// `registry.stub(declaration)` refuses such a declaration.
    public init(_ pattern: RequestPattern) {
        var parts: [RequestMatcher] = []
        if let method = pattern.method { parts.append(methodMatcher(method)) }
        if let url = pattern.url { parts.append(Self.url(url)) }
        if let host = pattern.host { parts.append(Self.host(host)) }
        if let path = pattern.path { parts.append(Self.path(path)) }
        for (name, value) in pattern.query.sorted(by: { $0.key < $1.key }) { parts.append(Self.query(name, value)) }
        for (name, value) in pattern.headers.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            parts.append(Self.header(name, value))
        }
        for (name, value) in pattern.cookies.sorted(by: { $0.key < $1.key }) { parts.append(Self.cookie(name, value)) }
        parts += pattern.body.map(Self.body)
        if let first = pattern.anyOf.first {
            parts.append(pattern.anyOf.dropFirst().reduce(RequestMatcher(first)) { $0 || RequestMatcher($1) })
        }
        parts += pattern.noneOf.map { !RequestMatcher($0) }
        parts += pattern.allOf.map(RequestMatcher.init)
        let combined = parts.dropFirst().reduce(parts.first ?? .any, &&)
        self = combined.described(by: pattern)
    }

    private static func url(_ pattern: TextPattern) -> RequestMatcher {
        switch pattern {
        case .equalTo(let url, false): return isAbsoluteURLString(url)
        case .matches(let expression): return urlMatches(expression)
        default: return text(pattern, subject: "URL") { $0.url?.absoluteString }
        }
    }

    private static func host(_ pattern: TextPattern) -> RequestMatcher {
        if case .equalTo(let host, _) = pattern { return isHost(host) }
        return text(pattern, subject: "host") { $0.urlHost }
    }

    private static func path(_ pattern: TextPattern) -> RequestMatcher {
        switch pattern {
        case .equalTo(let path, false):
            return RequestMatcher(description: "path is \"\(path)\"", keys: MatchKeys(path: path)) { request in
                let actual = request.urlPath
                return actual == path ? .matched : .failed("expected path \"\(path)\", got \(quoted(actual))")
            }
        case .template(let template): return patternPathMatcher(template)
        case .hasPrefix(let prefix): return pathStartsWith(prefix)
        case .hasSuffix(let suffix): return pathEndsWith(suffix)
        case .matches(let expression): return pathMatches(expression)
        default: return text(pattern, subject: "path") { $0.urlPath }
        }
    }

    private static func query(_ name: String, _ pattern: TextPattern) -> RequestMatcher {
        switch pattern {
        case .equalTo(let value, false): return containsQueryParams([name: value])
        case .present: return containsQueryParams([name: nil])
        default:
            let check: TextCheck
            do { check = try TextCheck(pattern) } catch { return .invalid("query parameter \"\(name)\" \(pattern.words)", problem: "\(error)") }
            return RequestMatcher(description: "query parameter \"\(name)\" \(pattern.words)") { request in
                let values = request.queryItems.filter { $0.name == name }.map { $0.value ?? "" }
                return result(check.verdict(forAnyOf: values, subject: "query parameter \"\(name)\""))
            }
        }
    }

    private static func header(_ name: String, _ pattern: TextPattern) -> RequestMatcher {
        switch pattern {
        case .equalTo(let value, false): return hasHeaderNamed(name, value: value)
        case .present: return hasHeaderNamed(name)
        default: return text(pattern, subject: "header \"\(name)\"") { $0.value(forHTTPHeaderField: name) }
        }
    }

    private static func cookie(_ name: String, _ pattern: TextPattern) -> RequestMatcher {
        text(pattern, subject: "cookie \"\(name)\"") { request in
            guard let header = request.value(forHTTPHeaderField: "Cookie") else { return nil }
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
                }
            }
            return nil
        }
    }

    private static func body(_ pattern: BodyPattern) -> RequestMatcher {
        switch pattern {
        case .equalTo(let text): return hasBody(Data(text.utf8))
        case .binaryEqualTo(let bytes): return hasBody(bytes)
        case .matches(let expression): return bodyMatches(expression)
        case .contains(let text):
            return bodyMatcher(pattern.words, pattern: RequestPattern(body: [pattern])) { actual in
                let body = actual.map { String(decoding: $0, as: UTF8.self) } ?? ""
                return body.contains(text) ? nil : "expected body containing \"\(text)\", got \(describeBody(actual))"
            }
        case .json(let value, false, false): return hasJSONBody(value)
        case .json(let value, let unordered, true): return hasJSONBody(containing: value, arrays: unordered ? .unordered : .byPosition)
        case .json(let value, _, false): return unorderedJSONBody(value)
        case .jsonPath(let path, let valuePattern): return jsonPathMatcher(path, valuePattern)
        case .kind(let name, let value):
            guard let kind = RequestPatternKinds.kind(named: name) else {
                return .invalid("\(name) \(value)", problem: pattern.problem ?? "no library registered the pattern kind \"\(name)\"")
            }
            return kind.matcher(for: value)
        }
    }

    /// A JSON body equal to `expected` with arrays compared in any order, no member more or less.
    private static func unorderedJSONBody(_ expected: JSONValue) -> RequestMatcher {
        let pattern = BodyPattern.json(expected, ignoreArrayOrder: true)
        return bodyMatcher(pattern.words, pattern: RequestPattern(body: [pattern])) { actual in
            guard let actual, let got = try? JSONValue(data: actual) else { return "expected \(pattern.words), got \(describeBody(actual))" }
            let failures = expected.containmentFailures(in: got, arrays: .unordered) + got.containmentFailures(in: expected, arrays: .unordered)
            return failures.isEmpty ? nil : "JSON body differs: " + failures.joined(separator: "; ")
        }
    }

    private static func jsonPathMatcher(_ path: String, _ valuePattern: TextPattern?) -> RequestMatcher {
        let pattern = BodyPattern.jsonPath(path, valuePattern)
        let parsed: JSONPath
        let check: TextCheck?
        do {
            parsed = try JSONPath(path)
            check = try valuePattern.map { try TextCheck($0) }
        } catch {
            return .invalid(pattern.words, problem: "\(error)")
        }
        return bodyMatcher(pattern.words, pattern: RequestPattern(body: [pattern])) { actual in
            guard let actual, let got = try? JSONValue(data: actual) else { return "expected \(pattern.words), got \(describeBody(actual))" }
            let selected = parsed.select(in: got)
            guard let check else { return selected.isEmpty ? "expected \(pattern.words), got nothing at \(path)" : nil }
            let values = selected.map { value -> String in
                if case .string(let string) = value { return string }
                return String(decoding: value.serialized(), as: UTF8.self)
            }
            if case .failed(let reason) = check.verdict(forAnyOf: values, subject: "JSON value at \(path)") { return reason }
            return nil
        }
    }

    /// A matcher of one piece of request text against `pattern`.
    private static func text(_ pattern: TextPattern, subject: String, _ value: @escaping @Sendable (StubRequest) -> String?) -> RequestMatcher {
        let check: TextCheck
        do { check = try TextCheck(pattern) } catch { return .invalid("\(subject) \(pattern.words)", problem: "\(error) (the \(subject))") }
        return RequestMatcher(description: "\(subject) \(pattern.words)") { request in
            result(check.verdict(for: value(request), subject: subject))
        }
    }

    private static func result(_ verdict: TextCheck.Verdict) -> MatchResult {
        switch verdict {
        case .held(let captures): return captures.isEmpty ? .matched : .matched(captures: captures)
        case .failed(let reason): return .failed(reason)
        }
    }
}
