import Foundation
import URLStubs

/// A value that fits a schema, made the same way every time: the schema's own `example` where
/// it has one, else the first `enum` value, `const`, or a value built from `type`, `format`,
/// bounds and `required`. A recursive schema stops recursing past a few levels (optional
/// properties are then left out, arrays left empty).
struct ExampleGenerator {
    let set: SchemaSet
    static let recursionLimit = 3
    private var onPath: [Int: Int] = [:]
    private var depth = 0

    init(set: SchemaSet) { self.set = set }

    mutating func value(for index: Int) -> JSONValue {
        let node = set.nodes[index]
        if let example = node.example { return example }
        if let first = node.enumValues?.first { return first }
        if let constant = node.constValue { return constant }
        // A schema met again and again on the way down (recursion through $ref, allOf or
        // oneOf) ends in a value made without looking further.
        if onPath[index, default: 0] > Self.recursionLimit || depth > 64 { return shallow(node) }
        depth += 1
        onPath[index, default: 0] += 1
        defer {
            depth -= 1
            onPath[index]! -= 1
        }
        let isDeep = onPath[index]! > Self.recursionLimit || depth > 64
        if let discriminator = node.discriminator, let target = discriminator.mapping.first {
            var made = value(for: target.schema)
            if case .object(var members) = made {
                members[discriminator.propertyName] = .string(target.value)
                made = .object(members)
            }
            return made
        }
        if let first = node.oneOf.first ?? node.anyOf.first {
            return merged(value(for: first), with: node, isDeep: isDeep)
        }
        var base: JSONValue = .null
        for part in node.allOf {
            base = merging(base, value(for: part))
        }
        return merged(base, with: node, isDeep: isDeep)
    }

    private mutating func merged(_ base: JSONValue, with node: SchemaNode, isDeep: Bool) -> JSONValue {
        let own = ownValue(node, isDeep: isDeep)
        if case .null = base { return own }
        if case .null = own, node.types == nil { return base }
        return merging(base, own)
    }

    private func merging(_ left: JSONValue, _ right: JSONValue) -> JSONValue {
        switch (left, right) {
        case (.null, _): return right
        case (.object(var members), .object(let more)):
            for (name, value) in more { members[name] = value }
            return .object(members)
        default: return right
        }
    }

    private mutating func ownValue(_ node: SchemaNode, isDeep: Bool) -> JSONValue {
        let types = node.types ?? (node.properties.isEmpty && node.required.isEmpty ? [] : ["object"])
        if types.isEmpty, node.items != nil { return .array([]) }
        if types.contains("object") || (types.isEmpty && !node.properties.isEmpty) {
            var members: [String: JSONValue] = [:]
            for (name, schema) in node.properties where !isDeep || node.required.contains(name) {
                members[name] = value(for: schema)
            }
            for name in node.required where members[name] == nil { members[name] = .string("") }
            return .object(members)
        }
        if types.contains("array") {
            guard let items = node.items, !isDeep else { return .array([]) }
            let count = max(1, node.minItems ?? 1)
            return .array((0..<min(count, 3)).map { _ in value(for: items) })
        }
        if types.contains("string") { return .string(string(node)) }
        if types.contains("integer") { return integer(node) }
        if types.contains("number") { return .number(number(node, integral: false)) }
        if types.contains("boolean") { return .bool(true) }
        return .null
    }

    /// A value of the schema's first type, without following any other schema.
    private func shallow(_ node: SchemaNode) -> JSONValue {
        guard let types = node.types else { return .null }
        if types.contains("object") { return .object([:]) }
        if types.contains("array") { return .array([]) }
        if types.contains("string") { return .string(string(node)) }
        if types.contains("integer") { return integer(node) }
        if types.contains("number") { return .number(number(node, integral: false)) }
        if types.contains("boolean") { return .bool(true) }
        return .null
    }

    private func string(_ node: SchemaNode) -> String {
        var text: String
        switch node.format {
        case "date-time": text = "2024-05-01T12:00:00Z"
        case "date": text = "2024-05-01"
        case "uuid": text = "3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b"
        case "email": text = "ada@example.com"
        case "uri": text = "https://example.com/"
        default: text = "string"
        }
        if let minimum = node.minLength, text.count < minimum { text += String(repeating: "x", count: minimum - text.count) }
        if let maximum = node.maxLength, text.count > maximum { text = String(text.prefix(maximum)) }
        return text
    }

    private func integer(_ node: SchemaNode) -> JSONValue {
        let value = number(node, integral: true)
        return abs(value) < 9e15 ? .integer(Int(value)) : .number(value)
    }

    /// A number within the bounds (finite: a bound JSON cannot write is left out).
    private func number(_ node: SchemaNode, integral: Bool) -> Double {
        let made = unclampedNumber(node, integral: integral)
        return made.isFinite ? made : 1
    }

    private func unclampedNumber(_ node: SchemaNode, integral: Bool) -> Double {
        var value: Double = 1
        if let minimum = node.minimum { value = max(value, minimum) }
        if let minimum = node.exclusiveMinimum, value <= minimum { value = integral ? minimum.rounded(.down) + 1 : minimum + 0.5 }
        if let maximum = node.maximum { value = min(value, maximum) }
        if let maximum = node.exclusiveMaximum, value >= maximum { value = integral ? maximum.rounded(.up) - 1 : maximum - 0.5 }
        if let multiple = node.multipleOf { value = (value / multiple).rounded(.up) * multiple }
        if integral { value = value.rounded(.up) }
        return value
    }
}
