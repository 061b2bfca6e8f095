import Foundation
import URLStubs

extension WireMockMapping.StringValuePattern {
    /// Whether `value` matches, as WireMock decides: `nil` is a missing value, which only
    /// `absent`, `anything`, `not` (of a pattern that needs a value) and combinations of them
    /// match. Regular expressions match the whole value (`.` also matches a line break) and
    /// each match has a time budget: one that runs out does not match. `now` is the moment the
    /// date patterns compare with.
    ///
    /// ```swift
    /// WireMockMapping.StringValuePattern.equalTo("JSON", caseInsensitive: true).evaluate("json")   // true
    /// WireMockMapping.StringValuePattern.matches("[a-z]+").evaluate("abc1")                      // false
    /// WireMockMapping.StringValuePattern.absent.evaluate(nil)                                    // true
    /// ```
    public func evaluate(_ value: String?, now: Date = Date()) -> Bool {
        switch self {
        case .absent: return value == nil
        case .anything: return true
        case .not(let inner): return !inner.evaluate(value, now: now)
        case .and(let patterns): return patterns.allSatisfy { $0.evaluate(value, now: now) }
        case .or(let patterns): return patterns.contains { $0.evaluate(value, now: now) }
        case .dateTime(let pattern): return pattern.evaluate(value, now: now)
        default: break
        }
        guard let value else { return false }
        switch self {
        case .equalTo(let expected, let caseInsensitive):
            return caseInsensitive ? value.caseInsensitiveCompare(expected) == .orderedSame : value == expected
        case .contains(let part): return value.contains(part)
        case .doesNotContain(let part): return !value.contains(part)
        case .matches(let expression): return RegexCache.evaluate(expression, wholeOf: value) == .matched
        case .doesNotMatch(let expression): return RegexCache.evaluate(expression, wholeOf: value) == .notMatched
        case .number(let comparison, let operand):
            guard let number = Double(value.trimmingCharacters(in: .whitespaces)) else { return false }
            switch comparison {
            case .equalToNumber: return number == operand
            case .greaterThanNumber: return number > operand
            case .greaterThanEqualNumber: return number >= operand
            case .lessThanNumber: return number < operand
            case .lessThanEqualNumber: return number <= operand
            }
        case .equalToJson(let pattern): return pattern.evaluate(value)
        case .matchesJsonPath(let pattern): return pattern.evaluate(value, now: now)
        case .absent, .anything, .not, .and, .or, .dateTime: return false
        }
    }
}

extension WireMockMapping.JSONPathPattern {
    private static let compiled = CompiledCache<WireMockJSONPath> { try? WireMockJSONPath($0) }

    /// Whether `document` (JSON text) matches, as WireMock decides. Without ``valuePattern``:
    /// the expression selects a value that is not null, or a non-empty array or object (for a
    /// definite path such as `$.items`, an empty array or object counts too). With one: some
    /// selected value, as text, matches it: strings as they are, numbers and booleans as
    /// written, objects (and, for `equalToJson`, arrays) as JSON text, each item of an array
    /// on its own. When nothing is selected only `absent` matches.
    ///
    /// ```swift
    /// let pattern = WireMockMapping.JSONPathPattern(expression: "$..todoItem", valuePattern: .contains("wash"))
    /// pattern.evaluate(#"{"todoItem": "wash the car"}"#)   // true
    /// ```
    public func evaluate(_ document: String?, now: Date = Date()) -> Bool {
        guard let document, let json = try? JSONValue.parsing(Data(document.utf8)) else {
            return valuePattern.map { $0 == .absent } ?? false
        }
        return evaluate(document: json, now: now)
    }

    /// ``evaluate(_:now:)`` for a document already read.
    public func evaluate(document: JSONValue, now: Date = Date()) -> Bool {
        guard let path = Self.compiled.value(for: expression) else { return false }
        let result = path.evaluate(document)
        guard let valuePattern else {
            switch result {
            case .single(let value):
                switch value {
                case nil, .null?: return false
                default: return true
                }
            case .list(let values): return !values.isEmpty
            }
        }
        var texts: [String] = []
        switch result {
        case .single(nil), .single(.null?): break
        case .single(.object(let members)?): texts = [JSONValue.object(members).compactText]
        case .single(.array(let items)?), .list(let items):
            if case .equalToJson = valuePattern {
                texts = [JSONValue.array(items).compactText]
            } else {
                texts = items.map(\.compactText)
            }
        case .single(let value?): texts = [value.compactText]
        }
        if texts.isEmpty { return valuePattern.evaluate(nil, now: now) }
        return texts.contains { valuePattern.evaluate($0, now: now) }
    }
}

extension JSONValue {
    /// The value as text the way WireMock coerces a selected value: a string as it is, a
    /// number as written (`42`, `1.5`), `true`, `null`, an array or object as compact JSON.
    var compactText: String {
        switch self {
        case .string(let text): return text
        case .integer(let value): return String(value)
        case .number(let value): return value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) + ".0" : String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array, .object: return compactJSON
        }
    }
}

extension WireMockMapping.MultiValuePattern {
    /// Whether the values of a header, query parameter or form field (every occurrence, in
    /// order; empty when it is missing) match: a single pattern when one value does (a missing
    /// one is evaluated as `nil`), `hasExactly` when there are as many values as patterns and
    /// each pattern matches a different value, `includes` when each pattern matches some value.
    public func evaluate(_ values: [String], now: Date = Date()) -> Bool {
        switch self {
        case .single(let pattern):
            if values.isEmpty { return pattern.evaluate(nil, now: now) }
            return values.contains { pattern.evaluate($0, now: now) }
        case .includes(let patterns):
            return patterns.allSatisfy { pattern in values.contains { pattern.evaluate($0, now: now) } }
        case .hasExactly(let patterns):
            guard values.count == patterns.count else { return false }
            var unused = Array(values.indices)
            for pattern in patterns {
                guard let found = unused.firstIndex(where: { pattern.evaluate(values[$0], now: now) }) else { return false }
                unused.remove(at: found)
            }
            return true
        }
    }
}

extension WireMockMapping.BodyPattern {
    /// Whether a request body matches: `binaryEqualTo` compares bytes; a value pattern reads
    /// the body as UTF-8 text (an absent body is empty text, as WireMock reads it).
    public func evaluate(_ body: Data?, now: Date = Date()) -> Bool {
        switch self {
        case .binaryEqualTo(let expected): return (body ?? Data()) == expected
        case .value(let pattern): return pattern.evaluate(String(decoding: body ?? Data(), as: UTF8.self), now: now)
        }
    }
}
