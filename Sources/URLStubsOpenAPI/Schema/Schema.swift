import Foundation
import URLStubs

/// One compiled JSON Schema object of a document. Schemas refer to each other by index into
/// ``SchemaSet/nodes``, so a recursive schema is a cycle of indices, resolved once.
///
/// A class, so that reading a node copies a reference: in a debug build each copy of a struct
/// this size takes its own stack space, and the generator's recursion must fit a 512 KB thread
/// stack.
final class SchemaNode: @unchecked Sendable {
    // @unchecked: the compiler fills a node in before the document is made; it is only read
    // after that.
    /// Where the schema is in the document (`#/components/schemas/Pet`): each violation's
    /// schema path starts here.
    var path: String
    /// `true` for the boolean schema `false` (nothing is valid).
    var rejectsEverything = false
    /// The allowed JSON types (`"integer"` also admits whole `number`s); `nil`: any.
    var types: Set<String>?
    /// 3.0's `nullable: true`.
    var nullable = false
    var required: [String] = []
    /// Sorted by name, so violations come in a stable order.
    var properties: [(name: String, schema: Int)] = []
    var propertyIndex: [String: Int] = [:]
    var additionalProperties: AdditionalProperties = .allowed
    var items: Int?
    var enumValues: [JSONValue]?
    var constValue: JSONValue?
    var oneOf: [Int] = []
    var anyOf: [Int] = []
    var allOf: [Int] = []
    var discriminator: Discriminator?
    var minimum: Double?
    var maximum: Double?
    /// 3.1's numeric `exclusiveMinimum`, or 3.0's `minimum` with `exclusiveMinimum: true`.
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    var multipleOf: Double?
    var minLength: Int?
    var maxLength: Int?
    var pattern: RegexBox?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false
    var format: String?
    var minProperties: Int?
    var maxProperties: Int?
    /// Values the document gives as examples (`example`, `examples`), for generated responses.
    var example: JSONValue?

    enum AdditionalProperties: Sendable {
        case allowed
        case forbidden
        case schema(Int)
    }

    struct Discriminator: Sendable {
        var propertyName: String
        /// Each value of the property and the schema it selects (explicit `mapping`, then the
        /// names of the `oneOf` / `anyOf` schemas under `#/components/schemas/`).
        var mapping: [(value: String, schema: Int)]
        /// `true` when the document writes a `mapping`. Without one, a value plain `oneOf` /
        /// `anyOf` accepts is valid (as common validators read it), and a schema's name only
        /// selects that schema for a sharper report.
        var isExplicit: Bool
    }

    init(path: String) { self.path = path }

    func propertySchema(_ name: String) -> Int? { propertyIndex[name] }
}

/// Every schema a document uses, compiled once.
struct SchemaSet: Sendable {
    var nodes: [SchemaNode] = []
    /// The index of the schema at each place (a canonical JSON pointer) compiled, a schema that
    /// is a `$ref` alone included: it has the index of the schema it leads to.
    var indices: [String: Int] = [:]
}
