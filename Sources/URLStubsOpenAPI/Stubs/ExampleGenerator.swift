import Foundation
import URLStubs

/// A value that fits a schema, made the same way every time: the schema's own `example` where
/// it has one that fits, else the first fitting `enum` value, `const`, or a value built from
/// `type`, `format`, `pattern`, bounds, `required`, `minItems`, `uniqueItems` and
/// `minProperties`. Alternatives (`oneOf`, `anyOf`, a discriminator's mapping) are tried in order
/// until one gives a value the whole schema accepts.
///
/// What is made stays small and bounded: optional properties and a first array item are filled
/// only ``optionalDepth`` levels down and for at most ``optionalBudget`` values, a schema met
/// again on the way down (recursion) gets only what it requires, and a schema that requires more
/// than the limits below throws a ``Failure`` naming it.
struct ExampleGenerator {
    /// Why no example can be built: the schema (keyword) at fault and what to do.
    struct Failure: Error {
        let schemaPath: String
        let message: String
    }

    /// Levels of optional properties (and of a first item in arrays that may be empty) filled in.
    static let optionalDepth = 3
    /// At most this many optional values per example: a wide schema stays a small example.
    static let optionalBudget = 2_000
    /// Schemas nested deeper than this on the way down (through properties, items, `$ref`s and
    /// alternatives) end in a ``Failure``: a document needs a handful; the bound keeps the
    /// recursion within a 512 KB thread stack.
    static let maximumDepth = 48
    /// The longest generated string, in characters (`minLength`, a pattern's repetitions).
    static let stringLimit = 100_000
    /// The most items (`minItems`) or properties (`minProperties`) one generated value holds.
    static let countLimit = 10_000
    /// The most a generated example may hold, counted as values plus string characters.
    static let sizeLimit = 4_000_000

    let set: SchemaSet
    private var onPath: [Int: Int] = [:]
    private var depth = 0
    private var size = 0
    private var optionalCount = 0
    private var fitting: [Int: Bool] = [:]

    init(set: SchemaSet) { self.set = set }

    /// A value for the schema at `index`, or a ``Failure`` when none can be built.
    mutating func value(for index: Int) throws -> JSONValue {
        let node = set.nodes[index]
        if node.rejectsEverything { throw Failure(schemaPath: node.path, message: "the schema is false: no value fits it") }
        if let example = node.example, exampleFits(example, index) {
            try spend(1, node)
            return example
        }
        if let values = node.enumValues {
            guard let first = values.first(where: { fits($0, index) }) else {
                throw Failure(schemaPath: node.path + "/enum", message: "no value of the enum fits the rest of the schema")
            }
            try spend(1, node)
            return first
        }
        if let constant = node.constValue {
            try spend(1, node)
            return constant
        }
        guard depth < Self.maximumDepth else {
            throw Failure(
                schemaPath: node.path,
                message: "schemas nest deeper than \(Self.maximumDepth) levels on the way down to here (through properties, items, "
                    + "$refs and alternatives)")
        }
        depth += 1
        onPath[index, default: 0] += 1
        defer {
            depth -= 1
            onPath[index]! -= 1
        }
        guard onPath[index]! <= 3 else {
            throw Failure(schemaPath: node.path, message: "the schema requires a value of itself inside itself, so no finite value fits")
        }
        let fillsOptional = depth <= Self.optionalDepth && onPath[index]! == 1
        let alternatives = node.oneOf.isEmpty ? node.anyOf : node.oneOf
        guard !alternatives.isEmpty else { return try completed(.null, node, index: index, fillsOptional: fillsOptional) }
        var firstMade: JSONValue?
        var firstFailure: Failure?
        for branch in alternatives {
            for tag in tags(for: branch, in: node) {
                do {
                    var made = try completed(try value(for: branch), node, index: index, fillsOptional: fillsOptional)
                    if let tag, let name = node.discriminator?.propertyName, case .object(var members) = made {
                        members[name] = .string(tag)
                        made = .object(members)
                    }
                    if alternatives.count == 1 && node.discriminator == nil || fits(made, index) { return made }
                    if firstMade == nil { firstMade = made }
                } catch let failure as Failure {
                    if firstFailure == nil { firstFailure = failure }
                }
            }
        }
        // None fits: the caller's check names the first way the first value breaks the schema.
        if let firstMade { return firstMade }
        throw firstFailure!
    }

