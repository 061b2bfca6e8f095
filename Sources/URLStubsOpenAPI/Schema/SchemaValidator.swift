import Foundation
import URLStubs

/// One way a JSON value breaks its schema.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// Where in the value: `$`, `$.items[3].price`, `$["a key"]`.
    public let jsonPath: String
    /// The keyword that refused it: `#/components/schemas/Pet/properties/price/type`.
    public let schemaPath: String
    /// What the schema wants (`type number`, `the required property "id"`).
    public let expected: String
    /// What came (`string "12"`, `nothing`).
    public let found: String

    /// `$.items[3].price: expected type number, found string "12" (#/components/schemas/…/type)`.
    public var description: String { "\(jsonPath): expected \(expected), found \(found) (\(schemaPath))" }
}

/// Checks a value against a compiled schema, collecting at most ``limit`` violations. The
/// path into the value is a stack of steps, spelled out only for a violation.
struct SchemaValidator {
    /// Deeper than this (value nesting plus `allOf` / `$ref` hops), validation stops with a
    /// violation instead of exhausting the stack.
    static let maximumDepth = 96

    enum Step {
        case key(String)
        case index(Int)
    }

    let set: SchemaSet
    let limit: Int
    private(set) var violations: [SchemaViolation] = []
    /// Violations past ``limit``, counted only.
    private(set) var uncounted = 0
    private var steps: [Step] = []
    private var depth = 0

    /// The most bytes one failed branch adds to a `oneOf` / `anyOf` report.
    static let branchReportLimit = 200
    /// The most failed branches a `oneOf` / `anyOf` report lists.
    static let listedBranches = 5

    /// Trials of `oneOf` / `anyOf` branches already made, shared by the probes of one check.
    final class Trials {
        struct Key: Hashable {
            let schema: Int
            let place: String
        }
        var answers: [Key: SchemaViolation?] = [:]
        /// How many times a check stopped at ``SchemaValidator/maximumDepth``.
        var depthStops = 0
    }

    private var trials = Trials()
    /// Member names (lower-cased) whose values reports print as ``placeholder``: the JSON
    /// fields of a `Scrubbing`.
    var secretNames: Set<String> = []
    var placeholder = Scrubbing.default.placeholder

    init(set: SchemaSet, limit: Int = 50) {
        self.set = set
        self.limit = limit
    }

    /// Every violation of `value` against the schema at `index`.
    /// Values under a member `scrubbing` names print as its placeholder.
    static func violations(of value: JSONValue, against index: Int, in set: SchemaSet, limit: Int = 50, scrubbing: Scrubbing = .default) -> (
        violations: [SchemaViolation], uncounted: Int
    ) {
        var validator = SchemaValidator(set: set, limit: limit)
        validator.secretNames = Set(scrubbing.jsonFields.map { $0.lowercased() })
        validator.placeholder = scrubbing.placeholder
        validator.validate(value, against: index)
        return (validator.violations, validator.uncounted)
    }

    var isFull: Bool { violations.count >= limit }

