import Foundation

/// What stubs expect, scrubbed as what requests carry: a report quotes a stub's matchers
/// (`header Authorization: Bearer …`, `expected query parameter "api_key" = "…"`), and a stub
/// that waits for a credential names the credential. A report is read by whoever runs the
/// test, and over the stub server by any client, so those values are hidden too.
extension Scrubbing {
    /// The values that the matchers quoted in `text` expect for the header fields, query or
    /// form parameters and JSON members this policy scrubs, in the phrases matchers use:
    /// `header NAME: VALUE` and `expected header "NAME" = "VALUE"`; `query contains a=1&b=2`,
    /// `form body contains …`, `expected query parameter "NAME" = "VALUE"`,
    /// `expected form field "NAME" = "VALUE"`; `JSON body {…}`.
    package func expectedSecrets(in text: String) -> Set<String> {
        var secrets: Set<String> = []
        let lowercasedHeaders = Set(headers.map { $0.lowercased() })
        func header(_ name: String, _ value: String) {
            guard lowercasedHeaders.contains(name.lowercased()) else { return }
            secrets.insert(value)
            // `Bearer TOKEN`: the token alone travels too (a query, a body, a log line).
            if let space = value.firstIndex(of: " ") { secrets.insert(String(value[value.index(after: space)...])) }
        }
        for match in Self.matches(of: Self.quotedHeader, in: text) { header(match[0], match[1]) }
        for match in Self.matches(of: Self.describedHeader, in: text) { header(match[0], match[1]) }
        for match in Self.matches(of: Self.quotedParameter, in: text) where scrubsParameter(match[0]) { secrets.insert(match[1]) }
        for match in Self.matches(of: Self.parameterList, in: text) {
            for pair in match[0].split(separator: "&") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                if scrubsParameter(String(pair[..<equals])) { secrets.insert(String(pair[pair.index(after: equals)...])) }
            }
        }
        if !jsonFields.isEmpty {
            for range in Self.jsonObjects(after: "JSON body", in: text) {
                guard let json = try? JSONValue(data: Data(text[range].utf8)) else { continue }
                collectJSONSecrets(json, names: fieldNames, into: &secrets)
            }
        }
        return secrets.filter { !$0.isEmpty && $0 != placeholder }
    }

    /// A redactor for a report about `request`: the request's secrets and those that the
    /// matchers quoted in `text` expect.
    package func reportRedactor(for request: StubRequest, text: String) -> Redactor {
        Redactor(
            secrets: secretValues(in: ExchangeParts(request)).union(expectedSecrets(in: text)), placeholder: placeholder,
            hidingURLCredentials: scrubsURLCredentials)
    }

    private static let quotedHeader = expression(#"header "([^"\n]+)" = "((?:[^"\\\n]|\\.)*)""#)
    /// `header NAME: VALUE`, the value ending where the description goes on (` and `, ` or `,
    /// `)`, ` (` before a location) or at the line's end.
    private static let describedHeader = expression(#"header ([!#$%&'*+.^_`|~0-9A-Za-z-]+): (.+?)(?= and | or |\)| \(|$)"#)
    private static let quotedParameter = expression(#"(?:query parameter|form field) "([^"\n]+)" = "((?:[^"\\\n]|\\.)*)""#)
    private static let parameterList = expression(#"(?:query|form body) contains ([^\s)]+)"#)

    private static func expression(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
    }

    /// The capture groups of every match of `expression` in `text`.
    private static func matches(of expression: NSRegularExpression?, in text: String) -> [[String]] {
        guard let expression else { return [] }
        let whole = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: whole).map { match in
            (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }

    /// The balanced `{…}` that follows each `marker` in `text` (strings and escapes respected).
    private static func jsonObjects(after marker: String, in text: String) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        var rest = text[...]
        while let hit = rest.range(of: marker) {
            rest = text[hit.upperBound...]
            guard let open = rest.firstIndex(of: "{"), text[hit.upperBound..<open].count <= 16 else { continue }
            var depth = 0
            var inString = false
            var escaped = false
            var index = open
            while index < text.endIndex {
                let character = text[index]
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else if character == "{" {
                    depth += 1
                } else if character == "}" {
                    depth -= 1
                    if depth == 0 { break }
                }
                index = text.index(after: index)
            }
            guard index < text.endIndex else { break }
            found.append(open..<text.index(after: index))
            rest = text[text.index(after: index)...]
        }
        return found
    }
}
