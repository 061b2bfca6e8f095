import Foundation

/// What a request's body must be. One of the parts of a ``RequestPattern``; a pattern lists
/// any number of them and every one must hold.
///
/// ```swift
/// let order: BodyPattern = .json(["sku": "A-1", "quantity": 2], ignoreExtraElements: true)
/// let traced: BodyPattern = .jsonPath("$.trace.id", .matches("^[0-9a-f]{32}$"))
/// ```
///
/// In JSON each case is an object named after it: `{"equalTo": "text"}`,
/// `{"binaryEqualTo": "<base64>"}`, `{"contains": "x"}`, `{"matches": "re"}`,
/// `{"equalToJson": {...}, "ignoreArrayOrder": true, "ignoreExtraElements": true}`,
/// `{"matchesJsonPath": "$.a"}` or `{"matchesJsonPath": {"expression": "$.a", "equalTo": "x"}}`,
/// and a kind a library registers: `{"kind": "graphQLOperation", "value": "GetUser"}`.
public enum BodyPattern: Sendable, Hashable {
    /// The body is this text, byte for byte in UTF-8.
    case equalTo(String)
    /// The body is these bytes.
    case binaryEqualTo(Data)
    /// The body, read as UTF-8, contains the text.
    case contains(String)
    /// The body, read as UTF-8, has a match of the regular expression.
    case matches(String)
    /// The body is JSON equal to the value. `ignoreArrayOrder`: elements in any order;
    /// `ignoreExtraElements`: members the value does not name may be present (a subset).
    case json(JSONValue, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false)
    /// The body is JSON where the path selects something; with a pattern, some selected
    /// value (a string as is, anything else as compact JSON) holds it.
    case jsonPath(String, TextPattern? = nil)
    /// A kind of body a library registers (``RequestPatternKind``), such as a GraphQL
    /// operation or a multipart part, with its value.
    case kind(String, JSONValue)

    /// The pattern in the words of a report.
    public var words: String {
        switch self {
        case .equalTo(let text): return "body is \"\(ReportText.bounded(text, limit: 200))\""
        case .binaryEqualTo(let bytes): return "body is \(bytes.count) given bytes"
        case .contains(let text): return "body contains \"\(text)\""
        case .matches(let expression): return "body matches /\(expression)/"
        case .json(let value, let unordered, let extra):
            let options = [unordered ? "arrays in any order" : nil, extra ? "other members allowed" : nil].compactMap { $0 }
            return "JSON body \(value)" + (options.isEmpty ? "" : " (\(options.joined(separator: ", ")))")
        case .jsonPath(let path, let pattern): return "JSON body where \(path) " + (pattern?.words ?? "is present")
        case .kind(let name, let value): return "\(name) \(value)"
        }
    }
}
