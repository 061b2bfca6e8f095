import Foundation
import URLStubs

extension WireMockMapping {
    /// How WireMock matches one text value (a header, a query parameter, a cookie, a path
    /// parameter, a body): the object written under the name, such as `{"equalTo": "json"}`.
    ///
    /// ```swift
    /// let pattern = try JSONDecoder().decode(
    ///     WireMockMapping.StringValuePattern.self, from: Data(#"{"contains": "json"}"#.utf8))
    /// pattern.evaluate("application/json")   // true
    /// pattern.evaluate(nil)                  // false: only `absent` matches a missing value
    /// ```
    ///
    /// - Important: `equalToXml`, `matchesXPath`, `matchesJsonSchema` and `matchesPathTemplate`
    ///   are WireMock matchers URLStubs refuses when it reads them, naming what to write instead.
    public indirect enum StringValuePattern: Sendable, Hashable {
        /// `equalTo`, optionally with `caseInsensitive`: the whole value.
        case equalTo(String, caseInsensitive: Bool)
        /// `contains`: a substring.
        case contains(String)
        /// `doesNotContain`: a present value without the substring.
        case doesNotContain(String)
        /// `matches`: a regular expression the whole value matches.
        case matches(String)
        /// `doesNotMatch`: a present value the whole of which the expression does not match.
        case doesNotMatch(String)
        /// `absent: true`: the value is missing.
        case absent
        /// `anything`: any value, present or not.
        case anything
        /// `not`: the inner pattern does not match.
        case not(StringValuePattern)
        /// `and`: every pattern matches.
        case and([StringValuePattern])
        /// `or`: at least one pattern matches.
        case or([StringValuePattern])
        /// `before`, `after` or `equalToDateTime`, with their options.
        case dateTime(DateTimePattern)
        /// `equalToNumber`, `greaterThanNumber`, `greaterThanEqualNumber`, `lessThanNumber`,
        /// `lessThanEqualNumber`: the value read as a number.
        case number(NumberComparison, Double)
        /// `equalToJson`, with `ignoreArrayOrder` and `ignoreExtraElements`.
        case equalToJson(JSONEqualityPattern)
        /// `matchesJsonPath`: an expression, alone or with a pattern for what it selects.
        case matchesJsonPath(JSONPathPattern)
    }

    /// How a ``StringValuePattern/number(_:_:)`` compares the value with its operand.
    public enum NumberComparison: String, Sendable, Hashable, CaseIterable {
        /// The same number.
        case equalToNumber
        /// Greater than the operand.
        case greaterThanNumber
        /// Greater than or equal to the operand.
        case greaterThanEqualNumber
        /// Less than the operand.
        case lessThanNumber
        /// Less than or equal to the operand.
        case lessThanEqualNumber
    }

    /// `equalToJson`: the expected document and how strictly it is compared.
    public struct JSONEqualityPattern: Sendable, Hashable {
        /// The expected document; its strings may be JsonUnit placeholders such as
        /// `${json-unit.any-string}`.
        public var expected: JSONValue
        /// Arrays match whatever the order of their elements.
        public var ignoreArrayOrder: Bool
        /// Objects of the value may have members the expected document does not name.
        public var ignoreExtraElements: Bool

        /// A pattern for `expected`, strict unless told otherwise.
        public init(expected: JSONValue, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false) {
            self.expected = expected
            self.ignoreArrayOrder = ignoreArrayOrder
            self.ignoreExtraElements = ignoreExtraElements
        }
    }

    /// `matchesJsonPath`: a JSONPath expression and, optionally, a pattern for what it selects.
    public struct JSONPathPattern: Sendable, Hashable {
        /// The expression, such as `$.things[?(@.name == 'RequiredThing')]`.
        public var expression: String
        /// The pattern the selected value (as text) must match; `nil` when selecting something
        /// is enough.
        public var valuePattern: StringValuePattern?

        /// A pattern selecting `expression`, matched against `valuePattern` when there is one.
        public init(expression: String, valuePattern: StringValuePattern? = nil) {
            self.expression = expression
            self.valuePattern = valuePattern
        }
    }
}

