import Foundation
import URLStubs

extension WireMockMapping.RequestPattern {
    /// The WireMock request pattern of an engine pattern; the inverse of `declared()`.
    init(declared pattern: URLStubs.RequestPattern, refuse: (String) -> FixtureError) throws {
        self.init(method: pattern.method ?? "ANY")
        guard pattern.anyOf.isEmpty, pattern.noneOf.isEmpty else { throw refuse("\"anyOf\" or \"noneOf\" request patterns") }
        func value(_ text: TextPattern, _ part: String) throws -> WireMockMapping.StringValuePattern {
            guard let value = WireMockMapping.StringValuePattern(text) else { throw refuse("\(part) \(text.words)") }
            return value
        }
        switch pattern.path {
        case .equalTo(let path, false)?: url = .urlPath(path)
        case .matches(let expression)?:
            guard let inner = WireMockMapping.StringValuePattern.wholeValueInner(expression) else { throw refuse("path \(expression)") }
            url = .urlPathPattern(inner)
        case .hasPrefix(let prefix)?:
            // A wireMock.url kind, when there is one, puts its own URL matcher in place of this one.
            url = .urlPathPattern(NSRegularExpression.escapedPattern(for: prefix) + ".*")
        case let other?: throw refuse("path \(other.words)")
        case nil: break
        }
        switch pattern.url {
        case .hasPrefix(let prefix)? where prefix.hasSuffix("://"): scheme = String(prefix.dropLast(3))
        case let other?: throw refuse("URL \(other.words)")
        case nil: break
        }
        host = try pattern.host.map { try value($0, "host") }
        for (name, text) in pattern.headers {
            if name.caseInsensitiveCompare("Authorization") == .orderedSame, case .equalTo(let header, false) = text,
                let credentials = Self.basicCredentials(header)
            {
                basicAuthCredentials = credentials
            } else {
                headers[name] = .single(try value(text, "header \(name)"))
            }
        }
        for (name, text) in pattern.query { queryParameters[name] = .single(try value(text, "query parameter \(name)")) }
        for (name, text) in pattern.cookies { cookies[name] = try value(text, "cookie \(name)") }
        for inner in pattern.allOf {
            guard inner.headers.count == 1, inner == URLStubs.RequestPattern(headers: inner.headers),
                case .equalTo(let text, false)? = inner.headers["Authorization"], let credentials = Self.basicCredentials(text)
            else { throw refuse("\"allOf\" request patterns") }
            basicAuthCredentials = credentials
        }
        for body in pattern.body {
            switch body {
            case .equalTo(let text): bodyPatterns.append(.value(.equalTo(text, caseInsensitive: false)))
            case .binaryEqualTo(let data): bodyPatterns.append(.binaryEqualTo(data))
            case .contains(let text): bodyPatterns.append(.value(.contains(text)))
            case .matches(let expression):
                guard let inner = WireMockMapping.StringValuePattern.wholeValueInner(expression) else {
                    throw refuse("body matching /\(expression)/")
                }
                bodyPatterns.append(.value(.matches(inner)))
            case .json(let json, let unordered, let extra):
                bodyPatterns.append(.value(.equalToJson(.init(expected: json, ignoreArrayOrder: unordered, ignoreExtraElements: extra))))
            case .jsonPath(let path, let text):
                bodyPatterns.append(
                    .value(.matchesJsonPath(.init(expression: path, valuePattern: try text.map { try value($0, "JSON path \(path)") }))))
            case .kind(let name, let json): try absorb(kind: name, json, refuse: refuse)
            }
        }
    }

