import Foundation

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
