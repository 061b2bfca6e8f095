import Foundation

/// A ``TextPattern`` made ready to run: its regular expressions compiled once, when the stub is
/// made, so a request only evaluates.
struct TextCheck: Sendable {
    private indirect enum Node: Sendable {
        case equalTo(String, caseInsensitive: Bool)
        case contains(String)
        case doesNotContain(String)
        case hasPrefix(String)
        case hasSuffix(String)
        case matches(BudgetedRegex)
        case doesNotMatch(BudgetedRegex)
        case template(PathPattern)
        case absent
        case present
        case allOf([Node])
        case anyOf([Node])
        case not(Node)
    }

    /// How one value fared: held, or the reason it did not.
    enum Verdict {
        case held(captures: [String: String])
        case failed(String)
    }

    let pattern: TextPattern
    private let root: Node

    /// Compiles `pattern`; throws a sentence naming the first expression or template that
    /// cannot be compiled.
    init(_ pattern: TextPattern) throws {
        self.pattern = pattern
        root = try Self.compile(pattern)
    }

    private static func compile(_ pattern: TextPattern) throws -> Node {
        switch pattern {
        case .equalTo(let text, let caseInsensitive): return .equalTo(text, caseInsensitive: caseInsensitive)
        case .contains(let text): return .contains(text)
        case .doesNotContain(let text): return .doesNotContain(text)
        case .hasPrefix(let text): return .hasPrefix(text)
        case .hasSuffix(let text): return .hasSuffix(text)
        case .matches(let expression): return .matches(try regex(expression))
        case .doesNotMatch(let expression): return .doesNotMatch(try regex(expression))
        case .template(let template):
            do {
                return .template(try PathPattern(template))
            } catch {
                throw TextPatternProblem(description: "invalid path template \"\(template)\": \(error)")
            }
        case .absent: return .absent
        case .present: return .present
        case .allOf(let patterns):
            var nodes: [Node] = []
            for pattern in patterns { nodes.append(try compile(pattern)) }
            return .allOf(nodes)
        case .anyOf(let patterns):
            var nodes: [Node] = []
            for pattern in patterns { nodes.append(try compile(pattern)) }
            return .anyOf(nodes)
        case .not(let pattern): return .not(try compile(pattern))
        }
    }

    private static func regex(_ expression: String) throws -> BudgetedRegex {
        do {
            return try BudgetedRegex(expression)
        } catch {
            throw TextPatternProblem(description: "invalid regular expression /\(expression)/: \(RegexDiagnosis.explain(expression))")
        }
    }

    /// Whether `value` (`nil`: not sent) holds; `subject` names it in the reason
    /// (`header "Accept"`).
    func verdict(for value: String?, subject: String) -> Verdict {
        if Self.holds(root, value, subject: subject) { return .held(captures: captures(value)) }
        return .failed("expected \(subject) \(pattern.words), got \(quoted(value))")
    }

    /// Whether any of `values` holds (a repeated query parameter); an empty list is "not sent".
    func verdict(forAnyOf values: [String], subject: String) -> Verdict {
        if values.isEmpty { return verdict(for: nil, subject: subject) }
        for value in values where Self.holds(root, value, subject: subject) {
            return .held(captures: captures(value))
        }
        let got = values.map { quoted($0) }.joined(separator: ", ")
        return .failed("expected \(subject) \(pattern.words), got \(got)")
    }

    private func captures(_ value: String?) -> [String: String] {
        guard case .template(let template) = root, let value else { return [:] }
        return template.match(value) ?? [:]
    }

    private static func holds(_ node: Node, _ value: String?, subject: String) -> Bool {
        switch node {
        case .absent: return value == nil
        case .present: return value != nil
        case .doesNotContain(let text): return value.map { !$0.contains(text) } ?? true
        case .doesNotMatch(let regex): return value.map { regex.firstMatch(in: $0) == .notMatched } ?? true
        case .not(let inner): return !holds(inner, value, subject: subject)
        case .allOf(let nodes): return nodes.allSatisfy { holds($0, value, subject: subject) }
        case .anyOf(let nodes): return nodes.contains { holds($0, value, subject: subject) }
        case .equalTo, .contains, .hasPrefix, .hasSuffix, .matches, .template:
            guard let value else { return false }
            switch node {
            case .equalTo(let text, let caseInsensitive): return caseInsensitive ? value.equalsIgnoringASCIICase(text) : value == text
            case .contains(let text): return value.contains(text)
            case .hasPrefix(let text): return value.hasPrefix(text)
            case .hasSuffix(let text): return value.hasSuffix(text)
            case .matches(let regex): return regex.firstMatch(in: value) == .matched
            case .template(let template): return template.match(value) != nil
            default: return false
            }
        }
    }
}

/// Why a ``TextPattern`` cannot be used: an expression or a template that does not compile.
struct TextPatternProblem: Error, CustomStringConvertible {
    let description: String
}
