import Foundation
import URLStubs

extension WireMockMapping.JSONEqualityPattern {
    /// Whether `actual` (JSON text) equals the expected document as WireMock's `equalToJson`
    /// decides (it delegates to JsonUnit): objects compare member by member, arrays element by
    /// element, numbers by value (`1` equals `1.0`).
    ///
    /// Strings of the expected document may be JsonUnit placeholders:
    /// `${json-unit.ignore}` (any value, the member present), `${json-unit.ignore-element}`
    /// (any value, or the member missing), `${json-unit.any-string}`, `${json-unit.any-number}`,
    /// `${json-unit.any-boolean}`, `${json-unit.regex}<expression>` (a string the whole of which
    /// the expression matches).
    ///
    /// ```swift
    /// let pattern = WireMockMapping.JSONEqualityPattern(expected: .object(["id": .string("${json-unit.any-string}")]))
    /// pattern.evaluate(#"{"id": "abc123"}"#)   // true
    /// ```
    ///
    /// With ``ignoreArrayOrder`` arrays compare as multisets; with ``ignoreExtraElements`` an
    /// object may have members the expected one does not name and an array may hold items
    /// after (or, with ``ignoreArrayOrder``, besides) the expected ones. Text that is not JSON
    /// does not match.
    public func evaluate(_ actual: String?) -> Bool {
        guard let actual, let document = try? JSONValue.parsing(Data(actual.utf8)) else { return false }
        return evaluate(document: document)
    }

    /// ``evaluate(_:)`` for a document already read.
    public func evaluate(document: JSONValue) -> Bool {
        Self.matches(expected, document, ignoreArrayOrder: ignoreArrayOrder, ignoreExtra: ignoreExtraElements)
    }

    private enum Placeholder {
        case ignore, ignoreElement, anyString, anyNumber, anyBoolean
        case regex(String)

        init?(_ text: String) {
            guard text.hasPrefix("${json-unit.") else { return nil }
            switch text {
            case "${json-unit.ignore}": self = .ignore
            case "${json-unit.ignore-element}": self = .ignoreElement
            case "${json-unit.any-string}": self = .anyString
            case "${json-unit.any-number}": self = .anyNumber
            case "${json-unit.any-boolean}": self = .anyBoolean
            default:
                guard text.hasPrefix("${json-unit.regex}") else { return nil }
                self = .regex(String(text.dropFirst("${json-unit.regex}".count)))
            }
        }

        func accepts(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.ignore, _), (.ignoreElement, _): return true
            case (.anyString, .string): return true
            case (.anyNumber, .integer), (.anyNumber, .number): return true
            case (.anyBoolean, .bool): return true
            case (.regex(let expression), .string(let text)): return RegexCache.evaluate(expression, wholeOf: text) == .matched
            default: return false
            }
        }
    }

    static func matches(_ expected: JSONValue, _ actual: JSONValue, ignoreArrayOrder: Bool, ignoreExtra: Bool) -> Bool {
        switch (expected, actual) {
        case (.string(let text), _):
            if let placeholder = Placeholder(text) { return placeholder.accepts(actual) }
            return expected == actual
        case (.object(let expectedMembers), .object(let actualMembers)):
            if !ignoreExtra, actualMembers.keys.contains(where: { expectedMembers[$0] == nil }) { return false }
            for (name, value) in expectedMembers {
                guard let other = actualMembers[name] else {
                    if case .string(let text) = value, case .ignoreElement? = Placeholder(text) { continue }
                    return false
                }
                if !matches(value, other, ignoreArrayOrder: ignoreArrayOrder, ignoreExtra: ignoreExtra) { return false }
            }
            return true
        case (.array(let expectedItems), .array(let actualItems)):
            guard ignoreExtra ? actualItems.count >= expectedItems.count : actualItems.count == expectedItems.count else { return false }
            if !ignoreArrayOrder {
                return zip(expectedItems, actualItems).allSatisfy {
                    matches($0, $1, ignoreArrayOrder: ignoreArrayOrder, ignoreExtra: ignoreExtra)
                }
            }
            return unorderedMatch(expectedItems, actualItems) {
                matches($0, $1, ignoreArrayOrder: ignoreArrayOrder, ignoreExtra: ignoreExtra)
            }
        default:
            return expected == actual
        }
    }

    /// Whether every expected item can be paired with a distinct actual item it matches
    /// (bipartite matching by augmenting paths, so that a placeholder taking an item another
    /// expected item needed is undone).
    private static func unorderedMatch(_ expected: [JSONValue], _ actual: [JSONValue], _ itemMatches: (JSONValue, JSONValue) -> Bool) -> Bool {
        var candidates: [[Int]] = []
        for item in expected {
            candidates.append(actual.indices.filter { itemMatches(item, actual[$0]) })
            if candidates.last!.isEmpty { return false }
        }
        var owner = [Int?](repeating: nil, count: actual.count)
        func assign(_ index: Int, _ visited: inout [Bool]) -> Bool {
            for candidate in candidates[index] where !visited[candidate] {
                visited[candidate] = true
                if owner[candidate] == nil || assign(owner[candidate]!, &visited) {
                    owner[candidate] = index
                    return true
                }
            }
            return false
        }
        for index in expected.indices {
            var visited = [Bool](repeating: false, count: actual.count)
            if !assign(index, &visited) { return false }
        }
        return true
    }
}
