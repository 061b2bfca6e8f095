import Foundation
import URLStubs

/// Compiles the schemas of a document into a ``SchemaSet``, following each `$ref` once: a
/// schema reached twice (or recursively) is compiled once and shared.
struct SchemaCompiler {
    let root: JSONValue
    let isVersion31: Bool
    let source: String
    var set = SchemaSet()
    /// Schemas with an index whose keywords are still to be read.
    private var pending: [(index: Int, members: [String: JSONValue], pointer: String)] = []

    init(root: JSONValue, isVersion31: Bool, source: String) {
        self.root = root
        self.isVersion31 = isVersion31
        self.source = source
    }

    func error(_ pointer: String, _ message: String) -> OpenAPIError {
        OpenAPIError(source: source, location: pointer, message: message)
    }

    /// The index of the schema `value`, found at `pointer`, with every schema it reaches
    /// compiled.
    ///
    /// No recursion follows the document's nesting: a schema's subschemas get their index at
    /// once and their keywords are read from a list of pending schemas, and a chain of `$ref`s
    /// is followed in a loop. A schema nested or referenced any number of levels deep costs no
    /// stack (the readers bound the nesting of the text itself).
    mutating func compile(_ value: JSONValue, at pointer: String) throws -> Int {
        let index = try reference(value, at: pointer)
        while let schema = pending.popLast() {
            set.nodes[schema.index] = try node(schema.members, at: schema.pointer)
        }
        return index
    }

    /// The index the schema `value` at `pointer` has, or gets; an object's keywords wait in
    /// ``pending``.
    private mutating func reference(_ value: JSONValue, at pointer: String) throws -> Int {
        if let index = set.indices[pointer] { return index }
        switch value {
        case .bool(let accepts):
            let node = SchemaNode(path: pointer)
            node.rejectsEverything = !accepts
            return store(node, at: pointer)
        case .object(let members):
            if let reference = onlyReference(members) { return try follow(reference, from: pointer, isSchemaThere: true) }
            if let reference = members["$ref"], reference.stringValue == nil {
                throw error(pointer, "\"$ref\" must be a string, found \(reference.brief)")
            }
            let index = store(SchemaNode(path: pointer), at: pointer)
            pending.append((index, members, pointer))
            return index
        default:
            throw error(pointer, "expected a schema (an object or, in 3.1, true or false), found \(value.brief)")
        }
    }

    /// The `$ref` of a schema that is that `$ref` alone (in 3.1, with no validation keyword
    /// beside it), else `nil`.
    private func onlyReference(_ members: [String: JSONValue]) -> String? {
        guard case .string(let reference)? = members["$ref"] else { return nil }
        let hasSiblings = members.keys.contains { Self.validationKeywords.contains($0) }
        return isVersion31 && hasSiblings ? nil : reference
    }

    private mutating func store(_ node: SchemaNode, at pointer: String) -> Int {
        set.nodes.append(node)
        set.indices[pointer] = set.nodes.count - 1
        return set.nodes.count - 1
    }

    /// The index of the target of a `$ref` written at `pointer`, through any chain of schemas
    /// that are a `$ref` alone; when `isSchemaThere`, the schema at `pointer` is that `$ref`
    /// alone and shares the target's index, as does each schema of the chain.
    mutating func follow(_ reference: String, from pointer: String, isSchemaThere: Bool = false) throws -> Int {
        let first = reference
        var reference = reference
        var location = pointer
        var chain: [String] = isSchemaThere ? [pointer] : []
        // The chain's schemas again, so that a cycle is seen in constant time per link.
        var inChain = Set(chain)
        while true {
            guard reference.hasPrefix("#") else {
                throw error(
                    location,
                    "the $ref \"\(reference)\" points outside the document; external references are not followed (bundle the document into one file)")
            }
            let target = JSONPointer.canonical(reference)
            let index: Int
            if let known = set.indices[target] {
                index = known
            } else {
                guard let value = JSONPointer.resolve(target, in: root) else {
                    throw error(location, "the $ref \"\(reference)\" points to nothing in the document")
                }
                if let members = value.objectValue, let next = onlyReference(members) {
                    guard target != pointer, inChain.insert(target).inserted else {
                        throw error(pointer, "the $ref \"\(first)\" is part of a cycle of references that never reaches a schema")
                    }
                    chain.append(target)
                    location = target
                    reference = next
                    continue
                }
                index = try self.reference(value, at: target)
            }
            for schema in chain { set.indices[schema] = index }
            return index
        }
    }

