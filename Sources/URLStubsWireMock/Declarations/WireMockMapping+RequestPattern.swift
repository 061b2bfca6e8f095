import Foundation
import URLStubs

extension WireMockMapping.RequestPattern {
    /// The engine's pattern for this request pattern: what ``RequestPattern`` says in its own
    /// words (method, path, host, single-valued headers, query parameters and cookies, plain
    /// bodies) goes there, so reports and the registry's path index read it; the rest becomes
    /// `wireMock.*` pattern kinds holding WireMock's matcher JSON.
    func declared() throws -> URLStubs.RequestPattern {
        _ = WireMockPatternKinds.registered
        var pattern = URLStubs.RequestPattern(method: method.uppercased() == "ANY" ? nil : method)
        var kinds: [URLStubs.BodyPattern] = []
        func kind(_ name: String, _ value: some Encodable) throws {
            kinds.append(.kind(name, try JSONValueEncoder.encode(value)))
        }
        switch url {
        case .urlPath(let path)? where !path.contains("%"): pattern.path = .equalTo(path)
        case .urlPathPattern(let expression)?:
            // The path's literal start lets the registry's index pass over most mappings.
            pattern.path = .matches(Self.wholeValue(expression))
            let prefix = Self.literalPrefix(ofWholeMatch: expression)
            if !prefix.isEmpty { kinds.append(.kind(WireMockPatternKinds.pathStart, .string(prefix))) }
        case .url(let text)?:
            // The path alone goes to the engine (its index finds the candidates), the exact
            // path and query to the kind.
            let path = text.firstIndex(of: "?").map { String(text[..<$0]) } ?? text
            if !path.contains("%") { pattern.path = .equalTo(path) }
            try kind(WireMockPatternKinds.url, Self(url: url))
        case let url?:
            // The path's literal start lets the registry's index pass over most mappings.
            let prefix: String
            if case .urlPathTemplate(let template) = url {
                prefix = String(template.prefix { $0 != "{" })
            } else {
                prefix = Self.literalPrefix(ofWholeMatch: url.text)
            }
            if !prefix.isEmpty, !prefix.contains("%") { kinds.append(.kind(WireMockPatternKinds.pathStart, .string(prefix))) }
            try kind(WireMockPatternKinds.url, Self(url: url, pathParameters: pathParameters))
        case nil: break
        }
        if let scheme { pattern.url = .hasPrefix(scheme.lowercased() + "://") }
        if let host {
            if let text = host.textPattern { pattern.host = text } else { throw KindProblem("\"host\" with a date, number or JSON matcher") }
        }
        if let port { kinds.append(.kind(WireMockPatternKinds.port, .integer(port))) }
        for (name, values) in headers.sorted(by: { $0.key < $1.key }) {
            if case .single(.anything) = values { continue }
            if case .single(let single) = values, let text = single.textPattern {
                pattern.headers[name] = text
            } else {
                try kind(WireMockPatternKinds.header, NamedPattern(name: name, pattern: values))
            }
        }
        if let credentials = basicAuthCredentials {
            let authorization = TextPattern.equalTo(credentials.authorizationHeader)
            if pattern.headers.keys.contains(where: { $0.caseInsensitiveCompare("Authorization") == .orderedSame }) {
                pattern.allOf.append(URLStubs.RequestPattern(headers: ["Authorization": authorization]))
            } else {
                pattern.headers["Authorization"] = authorization
            }
        }
        for (name, values) in queryParameters.sorted(by: { $0.key < $1.key }) {
            if case .single(.anything) = values { continue }
            if case .single(let single) = values, let text = single.textPattern {
                pattern.query[name] = text
            } else {
                try kind(WireMockPatternKinds.queryParameter, NamedPattern(name: name, pattern: values))
            }
        }
        for (name, value) in cookies.sorted(by: { $0.key < $1.key }) {
            if case .anything = value { continue }
            if let text = value.textPattern {
                pattern.cookies[name] = text
            } else {
                try kind(WireMockPatternKinds.cookie, NamedPattern(name: name, pattern: .single(value)))
            }
        }
        for (name, values) in formParameters.sorted(by: { $0.key < $1.key }) {
            try kind(WireMockPatternKinds.formParameter, NamedPattern(name: name, pattern: values))
        }
        // Body patterns keep their order, engine and kind alike, so the mapping reads back as written.
        for body in bodyPatterns {
            if let declared = body.declared { kinds.append(declared) } else { try kind(WireMockPatternKinds.body, body) }
        }
        pattern.body = kinds
        return pattern
    }