    var jsonPath: String {
        var path = "$"
        for step in steps {
            switch step {
            case .index(let position): path += "[\(position)]"
            case .key(let name):
                if !name.isEmpty, name.utf8.allSatisfy({ Self.isIdentifierByte($0) }), name.utf8.first.map({ $0 < 48 || $0 > 57 }) ?? false {
                    path += "." + name
                } else {
                    path += "[\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"]"
                }
            }
        }
        return path
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57) || byte == 95 || byte == 36
    }

    /// Whether the value checked now sits under a member whose name is a secret's.
    private var isSecret: Bool {
        guard !secretNames.isEmpty else { return false }
        return steps.contains { step in
            if case .key(let name) = step { return secretNames.contains(name.lowercased()) }
            return false
        }
    }

    private mutating func report(_ node: SchemaNode, _ keyword: String, expected: String, found: String) {
        guard !isFull else {
            uncounted += 1
            return
        }
        violations.append(
            SchemaViolation(
                jsonPath: boundedReportLine(jsonPath), schemaPath: keyword.isEmpty ? node.path : node.path + "/" + keyword,
                expected: boundedReportLine(expected), found: boundedReportLine(isSecret ? placeholder : found)))
    }

    /// Recursion runs through here, `validateObject`, `validateArray` and the alternatives'
    /// trials: each keeps its own frame small (reports are made in helpers), so that
    /// ``maximumDepth`` levels fit a 512 KB thread stack in a debug build.
    mutating func validate(_ value: JSONValue, against index: Int) {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return reportTooDeep(index) }
        guard checkOwnKeywords(value, index) else { return }
        switch value {
        case .object(let members): validateObject(members, index)
        case .array(let items): validateArray(items, index)
        case .string(let text): validateString(text, set.nodes[index])
        case .integer, .number: validateNumber(value, set.nodes[index])
        case .null, .bool: break
        }
        for part in set.nodes[index].allOf { validate(value, against: part) }
        validateAlternatives(value, index)
    }

    private mutating func reportTooDeep(_ index: Int) {
        trials.depthStops += 1
        report(
            set.nodes[index], "", expected: "a value nested at most \(Self.maximumDepth) levels (counting its schema's references)",
            found: "deeper nesting")
    }

    /// `false` when the value stops here: the schema is `false`, the value is an allowed
    /// `null`, or its type is wrong (reported).
    private mutating func checkOwnKeywords(_ value: JSONValue, _ index: Int) -> Bool {
        let node = set.nodes[index]
        if node.rejectsEverything {
            report(node, "", expected: "nothing (the schema is false)", found: value.brief)
            return false
        }
        if case .null = value, node.nullable { return false }
        let typeName = value.typeName
        if let types = node.types, !types.contains(typeName), !(typeName == "integer" && types.contains("number")) {
            var names = types.sorted()
            if node.nullable { names.append("null") }
            let expected = names.count == 1 ? "type \(names[0])" : "one of the types " + names.joined(separator: ", ")
            report(node, "type", expected: expected, found: "\(typeName) \(value.brief)")
            return false
        }
        if let values = node.enumValues, !values.contains(value) {
            report(
                node, "enum", expected: "one of " + values.prefix(10).map(\.brief).joined(separator: ", ") + (values.count > 10 ? ", …" : ""),
                found: value.brief)
        }
        if let constant = node.constValue, constant != value {
            report(node, "const", expected: constant.brief, found: value.brief)
        }
        return true
    }

    private mutating func validateAlternatives(_ value: JSONValue, _ index: Int) {
        let node = set.nodes[index]
        guard !(node.oneOf.isEmpty && node.anyOf.isEmpty) else { return }
        if let discriminator = node.discriminator, case .object(let members) = value,
            discriminator.isExplicit || namesARefusedSchema(members, value, node)
        {
            dispatch(members, value, node, discriminator)
        } else {
            if !node.oneOf.isEmpty { validateOneOf(value, node) }
            if !node.anyOf.isEmpty { validateAnyOf(value, node) }
        }
    }

    private mutating func validateObject(_ members: [String: JSONValue], _ index: Int) {
        checkRequired(members, index)
        for (name, schema) in set.nodes[index].properties {
            guard let member = members[name] else { continue }
            steps.append(.key(name))
            validate(member, against: schema)
            steps.removeLast()
        }
        switch set.nodes[index].additionalProperties {
        case .allowed: break
        case .forbidden: reportAdditional(members, index)
        case .schema(let schema):
            for name in members.keys.sorted() where set.nodes[index].propertyIndex[name] == nil {
                steps.append(.key(name))
                validate(members[name]!, against: schema)
                steps.removeLast()
            }
        }
        checkPropertyCounts(members, index)
    }

    private mutating func checkRequired(_ members: [String: JSONValue], _ index: Int) {
        let node = set.nodes[index]
        for name in node.required where members[name] == nil {
            report(node, "required", expected: "the required property \"\(name)\"", found: "an object without it")
        }
    }

    private mutating func reportAdditional(_ members: [String: JSONValue], _ index: Int) {
        let node = set.nodes[index]
        let extra = members.keys.filter { node.propertyIndex[$0] == nil }.sorted()
        for name in extra {
            steps.append(.key(name))
            let listed = node.properties.prefix(10).map { "\"\($0.name)\"" }.joined(separator: ", ")
            report(
                node, "additionalProperties",
                expected: "no property \"\(name)\" (additionalProperties is false; properties: \(listed.isEmpty ? "none" : listed))",
                found: members[name]!.brief)
            steps.removeLast()
        }
    }

    private mutating func checkPropertyCounts(_ members: [String: JSONValue], _ index: Int) {
        let node = set.nodes[index]
        if let minimum = node.minProperties, members.count < minimum {
            report(node, "minProperties", expected: "at least \(minimum) properties", found: "\(members.count)")
        }
        if let maximum = node.maxProperties, members.count > maximum {
            report(node, "maxProperties", expected: "at most \(maximum) properties", found: "\(members.count)")
        }
    }

    private mutating func validateArray(_ items: [JSONValue], _ index: Int) {
        checkItemCounts(items, set.nodes[index])
        guard let schema = set.nodes[index].items else { return }
        for (position, item) in items.enumerated() {
            if isFull {
                uncounted += 1
                continue
            }
            steps.append(.index(position))
            validate(item, against: schema)
            steps.removeLast()
        }
    }

    private mutating func checkItemCounts(_ items: [JSONValue], _ node: SchemaNode) {
        if let minimum = node.minItems, items.count < minimum {
            report(node, "minItems", expected: "at least \(minimum) items", found: "\(items.count)")
        }
        if let maximum = node.maxItems, items.count > maximum {
            report(node, "maxItems", expected: "at most \(maximum) items", found: "\(items.count)")
        }
        if node.uniqueItems {
            var seen: [JSONValue: Int] = [:]
            for (position, item) in items.enumerated() {
                if let first = seen[item] {
                    report(node, "uniqueItems", expected: "unique items", found: "item \(position) equal to item \(first) (\(item.brief))")
                    break
                }
                seen[item] = position
            }
        }
    }

    private mutating func validateString(_ text: String, _ node: SchemaNode) {
        if node.minLength != nil || node.maxLength != nil {
            let length = text.unicodeScalars.count
            if let minimum = node.minLength, length < minimum {
                report(node, "minLength", expected: "at least \(minimum) characters", found: "\(length) (\(JSONValue.string(text).brief))")
            }
            if let maximum = node.maxLength, length > maximum {
                report(node, "maxLength", expected: "at most \(maximum) characters", found: "\(length) (\(JSONValue.string(text).brief))")
            }
        }
        if let pattern = node.pattern {
            switch pattern.matches(text) {
            case .matched: break
            case .notMatched:
                report(node, "pattern", expected: "a string matching /\(pattern.source)/", found: JSONValue.string(text).brief)
            case .ranOut:
                report(
                    node, "pattern", expected: "a string matching /\(pattern.source)/",
                    found: "\(JSONValue.string(text).brief), which was not decided: "
                        + pattern.expression.ranOutExplanation(subject: "string", length: text.unicodeScalars.count))
            }
        }
        if let format = node.format, let valid = StringFormat.check(text, format: format), !valid {
            report(
                node, "format", expected: "\(Self.article(for: format)) \(format) string (\(StringFormat.explanation(format)))",
                found: JSONValue.string(text).brief)
        }
    }

    private mutating func validateNumber(_ value: JSONValue, _ node: SchemaNode) {
        guard let number = value.numericValue else { return }
        if let minimum = node.minimum, number < minimum {
            report(node, "minimum", expected: "at least \(JSONValue.number(minimum).brief)", found: value.brief)
        }
        if let maximum = node.maximum, number > maximum {
            report(node, "maximum", expected: "at most \(JSONValue.number(maximum).brief)", found: value.brief)
        }
        if let minimum = node.exclusiveMinimum, number <= minimum {
            report(node, "exclusiveMinimum", expected: "more than \(JSONValue.number(minimum).brief)", found: value.brief)
        }
        if let maximum = node.exclusiveMaximum, number >= maximum {
            report(node, "exclusiveMaximum", expected: "less than \(JSONValue.number(maximum).brief)", found: value.brief)
        }
        if let divisor = node.multipleOf, !Self.isMultiple(value, of: divisor) {
            report(node, "multipleOf", expected: "a multiple of \(JSONValue.number(divisor).brief)", found: value.brief)
        }
    }

    static func isMultiple(_ value: JSONValue, of divisor: Double) -> Bool {
        if case .integer(let whole) = value, divisor.rounded() == divisor, abs(divisor) < 9e15 {
            return whole % Int(divisor) == 0
        }
        guard let number = value.numericValue, number.isFinite else { return false }
        let quotient = number / divisor
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }

    /// The first violation of `value` against `index`, or `nil` when it is valid.
    ///
    /// Answers are remembered per schema and place in the value (``Trials``): nested `oneOf`s
    /// whose branches share schemas try each pair once, not once per path through the branches
    /// (8 levels of 10 branches: 80 trials, not 10^8).
    private func trial(_ value: JSONValue, against index: Int) -> SchemaViolation? {
        let key = Trials.Key(schema: index, place: jsonPath)
        if let known = trials.answers[key] { return known }
        let depthStopsBefore = trials.depthStops
        var probe = SchemaValidator(set: set, limit: 1)
        probe.steps = steps
        probe.depth = depth
        probe.trials = trials
        probe.secretNames = secretNames
        probe.placeholder = placeholder
        probe.validate(value, against: index)
        let answer = probe.violations.first
        // An answer cut short by the depth limit depends on the depth it was asked at.
        if trials.depthStops == depthStopsBefore { trials.answers[key] = answer }
        return answer
    }

    /// What one branch's violation adds to a report of failed alternatives.
    static func branchFailure(_ position: Int, _ violation: SchemaViolation) -> String {
        boundedReportLine("\(position): \(violation)", limit: branchReportLimit)
    }

    /// The failures of the first ``listedBranches`` branches, then how many more failed.
    static func failureList(_ failures: [String]) -> String {
        let listed = failures.prefix(listedBranches).joined(separator: "; ")
        return failures.count > listedBranches ? listed + "; \(failures.count - listedBranches) more" : listed
    }

    private mutating func validateOneOf(_ value: JSONValue, _ node: SchemaNode) {
        var matching: [Int] = []
        var failures: [String] = []
        for (position, branch) in node.oneOf.enumerated() {
            if let violation = trial(value, against: branch) {
                failures.append(Self.branchFailure(position, violation))
            } else {
                matching.append(position)
            }
        }
        if matching.isEmpty {
            report(
                node, "oneOf", expected: "exactly one of the \(node.oneOf.count) oneOf schemas",
                found: "a value none accepts (\(Self.failureList(failures)))")
        } else if matching.count > 1 {
            report(
                node, "oneOf", expected: "exactly one of the \(node.oneOf.count) oneOf schemas",
                found: "a value \(matching.count) accept (\(matching.map(String.init).joined(separator: ", ")))")
        }
    }

    private mutating func validateAnyOf(_ value: JSONValue, _ node: SchemaNode) {
        var failures: [String] = []
        for (position, branch) in node.anyOf.enumerated() {
            guard let violation = trial(value, against: branch) else { return }
            failures.append(Self.branchFailure(position, violation))
        }
        report(
            node, "anyOf", expected: "at least one of the \(node.anyOf.count) anyOf schemas",
            found: "a value none accepts (\(Self.failureList(failures)))")
    }

    /// Without a `mapping`, whether the discriminator's value names a schema and plain `oneOf`
    /// / `anyOf` refuses the value: the named schema's report is then the sharper one.
    private func namesARefusedSchema(_ members: [String: JSONValue], _ value: JSONValue, _ node: SchemaNode) -> Bool {
        guard let discriminator = node.discriminator, case .string(let tag)? = members[discriminator.propertyName],
            discriminator.mapping.contains(where: { $0.value == tag })
        else { return false }
        if !node.oneOf.isEmpty, node.oneOf.filter({ trial(value, against: $0) == nil }).count != 1 { return true }
        if !node.anyOf.isEmpty, !node.anyOf.contains(where: { trial(value, against: $0) == nil }) { return true }
        return false
    }

    /// `oneOf` / `anyOf` with a discriminator: the property's value picks the one schema.
    private mutating func dispatch(
        _ members: [String: JSONValue], _ value: JSONValue, _ node: SchemaNode, _ discriminator: SchemaNode.Discriminator
    ) {
        let names = discriminator.mapping.map { "\"\($0.value)\"" }.joined(separator: ", ")
        guard let tag = members[discriminator.propertyName] else {
            report(
                node, "discriminator/propertyName", expected: "the discriminator property \"\(discriminator.propertyName)\" (\(names))",
                found: "an object without it")
            return
        }
        guard case .string(let text) = tag, let target = discriminator.mapping.first(where: { $0.value == text }) else {
            steps.append(.key(discriminator.propertyName))
            report(node, "discriminator/mapping", expected: "one of \(names)", found: tag.brief)
            steps.removeLast()
            return
        }
        validate(value, against: target.schema)
    }

    /// The article before a format's name: `an email`, `an ipv4`, `a date`, `a uuid` (whose
    /// `u` sounds like `you`, so `u` takes `a`).
    static func article(for word: String) -> String {
        guard let first = word.lowercased().first, "aeio".contains(first) else { return "a" }
        return "an"
    }
}