    static let validationKeywords: Set<String> = [
        "type", "nullable", "required", "properties", "additionalProperties", "items", "enum", "const", "oneOf", "anyOf",
        "allOf", "discriminator", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
        "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "format", "minProperties", "maxProperties",
    ]

    static let typeNames: Set<String> = ["null", "boolean", "integer", "number", "string", "array", "object"]

    private mutating func node(_ members: [String: JSONValue], at pointer: String) throws -> SchemaNode {
        let node = SchemaNode(path: pointer)
        func at(_ keyword: String) -> String { JSONPointer.appending(pointer, keyword) }
        func number(_ keyword: String) throws -> Double? {
            guard let value = members[keyword] else { return nil }
            guard let number = value.numericValue else { throw error(at(keyword), "expected a number, found \(value.brief)") }
            return number
        }
        func count(_ keyword: String) throws -> Int? {
            guard let value = members[keyword] else { return nil }
            guard let number = value.numericValue, number >= 0, number.rounded() == number, number < 1e15 else {
                throw error(at(keyword), "expected a whole number of 0 or more, found \(value.brief)")
            }
            return Int(number)
        }
        func flag(_ keyword: String) throws -> Bool? {
            guard let value = members[keyword] else { return nil }
            guard let flag = value.boolValue else { throw error(at(keyword), "expected true or false, found \(value.brief)") }
            return flag
        }
        if case .string(let reference)? = members["$ref"] {
            // 3.1: a $ref with other keywords is both.
            node.allOf.append(try follow(reference, from: pointer))
        }
        switch members["type"] {
        case nil: break
        case .string(let name)?:
            guard Self.typeNames.contains(name) else { throw error(at("type"), "\"\(name)\" is not a JSON Schema type") }
            node.types = [name]
        case .array(let names)?:
            var types: Set<String> = []
            for (position, name) in names.enumerated() {
                guard case .string(let text) = name, Self.typeNames.contains(text) else {
                    throw error(JSONPointer.appending(at("type"), String(position)), "expected a JSON Schema type name, found \(name.brief)")
                }
                types.insert(text)
            }
            node.types = types
        case let other?:
            throw error(at("type"), "expected a type name or a list of them, found \(other.brief)")
        }
        node.nullable = try flag("nullable") ?? false
        if let required = members["required"] {
            guard let names = required.arrayValue?.compactMap(\.stringValue), names.count == required.arrayValue?.count else {
                throw error(at("required"), "expected a list of property names, found \(required.brief)")
            }
            node.required = names
        }
        if let properties = members["properties"] {
            guard let object = properties.objectValue else { throw error(at("properties"), "expected an object, found \(properties.brief)") }
            for name in object.keys.sorted() {
                let schema = try reference(object[name]!, at: JSONPointer.appending(at("properties"), name))
                node.properties.append((name, schema))
                node.propertyIndex[name] = schema
            }
        }
        switch members["additionalProperties"] {
        case nil, .bool(true)?: node.additionalProperties = .allowed
        case .bool(false)?: node.additionalProperties = .forbidden
        case let schema?: node.additionalProperties = .schema(try reference(schema, at: at("additionalProperties")))
        }
        if let items = members["items"] {
            if case .array = items {
                throw error(at("items"), "a list of schemas under \"items\" (tuple validation) is not supported")
            }
            node.items = try reference(items, at: at("items"))
        }
        if let values = members["enum"] {
            guard let list = values.arrayValue else { throw error(at("enum"), "expected a list of values, found \(values.brief)") }
            node.enumValues = list
        }
        node.constValue = members["const"]
        for keyword in ["oneOf", "anyOf", "allOf"] {
            guard let value = members[keyword] else { continue }
            guard let list = value.arrayValue, !list.isEmpty else { throw error(at(keyword), "expected a non-empty list of schemas") }
            var indices: [Int] = []
            for (position, schema) in list.enumerated() {
                indices.append(try reference(schema, at: JSONPointer.appending(at(keyword), String(position))))
            }
            switch keyword {
            case "oneOf": node.oneOf = indices
            case "anyOf": node.anyOf = indices
            default: node.allOf += indices
            }
        }
        if let discriminator = members["discriminator"] {
            node.discriminator = try compileDiscriminator(discriminator, members: members, at: at("discriminator"))
        }
        node.minimum = try number("minimum")
        node.maximum = try number("maximum")
        for (keyword, bound) in [("exclusiveMinimum", node.minimum), ("exclusiveMaximum", node.maximum)] {
            guard let value = members[keyword] else { continue }
            let limit: Double?
            switch value {
            case .bool(let exclusive): limit = exclusive ? bound : nil
            default: limit = try number(keyword)
            }
            if keyword == "exclusiveMinimum" {
                node.exclusiveMinimum = limit
                if value.boolValue == true { node.minimum = nil }
            } else {
                node.exclusiveMaximum = limit
                if value.boolValue == true { node.maximum = nil }
            }
        }
        node.multipleOf = try number("multipleOf")
        if let multiple = node.multipleOf, multiple <= 0 { throw error(at("multipleOf"), "expected a number above 0") }
        node.minLength = try count("minLength")
        node.maxLength = try count("maxLength")
        node.minItems = try count("minItems")
        node.maxItems = try count("maxItems")
        node.minProperties = try count("minProperties")
        node.maxProperties = try count("maxProperties")
        node.uniqueItems = try flag("uniqueItems") ?? false
        if let pattern = members["pattern"] {
            guard let text = pattern.stringValue else { throw error(at("pattern"), "expected a regular expression, found \(pattern.brief)") }
            do {
                node.pattern = try RegexBox(text)
            } catch {
                throw self.error(at("pattern"), "\"\(text)\" is not a regular expression NSRegularExpression reads")
            }
        }
        if let format = members["format"] {
            guard let text = format.stringValue else { throw error(at("format"), "expected a format name, found \(format.brief)") }
            node.format = text
        }
        node.example = members["example"] ?? members["examples"]?.arrayValue?.first
        return node
    }