extension WireMockMapping.StringValuePattern: Codable {
    /// The operators, in the order an error lists them.
    static let operators = [
        "equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "anything", "not", "and", "or", "before",
        "after", "equalToDateTime", "equalToNumber", "greaterThanNumber", "greaterThanEqualNumber", "lessThanNumber",
        "lessThanEqualNumber", "equalToJson", "matchesJsonPath",
    ]

    /// Operators WireMock has and URLStubs refuses: what WireMock does, what to write instead.
    static let refusedOperators: [String: (wireMock: String, instead: String)] = [
        "equalToXml": (
            "compares as XML with XMLUnit", "URLStubs has no XML engine on every platform it runs on; match the body with `contains` or `matches`"
        ),
        "matchesXPath": (
            "evaluates as an XPath 1.0 expression", "URLStubs has no XPath engine on every platform it runs on; use `contains` or `matches`"
        ),
        "matchesJsonSchema": (
            "validates against a JSON schema", "URLStubs does not read JSON schemas in mappings; use `matchesJsonPath` for the members that matter"
        ),
        "matchesPathTemplate": ("matches against an RFC 6570 path template", "use `urlPathTemplate` on the request instead"),
    ]

    private static let modifiers: [String: [String]] = [
        "equalTo": ["caseInsensitive"],
        "equalToJson": ["ignoreArrayOrder", "ignoreExtraElements"],
        "before": WireMockMapping.DateTimePattern.modifiers,
        "after": WireMockMapping.DateTimePattern.modifiers,
        "equalToDateTime": WireMockMapping.DateTimePattern.modifiers,
    ]