    /// The text every value that `expression` matches as a whole starts with: its literal
    /// characters up to the first special one (less one a quantifier follows); empty when the
    /// expression has an alternation or a percent escape.
    static func literalPrefix(ofWholeMatch expression: String) -> String {
        guard !expression.contains("|") else { return "" }
        let special: Set<Character> = ["\\", ".", "[", "]", "(", ")", "{", "}", "*", "+", "?", "^", "$", "|"]
        var prefix = expression.prefix { !special.contains($0) }
        let rest = expression.dropFirst(prefix.count)
        if let next = rest.first, "*+?{".contains(next), !prefix.isEmpty { prefix = prefix.dropLast() }
        return prefix.contains("%") ? "" : String(prefix)
    }

    /// `expression` as a search that matches only the whole value, with `.` matching a line
    /// break: WireMock's `Matcher.matches()` on a `DOTALL` pattern.
    static func wholeValue(_ expression: String) -> String { "\\A(?s:" + expression + ")\\z" }
}

/// The value of the `wireMock.header`, `.queryParameter`, `.formParameter` and `.cookie` kinds.
struct NamedPattern: Encodable {
    let name: String
    let pattern: WireMockMapping.MultiValuePattern
}

extension WireMockMapping.StringValuePattern {
    /// The engine's ``TextPattern`` that decides as WireMock does for a present or a missing
    /// value; `nil` when it cannot say it (dates, numbers, JSON, case-insensitive non-ASCII).
    var textPattern: TextPattern? {
        switch self {
        case .equalTo(let text, let caseInsensitive):
            // The engine folds ASCII letters only; WireMock (Java's equalsIgnoreCase) folds every letter.
            return caseInsensitive && !text.allSatisfy(\.isASCII) ? nil : .equalTo(text, caseInsensitive: caseInsensitive)
        case .contains(let text): return .contains(text)
        // WireMock's negative matchers refuse a missing value; the engine's accept it.
        case .doesNotContain(let text): return .allOf([.present, .doesNotContain(text)])
        case .matches(let expression): return .matches(WireMockMapping.RequestPattern.wholeValue(expression))
        case .doesNotMatch(let expression): return .allOf([.present, .doesNotMatch(WireMockMapping.RequestPattern.wholeValue(expression))])
        case .absent: return .absent
        case .anything: return .anyOf([.present, .absent])
        case .not(let inner): return inner.textPattern.map { .not($0) }
        case .and(let patterns):
            let texts = patterns.compactMap(\.textPattern)
            return texts.count == patterns.count ? .allOf(texts) : nil
        case .or(let patterns):
            let texts = patterns.compactMap(\.textPattern)
            return texts.count == patterns.count ? .anyOf(texts) : nil
        case .dateTime, .number, .equalToJson, .matchesJsonPath: return nil
        }
    }
}

extension WireMockMapping.BodyPattern {
    /// The engine's ``BodyPattern`` deciding as WireMock does, or `nil` for a `wireMock.body`
    /// kind: JsonUnit placeholders, JSONPath beyond plain member and index steps, dates, numbers.
    var declared: URLStubs.BodyPattern? {
        switch self {
        case .binaryEqualTo(let bytes): return .binaryEqualTo(bytes)
        case .value(.equalTo(let text, false)): return .equalTo(text)
        case .value(.contains(let text)): return .contains(text)
        case .value(.matches(let expression)): return .matches(WireMockMapping.RequestPattern.wholeValue(expression))
        case .value(.equalToJson(let json)) where !json.expected.hasPlaceholder:
            return .json(json.expected, ignoreArrayOrder: json.ignoreArrayOrder, ignoreExtraElements: json.ignoreExtraElements)
        case .value(.matchesJsonPath(let path)) where Self.isPlainPath(path.expression):
            guard let valuePattern = path.valuePattern else { return nil }
            return valuePattern.textPattern.map { .jsonPath(path.expression, $0) }
        default: return nil
        }
    }

    /// `$.a.b[0]`: member and index steps only, which the engine's JSONPath reads as Jayway does.
    static func isPlainPath(_ expression: String) -> Bool {
        expression.range(of: #"^\$(\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\])+$"#, options: .regularExpression) != nil
    }
}

extension JSONValue {
    /// Whether a JsonUnit placeholder (`${json-unit.…}`) appears in a string of the document.
    var hasPlaceholder: Bool {
        switch self {
        case .string(let text): return text.contains("${json-unit.")
        case .array(let items): return items.contains(where: \.hasPlaceholder)
        case .object(let members): return members.values.contains(where: \.hasPlaceholder)
        default: return false
        }
    }
}