    /// The discriminator values to try for `branch`: `nil` (the branch's own value) first, then
    /// each name the mapping gives it.
    private func tags(for branch: Int, in node: SchemaNode) -> [String?] {
        guard let discriminator = node.discriminator else { return [nil] }
        return [nil] + discriminator.mapping.filter { $0.schema == branch }.map(\.value)
    }

    /// `base` (an alternative's value, or `.null`) with the values of `allOf` and the node's own
    /// keywords added: what is already there stays.
    private mutating func completed(_ base: JSONValue, _ node: SchemaNode, index: Int, fillsOptional: Bool) throws -> JSONValue {
        var value = base
        var scalars: [JSONValue] = []
        for part in node.allOf {
            let made = try self.value(for: part)
            if made.objectValue == nil, made != .null { scalars.append(made) }
            value = Self.merging(value, made)
        }
        let own = try ownValue(node, existing: value, fillsOptional: fillsOptional)
        guard !scalars.isEmpty, own.objectValue == nil else { return own }
        // Parts that each make a scalar (`minimum` here, `multipleOf` there): the first value
        // every part accepts.
        return ([own] + scalars).first { fits($0, index) } ?? own
    }

    /// `left` with what `right` adds: an object's members it lacks; `right` itself where `left`
    /// is `null`.
    static func merging(_ left: JSONValue, _ right: JSONValue) -> JSONValue {
        switch (left, right) {
        case (.null, _): return right
        case (.object(var members), .object(let more)):
            for (name, value) in more where members[name] == nil { members[name] = value }
            return .object(members)
        default: return left
        }
    }

    /// The type to make: the value already made decides when the schema allows its type, else
    /// the schema's first type (`null` last), else what its keywords are about.
    private func kind(of node: SchemaNode, existing: JSONValue) -> String? {
        if existing != .null {
            let type = existing.typeName
            guard let types = node.types else { return type }
            if types.contains(type) || (type == "integer" && types.contains("number")) { return type }
        }
        if let types = node.types {
            return ["object", "array", "string", "integer", "number", "boolean", "null"].first { types.contains($0) }
        }
        if !node.properties.isEmpty || !node.required.isEmpty || node.minProperties != nil { return "object" }
        if node.items != nil || node.minItems != nil || node.uniqueItems { return "array" }
        if node.minLength != nil || node.maxLength != nil || node.pattern != nil || node.format != nil { return "string" }
        if node.minimum != nil || node.maximum != nil || node.exclusiveMinimum != nil || node.exclusiveMaximum != nil
            || node.multipleOf != nil
        {
            return "number"
        }
        return nil
    }

    private mutating func ownValue(_ node: SchemaNode, existing: JSONValue, fillsOptional: Bool) throws -> JSONValue {
        guard let kind = kind(of: node, existing: existing) else { return existing }
        let keeps = existing != .null && existing.typeName == kind
        switch kind {
        case "object": return try object(node, existing: existing.objectValue ?? [:], fillsOptional: fillsOptional)
        case "array":
            if keeps, existing.arrayValue?.isEmpty == false { return existing }
            return try array(node, fillsOptional: fillsOptional)
        case "string": return keeps ? existing : .string(try string(node))
        case "integer", "number":
            if existing.numericValue != nil, kind == existing.typeName || kind == "number" { return existing }
            try spend(1, node)
            let made = Self.number(node, integral: kind == "integer")
            return kind == "integer" && abs(made) < 9e15 ? .integer(Int(made)) : .number(made)
        case "boolean":
            try spend(1, node)
            return keeps ? existing : .bool(true)
        default: return .null
        }
    }

    private mutating func object(_ node: SchemaNode, existing: [String: JSONValue], fillsOptional: Bool) throws -> JSONValue {
        try spend(1, node)
        var members = existing
        for (name, schema) in node.properties where members[name] == nil {
            if node.required.contains(name) {
                members[name] = try value(for: schema)
            } else if fillsOptional, optionalCount < Self.optionalBudget {
                optionalCount += 1
                // An optional property that cannot be made is left out.
                if let made = try? value(for: schema) { members[name] = made }
            }
        }
        for name in node.required where members[name] == nil {
            members[name] = try extraMember(node)
        }
        if let minimum = node.minProperties, members.count < minimum {
            guard minimum <= Self.countLimit else {
                throw Failure(
                    schemaPath: node.path + "/minProperties",
                    message: "minProperties \(minimum) is more than the \(Self.countLimit) properties a generated example holds")
            }
            for (name, schema) in node.properties where members[name] == nil && members.count < minimum {
                members[name] = try value(for: schema)
            }
            var number = 1
            while members.count < minimum {
                let name = "property\(number)"
                if members[name] == nil { members[name] = try extraMember(node) }
                number += 1
            }
        }
        return .object(members)
    }