    /// Reads the object written for a value pattern (`{"equalTo": "x", "caseInsensitive": true}`).
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: MemberKey.self)
        self = try Self.read(object, at: decoder.codingPath)
    }

    static func read(_ object: KeyedDecodingContainer<MemberKey>, at path: [any CodingKey], extra: [String] = []) throws -> Self {
        let names = object.allKeys.map(\.stringValue).filter { !extra.contains($0) }
        let found = names.filter { operators.contains($0) || refusedOperators[$0] != nil }.sorted()
        guard let name = found.first else {
            if let other = names.sorted().first {
                throw MappingProblem.unknownMember(other, of: "a value pattern", known: operators, at: path)
            }
            throw MappingProblem.refused(
                at: path,
                "one matcher (\(operators.joined(separator: ", "))), found none; WireMock refuses this mapping too "
                    + "(it is not a valid match operation)")
        }
        if let reason = refusedOperators[name] {
            throw MappingProblem.unsupported(name, at: path, wireMock: reason.wireMock, instead: reason.instead)
        }
        guard found.count == 1 else {
            throw MappingProblem.refused(
                at: path,
                "one matcher, found \(found.map { "\"\($0)\"" }.joined(separator: " and ")); WireMock would use only one of "
                    + "them and ignore the others: combine them with \"and\" or \"or\"")
        }
        try object.refuseUnknownMembers(of: "a \"\(name)\" pattern", known: [name] + (modifiers[name] ?? []) + extra)
        let key = MemberKey(name)
        let operandPath = path + [key]
        switch name {
        case "equalTo":
            return .equalTo(try object.decode(String.self, forKey: key), caseInsensitive: try object.value("caseInsensitive") ?? false)
        case "contains": return .contains(try object.decode(String.self, forKey: key))
        case "doesNotContain": return .doesNotContain(try object.decode(String.self, forKey: key))
        case "matches", "doesNotMatch":
            let expression = try object.decode(String.self, forKey: key)
            try RegexCache.validate(expression, at: operandPath)
            return name == "matches" ? .matches(expression) : .doesNotMatch(expression)
        case "absent":
            guard try object.decode(Bool.self, forKey: key) else {
                throw MappingProblem.refused(
                    at: operandPath, "true (WireMock reads \"absent\": false as \"absent\" all the same); write \"anything\" or remove the pattern")
            }
            return .absent
        case "anything": return .anything
        case "not": return .not(try object.decode(Self.self, forKey: key))
        case "and", "or":
            let patterns = try object.decode([Self].self, forKey: key)
            return name == "and" ? .and(patterns) : .or(patterns)
        case "before", "after", "equalToDateTime":
            return .dateTime(try WireMockMapping.DateTimePattern.read(object, comparison: name, at: path))
        case "equalToJson":
            let operand = try object.json(name) ?? .null
            let expected: JSONValue
            if case .string(let text) = operand {
                do {
                    expected = try JSONValue.readingDocument(Data(text.utf8))
                } catch {
                    throw MappingProblem.refused(
                        at: operandPath, "JSON text (\(error)); WireMock refuses it too. Write the document itself instead of a string")
                }
            } else {
                expected = operand
            }
            return .equalToJson(
                .init(
                    expected: expected, ignoreArrayOrder: try object.value("ignoreArrayOrder") ?? false,
                    ignoreExtraElements: try object.value("ignoreExtraElements") ?? false))
        case "matchesJsonPath":
            if let expression = try? object.decode(String.self, forKey: key) {
                try WireMockJSONPath.validate(expression, at: operandPath)
                return .matchesJsonPath(.init(expression: expression))
            }
            let inner = try object.nestedContainer(keyedBy: MemberKey.self, forKey: key)
            guard let expression: String = try inner.value("expression") else {
                throw MappingProblem.refused(
                    at: operandPath, "an \"expression\" in the object form of matchesJsonPath; WireMock refuses it too")
            }
            try WireMockJSONPath.validate(expression, at: operandPath + [MemberKey("expression")])
            let hasSubpattern = inner.allKeys.contains { $0.stringValue != "expression" }
            let subpattern = hasSubpattern ? try read(inner, at: operandPath, extra: ["expression"]) : nil
            return .matchesJsonPath(.init(expression: expression, valuePattern: subpattern))
        default:
            let comparison = WireMockMapping.NumberComparison(rawValue: name)!
            if let number = try? object.decode(Double.self, forKey: key) { return .number(comparison, number) }
            let text = try object.decode(String.self, forKey: key)
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw MappingProblem.refused(at: operandPath, "a number, found \"\(text)\"; WireMock refuses it too")
            }
            return .number(comparison, number)
        }
    }

    /// Writes the pattern as WireMock writes it.
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: MemberKey.self)
        try write(into: &object)
    }

    func write(into object: inout KeyedEncodingContainer<MemberKey>) throws {
        switch self {
        case .equalTo(let value, let caseInsensitive):
            try object.put(value, "equalTo")
            if caseInsensitive { try object.put(true, "caseInsensitive") }
        case .contains(let value): try object.put(value, "contains")
        case .doesNotContain(let value): try object.put(value, "doesNotContain")
        case .matches(let value): try object.put(value, "matches")
        case .doesNotMatch(let value): try object.put(value, "doesNotMatch")
        case .absent: try object.put(true, "absent")
        case .anything: try object.put("(always)", "anything")
        case .not(let inner): try object.put(inner, "not")
        case .and(let patterns): try object.put(patterns, "and")
        case .or(let patterns): try object.put(patterns, "or")
        case .dateTime(let pattern): try pattern.write(into: &object)
        case .number(let comparison, let operand):
            if operand.rounded() == operand, abs(operand) < 9e15 {
                try object.put(Int(operand), comparison.rawValue)
            } else {
                try object.put(operand, comparison.rawValue)
            }
        case .equalToJson(let pattern):
            try object.putJSON(pattern.expected, "equalToJson")
            if pattern.ignoreArrayOrder { try object.put(true, "ignoreArrayOrder") }
            if pattern.ignoreExtraElements { try object.put(true, "ignoreExtraElements") }
        case .matchesJsonPath(let pattern):
            guard let valuePattern = pattern.valuePattern else {
                try object.put(pattern.expression, "matchesJsonPath")
                return
            }
            var inner = object.nestedContainer(keyedBy: MemberKey.self, forKey: MemberKey("matchesJsonPath"))
            try inner.put(pattern.expression, "expression")
            try valuePattern.write(into: &inner)
        }
    }
}
