import Foundation

// JSON written as Swift literals, so declarations read like their JSON form:
// `.json(["id": 1, "tags": ["a"], "admin": false, "manager": .null])`. Not `nil`: a literal
// `nil` would then mean JSON null wherever a `JSONValue?` is assigned (`members[key] = nil`
// would store null instead of removing the member).

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A whole number.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A number with a fraction.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// A later value for a repeated key wins, as in JSON text.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}
