// A module that declares its own public `HTTPHeaders`, as Alamofire and NIOHTTP1 do: the test
// files that import it beside URLStubsTesting (with and without URLStubsMigration) must still
// be able to write `HTTPHeaders` and mean this type. Not a product.

/// Header fields under the name Alamofire and NIOHTTP1 give theirs.
public struct HTTPHeaders: ExpressibleByDictionaryLiteral, Sendable, Equatable {
    /// The fields, in the order written.
    public var fields: [(name: String, value: String)]

    /// The fields in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The fields of a dictionary, ordered by name.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// Each field as a dictionary entry, the last of a repeated name winning.
    public var dictionary: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Whether both hold the same fields in the same order.
    public static func == (left: HTTPHeaders, right: HTTPHeaders) -> Bool {
        left.fields.map(\.name) == right.fields.map(\.name) && left.fields.map(\.value) == right.fields.map(\.value)
    }
}