    /// The credentials of an `Authorization: Basic …` value, as `basicAuthCredentials` writes it.
    static func basicCredentials(_ header: String) -> WireMockMapping.BasicCredentials? {
        guard header.hasPrefix("Basic "), let data = Data(base64Encoded: String(header.dropFirst(6))),
            let decoded = String(data: data, encoding: .utf8), let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return .init(username: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
    }

    private static func isKind(_ body: BodyPattern) -> Bool {
        if case .kind = body { return true }
        return false
    }

    /// Puts a `wireMock.*` kind's WireMock JSON back where it came from, or another library's
    /// kind's plain spelling (``RequestPatternKind/plainPattern(for:)``).
    private mutating func absorb(kind name: String, _ json: JSONValue, refuse: (String) -> FixtureError) throws {
        switch name {
        case WireMockPatternKinds.url:
            let read = try WireMockPatternKinds.decode(Self.self, from: json)
            url = read.url
            pathParameters = read.pathParameters
        case WireMockPatternKinds.body: bodyPatterns.append(try WireMockPatternKinds.decode(WireMockMapping.BodyPattern.self, from: json))
        case WireMockPatternKinds.pathStart: break  // the URL matcher it was cut from says it
        case WireMockPatternKinds.port:
            guard case .integer(let number) = json else { throw refuse("the port \(json)") }
            port = number
        case WireMockPatternKinds.header, WireMockPatternKinds.queryParameter, WireMockPatternKinds.formParameter, WireMockPatternKinds.cookie:
            guard case .object(let members) = json, case .string(let field)? = members["name"], let patternJSON = members["pattern"] else {
                throw refuse("the pattern kind \(name) \(json)")
            }
            let values = try WireMockPatternKinds.decode(WireMockMapping.MultiValuePattern.self, from: patternJSON)
            switch name {
            case WireMockPatternKinds.header: headers[field] = values
            case WireMockPatternKinds.queryParameter: queryParameters[field] = values
            case WireMockPatternKinds.formParameter: formParameters[field] = values
            default:
                guard case .single(let single) = values else { throw refuse("several values of the cookie \(field)") }
                cookies[field] = single
            }
        default:
            // Another library's kind, said with the built-in patterns when it can be.
            guard let plain = RequestPatternKinds.kind(named: name)?.plainPattern(for: json),
                plain == URLStubs.RequestPattern(body: plain.body), !plain.body.contains(where: Self.isKind)
            else { throw refuse("the pattern kind \"\(name)\"") }
            bodyPatterns += try Self(declared: URLStubs.RequestPattern(body: plain.body), refuse: refuse).bodyPatterns
        }
    }
}

extension WireMockMapping.StringValuePattern {
    /// WireMock's pattern for an engine text pattern; `nil` for `template`.
    init?(_ text: TextPattern) {
        switch text {
        case .equalTo(let value, let caseInsensitive): self = .equalTo(value, caseInsensitive: caseInsensitive)
        case .contains(let value): self = .contains(value)
        // The engine's negatives accept a missing value; WireMock's refuse it.
        case .doesNotContain(let value): self = .or([.absent, .doesNotContain(value)])
        case .hasPrefix(let value): self = .matches(NSRegularExpression.escapedPattern(for: value) + ".*")
        case .hasSuffix(let value): self = .matches(".*" + NSRegularExpression.escapedPattern(for: value))
        case .matches(let expression):
            self = .matches(Self.wholeValueInner(expression) ?? ".*(?:" + expression + ").*")
        case .doesNotMatch(let expression):
            self = .or([.absent, .doesNotMatch(Self.wholeValueInner(expression) ?? ".*(?:" + expression + ").*")])
        case .absent: self = .absent
        case .present: self = .not(.absent)
        case .template: return nil
        case .not(let inner):
            guard let value = Self(inner) else { return nil }
            self = .not(value)
        case .allOf(let patterns):
            // What `textPattern` made of WireMock's negatives reads back as them.
            if patterns.count == 2, patterns[0] == .present, case .doesNotContain(let value) = patterns[1] {
                self = .doesNotContain(value)
                return
            }
            if patterns.count == 2, patterns[0] == .present, case .doesNotMatch(let expression) = patterns[1],
                let inner = Self.wholeValueInner(expression)
            {
                self = .doesNotMatch(inner)
                return
            }
            let values = patterns.compactMap(Self.init)
            guard values.count == patterns.count else { return nil }
            self = .and(values)
        case .anyOf(let patterns):
            if patterns == [.present, .absent] {
                self = .anything
                return
            }
            let values = patterns.compactMap(Self.init)
            guard values.count == patterns.count else { return nil }
            self = .or(values)
        }
    }

    /// `X` for the `\A(?s:X)\z` that `declared()` writes for WireMock's `matches`.
    static func wholeValueInner(_ expression: String) -> String? {
        guard expression.hasPrefix("\\A(?s:"), expression.hasSuffix(")\\z") else { return nil }
        return String(expression.dropFirst(6).dropLast(3))
    }
}
