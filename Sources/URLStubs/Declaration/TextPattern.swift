import Foundation

/// What a piece of request text must be: a URL, a host, a path, a query value, a header, a
/// cookie. One of the parts of a ``RequestPattern``.
///
/// ```swift
/// let accept: TextPattern = .equalTo("application/json", caseInsensitive: true)
/// let version: TextPattern = .anyOf([.equalTo("2"), .hasPrefix("2.")])
/// let noToken: TextPattern = .absent
/// ```
///
/// In JSON each case is an object with one key named after the case (a bare string is
/// `equalTo`): `{"equalTo": "x", "caseInsensitive": true}`, `{"matches": "^v[0-9]+$"}`,
/// `{"absent": true}`, `{"anyOf": [...]}`, `{"not": {...}}`.
///
/// - Important: `matches` and `doesNotMatch` search the value (ICU syntax): anchor the
///   expression with `^…$` to match the whole value, as ``pathMatches(_:)`` does. Every regular
///   expression runs within the matchers' time budget.
public indirect enum TextPattern: Sendable, Hashable {
    /// The value equals the text (ASCII letters compared without case when asked).
    case equalTo(String, caseInsensitive: Bool = false)
    /// The value contains the text.
    case contains(String)
    /// The value is missing or does not contain the text.
    case doesNotContain(String)
    /// The value starts with the text.
    case hasPrefix(String)
    /// The value ends with the text.
    case hasSuffix(String)
    /// The regular expression finds a match in the value.
    case matches(String)
    /// The value is missing or the regular expression finds no match in it.
    case doesNotMatch(String)
    /// A path template: `/users/:id`, `*` for one segment, a final `**` for the rest; the
    /// request's ``StubRequest/pathParameters`` get the captures. Paths only.
    case template(String)
    /// The value is missing (a header, a query parameter or a cookie not sent).
    case absent
    /// The value is there, whatever it is.
    case present
    /// Every pattern holds.
    case allOf([TextPattern])
    /// At least one pattern holds.
    case anyOf([TextPattern])
    /// The pattern does not hold.
    case not(TextPattern)

    /// The pattern in the words of a report: `is "x"`, `matches /^v[0-9]+$/`.
    public var words: String {
        switch self {
        case .equalTo(let text, let caseInsensitive): return "is \"\(text)\"" + (caseInsensitive ? " (any case)" : "")
        case .contains(let text): return "contains \"\(text)\""
        case .doesNotContain(let text): return "does not contain \"\(text)\""
        case .hasPrefix(let text): return "starts with \"\(text)\""
        case .hasSuffix(let text): return "ends with \"\(text)\""
        case .matches(let expression): return "matches /\(expression)/"
        case .doesNotMatch(let expression): return "does not match /\(expression)/"
        case .template(let template): return "matches \"\(template)\""
        case .absent: return "is absent"
        case .present: return "is present"
        case .allOf(let patterns): return patterns.map(\.words).joined(separator: " and ")
        case .anyOf(let patterns): return "(" + patterns.map(\.words).joined(separator: " or ") + ")"
        case .not(let pattern): return "not (\(pattern.words))"
        }
    }

    /// Every regular expression the pattern holds, for checking when it is made.
    var regularExpressions: [String] {
        switch self {
        case .matches(let expression), .doesNotMatch(let expression): return [expression]
        case .allOf(let patterns), .anyOf(let patterns): return patterns.flatMap(\.regularExpressions)
        case .not(let pattern): return pattern.regularExpressions
        case .equalTo, .contains, .doesNotContain, .hasPrefix, .hasSuffix, .template, .absent, .present: return []
        }
    }

    /// Every path template the pattern holds.
    var templates: [String] {
        switch self {
        case .template(let template): return [template]
        case .allOf(let patterns), .anyOf(let patterns): return patterns.flatMap(\.templates)
        case .not(let pattern): return pattern.templates
        case .equalTo, .contains, .doesNotContain, .hasPrefix, .hasSuffix, .matches, .doesNotMatch, .absent, .present: return []
        }
    }
}