    private mutating func compileDiscriminator(
        _ value: JSONValue, members: [String: JSONValue], at pointer: String
    ) throws -> SchemaNode.Discriminator {
        guard let object = value.objectValue, let property = object["propertyName"]?.stringValue else {
            throw error(pointer, "expected {propertyName: …, mapping: {…}}, found \(value.brief)")
        }
        var mapping: [(value: String, schema: Int)] = []
        if let explicit = object["mapping"] {
            guard let entries = explicit.objectValue else {
                throw error(JSONPointer.appending(pointer, "mapping"), "expected an object of values and schema references")
            }
            for key in entries.keys.sorted() {
                guard let target = entries[key]?.stringValue else {
                    throw error(JSONPointer.appending(JSONPointer.appending(pointer, "mapping"), key), "expected a schema reference")
                }
                let reference = target.hasPrefix("#") || target.contains("/") ? target : "#/components/schemas/" + target
                mapping.append((key, try follow(reference, from: JSONPointer.appending(JSONPointer.appending(pointer, "mapping"), key))))
            }
        }
        // Implicit: each branch that is a $ref to a component schema answers to its name.
        let branches = (members["oneOf"]?.arrayValue ?? []) + (members["anyOf"]?.arrayValue ?? [])
        let prefix = "#/components/schemas/"
        for branch in branches {
            guard case .string(let reference)? = branch.objectValue?["$ref"], reference.hasPrefix(prefix) else { continue }
            let name = String(reference.dropFirst(prefix.count))
            guard !name.contains("/"), !mapping.contains(where: { $0.value == name }) else { continue }
            guard !mapping.contains(where: { $0.schema == set.indices[JSONPointer.canonical(reference)] }) else { continue }
            mapping.append((name, try follow(reference, from: pointer)))
        }
        return SchemaNode.Discriminator(propertyName: property, mapping: mapping, isExplicit: object["mapping"] != nil)
    }
}
