import Foundation
import URLStubs

/// An RFC 6570 path template as WireMock's `urlPathTemplate` reads one:
/// `/contacts/{contactId}/addresses/{addressId}`. A variable stands for one whole path
/// segment (no `/`); the rest compares exactly. Values are percent-decoded.
package struct PathTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        case variable(String)
    }

    let parts: [Part]
    /// The variables' names, in order.
    package let variables: [String]

    /// Reads `template`; throws a sentence for an unclosed brace, an empty or repeated name, or
    /// two variables with nothing between them.
    package init(_ template: String) throws {
        var parts: [Part] = []
        var variables: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { throw PathTemplateProblem(reason: "a \"{\" that is never closed") }
            let name = String(rest[rest.index(after: open)..<close])
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
                throw PathTemplateProblem(reason: "the variable {\(name)}, which is not a plain name")
            }
            guard !variables.contains(name) else { throw PathTemplateProblem(reason: "the variable {\(name)} twice") }
            if case .variable? = parts.last { throw PathTemplateProblem(reason: "two variables with nothing between them") }
            parts.append(.variable(name))
            variables.append(name)
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
        self.variables = variables
    }

    /// The variables' values when `path` fits the template, else `nil`.
    package func parameters(in path: String) -> [String: String]? {
        var rest = Substring(path)
        var values: [String: String] = [:]
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(let text):
                guard rest.hasPrefix(text) else { return nil }
                rest = rest.dropFirst(text.count)
            case .variable(let name):
                // Up to the next literal's first occurrence in this segment, or the segment's end.
                var end = rest.firstIndex(of: "/") ?? rest.endIndex
                if index + 1 < parts.count, case .literal(let next) = parts[index + 1], !next.hasPrefix("/"),
                    let found = rest[..<end].range(of: next)
                {
                    end = found.lowerBound
                }
                let value = rest[..<end]
                guard !value.isEmpty else { return nil }
                values[name] = String(value).removingPercentEncoding ?? String(value)
                rest = rest[end...]
            }
        }
        return rest.isEmpty ? values : nil
    }
}

/// Why a path template does not read.
package struct PathTemplateProblem: Error, Sendable, CustomStringConvertible {
    let reason: String
    package var description: String { "it has \(reason)" }
}

extension WireMockMapping.URLMatch {
    /// Whether a request's URL matches: `pathAndQuery` is the path and query as sent
    /// (`/users?page=2`). For a ``urlPathTemplate(_:)`` the variables' values are in
    /// ``pathParameters(in:)``.
    ///
    /// ```swift
    /// WireMockMapping.URLMatch.urlPath("/users").evaluate("/users?page=2")   // true
    /// WireMockMapping.URLMatch.url("/users").evaluate("/users?page=2")       // false
    /// ```
    public func evaluate(_ pathAndQuery: String) -> Bool {
        let path = pathAndQuery.firstIndex(of: "?").map { String(pathAndQuery[..<$0]) } ?? pathAndQuery
        switch self {
        case .url(let expected): return pathAndQuery == expected
        case .urlPattern(let expression): return RegexCache.evaluate(expression, wholeOf: pathAndQuery) == .matched
        case .urlPath(let expected): return path == expected
        case .urlPathPattern(let expression): return RegexCache.evaluate(expression, wholeOf: path) == .matched
        case .urlPathTemplate: return pathParameters(in: pathAndQuery) != nil
        }
    }

    /// For a ``urlPathTemplate(_:)`` the path's values of its variables, percent-decoded, when
    /// the path fits it; `nil` otherwise (and for the other kinds).
    public func pathParameters(in pathAndQuery: String) -> [String: String]? {
        guard case .urlPathTemplate(let text) = self, let template = try? PathTemplate(text) else { return nil }
        let path = pathAndQuery.firstIndex(of: "?").map { String(pathAndQuery[..<$0]) } ?? pathAndQuery
        return template.parameters(in: path)
    }
}
