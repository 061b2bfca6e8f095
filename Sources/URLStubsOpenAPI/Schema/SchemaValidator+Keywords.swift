import Foundation
import URLStubs

/// The keywords a schema checks of the value itself, and how a violation is reported.
extension SchemaValidator {
    var isFull: Bool { frame.violations.count >= frame.limit }

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

    /// Adds a violation to the check under way (past its limit, counts it).
    mutating func report(_ node: SchemaNode, _ keyword: String, expected: String, found: String) {
        guard !isFull else {
            frame.uncounted += 1
            return
        }
        frame.violations.append(
            SchemaViolation(
                jsonPath: boundedReportLine(jsonPath), schemaPath: keyword.isEmpty ? node.path : node.path + "/" + keyword,
                expected: boundedReportLine(expected), found: boundedReportLine(isSecret ? placeholder : found)))
    }

    mutating func reportTooDeep(_ index: Int) {
        depthStops += 1
        report(
            set.nodes[index], "", expected: "a value nested at most \(Self.maximumDepth) levels (counting its schema's references)",
            found: "deeper nesting")
    }

    /// `false` when the value stops here: the schema is `false`, the value is an allowed
    /// `null`, or its type is wrong (reported).
    mutating func checkOwnKeywords(_ value: JSONValue, _ index: Int) -> Bool {
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

    mutating func checkRequired(_ members: [String: JSONValue], _ index: Int) {
        let node = set.nodes[index]
        for name in node.required where members[name] == nil {
            report(node, "required", expected: "the required property \"\(name)\"", found: "an object without it")
        }
    }

    mutating func reportAdditional(_ members: [String: JSONValue], _ index: Int) {
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

    mutating func checkPropertyCounts(_ members: [String: JSONValue], _ index: Int) {
        let node = set.nodes[index]
        if let minimum = node.minProperties, members.count < minimum {
            report(node, "minProperties", expected: "at least \(minimum) properties", found: "\(members.count)")
        }
        if let maximum = node.maxProperties, members.count > maximum {
            report(node, "maxProperties", expected: "at most \(maximum) properties", found: "\(members.count)")
        }
    }

    mutating func checkItemCounts(_ items: [JSONValue], _ node: SchemaNode) {
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

    mutating func validateString(_ text: String, _ node: SchemaNode) {
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
            let expected = "a string matching /\(pattern.source)/"
            switch patterns.match(pattern, text) {
            case .matched: break
            case .notMatched: report(node, "pattern", expected: expected, found: JSONValue.string(text).brief)
            case .ranOut:
                patterns.ranOut(at: jsonPath)
                report(
                    node, "pattern", expected: expected,
                    found: "\(JSONValue.string(text).brief), which was not decided: "
                        + PatternBudget.ranOutExplanation(pattern, length: text.unicodeScalars.count))
            case .notTried:
                report(
                    node, "pattern", expected: expected,
                    found: "\(JSONValue.string(text).brief), which was not checked: \(patterns.notTriedExplanation)")
            }
        }
        if let format = node.format, let valid = StringFormat.check(text, format: format), !valid {
            report(
                node, "format", expected: "\(Self.article(for: format)) \(format) string (\(StringFormat.explanation(format)))",
                found: JSONValue.string(text).brief)
        }
    }

    mutating func validateNumber(_ value: JSONValue, _ node: SchemaNode) {
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

    /// The article before a format's name: `an email`, `an ipv4`, `a date`, `a uuid` (whose
    /// `u` sounds like `you`, so `u` takes `a`).
    static func article(for word: String) -> String {
        guard let first = word.lowercased().first, "aeio".contains(first) else { return "a" }
        return "an"
    }
}
