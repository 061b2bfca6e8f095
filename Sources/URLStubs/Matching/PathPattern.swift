import Foundation

/// A path pattern with named parameters, such as `/users/:id/posts/*`, as ``isPath(_:)`` reads it.
///
/// Segments are compared one by one: `:name` captures any single non-empty segment under
/// `name`, `*` accepts any single segment, and a final `**` accepts whatever follows (zero or
/// more segments). Every other segment must be equal, after percent-decoding.
///
/// `PathPattern("/users/:id").match("/users/42")` is `["id": "42"]`; `.match("/users")` is `nil`.
package struct PathPattern: Sendable, Equatable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case wildcard
        case rest
    }

    /// The pattern as written.
    package let description: String
    let segments: [Segment]

    /// Parses a pattern; throws a ``PathPatternError`` naming the column of a syntax error.
    package init(_ pattern: String) throws {
        guard pattern.hasPrefix("/") else {
            throw PathPatternError(pattern: pattern, column: 1, message: "a path pattern must start with \"/\"")
        }
        var segments: [Segment] = []
        var names: Set<String> = []
        var column = 2
        let parts = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            if part == "**" {
                guard isLast else {
                    throw PathPatternError(pattern: pattern, column: column, message: "\"**\" may only be the last segment")
                }
                segments.append(.rest)
            } else if part == "*" {
                segments.append(.wildcard)
            } else if part.hasPrefix(":") {
                let name = String(part.dropFirst())
                guard !name.isEmpty else {
                    throw PathPatternError(pattern: pattern, column: column, message: "a parameter needs a name after \":\"")
                }
                guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    throw PathPatternError(
                        pattern: pattern, column: column,
                        message: "parameter name \"\(name)\" may hold only letters, digits and \"_\"")
                }
                guard names.insert(name).inserted else {
                    throw PathPatternError(pattern: pattern, column: column, message: "parameter \":\(name)\" appears twice")
                }
                segments.append(.parameter(name))
            } else if part.contains("*") {
                throw PathPatternError(
                    pattern: pattern, column: column,
                    message: "\"*\" must stand alone in a segment (\"\(part)\")")
            } else {
                // Foundation's percent-decoding costs more than the rest of the parse: only when needed.
                segments.append(.literal(part.contains("%") ? String(part).removingPercentEncoding ?? String(part) : String(part)))
            }
            column += part.count + 1
        }
        self.description = pattern
        self.segments = segments
    }

    /// `true` when `path` holds a pattern feature (`:name`, `*`), not only literal text.
    static func isPattern(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0.hasPrefix(":") || $0 == "*" || $0 == "**" }
    }

    /// The captured parameters when `path` fits the pattern, else `nil`.
    package func match(_ path: String) -> [String: String]? {
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var captures: [String: String] = [:]
        var index = 0
        for segment in segments {
            if case .rest = segment { return captures }
            guard index < parts.count else { return nil }
            let part = parts[index]
            let decoded = part.removingPercentEncoding ?? String(part)
            switch segment {
            case .literal(let text):
                guard decoded == text else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                captures[name] = decoded
            case .wildcard:
                guard !part.isEmpty else { return nil }
            case .rest:
                return captures
            }
            index += 1
        }
        return index == parts.count ? captures : nil
    }
}

/// A syntax error in a ``PathPattern``: matchers report it as ``StubError/invalidMatcher(stub:problems:)``.
package struct PathPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    package let pattern: String
    /// The 1-based column where the problem starts.
    package let column: Int
    /// What was expected.
    package let message: String

    /// The whole sentence: pattern, column and what was expected.
    package var description: String {
        "invalid URL pattern \"\(pattern)\" at column \(column): \(message)"
    }
}