    /// A value for a property the schema does not list: its `additionalProperties` schema's.
    private mutating func extraMember(_ node: SchemaNode) throws -> JSONValue {
        if case .schema(let schema) = node.additionalProperties { return try value(for: schema) }
        try spend(6, node)
        return .string("string")
    }

    private mutating func array(_ node: SchemaNode, fillsOptional: Bool) throws -> JSONValue {
        try spend(1, node)
        let minimum = node.minItems ?? 0
        guard minimum <= Self.countLimit else {
            throw Failure(
                schemaPath: node.path + "/minItems",
                message: "minItems \(minimum) is more than the \(Self.countLimit) items a generated example holds")
        }
        var count = max(minimum, fillsOptional && optionalCount < Self.optionalBudget ? 1 : 0)
        if let maximum = node.maxItems { count = min(count, maximum) }
        guard count > 0 else { return .array([]) }
        var items: [JSONValue] = []
        items.reserveCapacity(count)
        for position in 0..<count {
            var item: JSONValue
            if let schema = node.items {
                do {
                    item = try value(for: schema)
                } catch let failure as Failure {
                    // The one optional item is left out; required ones cannot be.
                    guard minimum > 0 else { return .array([]) }
                    throw failure
                }
                if node.uniqueItems, position > 0 { item = try distinct(item, position, schema: schema) }
            } else {
                try spend(1, node)
                item = .integer(position + 1)
            }
            items.append(item)
        }
        if minimum == 0 { optionalCount += 1 }
        return .array(items)
    }

    /// `item` changed to differ from the items made before it (`position` of them), for
    /// `uniqueItems`: the next enum value, number or string of the item's schema.
    private mutating func distinct(_ item: JSONValue, _ position: Int, schema: Int) throws -> JSONValue {
        let node = set.nodes[schema]
        if let values = node.enumValues {
            let fitting = values.filter { fits($0, schema) }
            guard position < fitting.count else {
                throw Failure(
                    schemaPath: node.path + "/enum", message: "uniqueItems needs \(position + 1) distinct items, and the enum has \(fitting.count)")
            }
            return fitting[position]
        }
        switch item {
        case .integer(let value):
            let step = node.multipleOf.map { max(1, Int($0.rounded(.up))) } ?? 1
            return .integer(value + position * step)
        case .number(let value): return .number(value + Double(position) * (node.multipleOf ?? 1))
        case .bool: return .bool(position % 2 == 0)
        case .string(let text):
            if let pattern = node.pattern, let made = try? PatternString(pattern.source).make(stretch: position), made != text {
                return .string(made)
            }
            return .string(Self.varied(text, format: node.format, position))
        case .object(var members):
            for (name, schema) in set.nodes[schema].properties {
                guard let member = members[name], member.typeName == "string" || member.typeName == "integer" else { continue }
                members[name] = try distinct(member, position, schema: schema)
                return .object(members)
            }
            return item
        default: return item
        }
    }

    /// Counts what an example holds; past ``sizeLimit`` the example is refused.
    mutating func spend(_ amount: Int, _ node: SchemaNode) throws {
        size += amount
        guard size <= Self.sizeLimit else {
            throw Failure(
                schemaPath: node.path,
                message: "the example would hold more than \(Self.sizeLimit) values and characters (minItems, minProperties and "
                    + "minLength multiply down the schema)")
        }
    }

    /// Whether `value` is valid against the schema at `index`.
    private func fits(_ value: JSONValue, _ index: Int) -> Bool {
        SchemaValidator.violations(of: value, against: index, in: set, limit: 1).violations.isEmpty
    }

    /// Whether the schema's own `example` fits it, remembered per schema.
    private mutating func exampleFits(_ example: JSONValue, _ index: Int) -> Bool {
        if let known = fitting[index] { return known }
        let answer = fits(example, index)
        fitting[index] = answer
        return answer
    }
}
