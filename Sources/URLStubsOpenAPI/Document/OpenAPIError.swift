import Foundation

/// A document that cannot be used: which one, where in it, and what is wrong.
///
/// ```text
/// shop.yaml: #/paths/~1pets/get/responses/200: the $ref "#/components/responses/Missing" points to nothing in the document
/// shop.yaml: line 14, column 9: expected ":" after the mapping key "type", found the end of the line
/// ```
public struct OpenAPIError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The file's path, or the source name given.
    public let source: String
    /// A JSON pointer into the document (`#/components/schemas/Pet`), or a line and column for
    /// text that does not read.
    public let location: String
    /// What is wrong, and what was expected.
    public let message: String

    /// `source: location: message`.
    public var description: String { "\(source): \(location): \(message)" }
    /// Same as ``description``.
    public var errorDescription: String? { description }
}

/// JSON pointers (RFC 6901) as URI fragments: `#/paths/~1pets~1{id}/get`.
enum JSONPointer {
    /// `~` and `/` escaped as `~0` and `~1`.
    static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `pointer` and one more token.
    static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + escape(token)
    }

    /// The value `reference` (`#/components/schemas/Pet`) points to in `root`; `nil` when it
    /// points to nothing. The fragment may be percent-encoded.
    static func resolve(_ reference: String, in root: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var fragment = String(reference.dropFirst())
        if fragment.contains("%") { fragment = fragment.removingPercentEncoding ?? fragment }
        guard !fragment.isEmpty else { return root }
        guard fragment.hasPrefix("/") else { return nil }
        var value = root
        for raw in fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch value {
            case .object(let members):
                guard let next = members[token] else { return nil }
                value = next
            case .array(let items):
                guard let position = Int(token), items.indices.contains(position) else { return nil }
                value = items[position]
            default:
                return nil
            }
        }
        return value
    }

    /// The canonical spelling of `reference` (decoded), so two spellings of one target share
    /// one compiled schema.
    static func canonical(_ reference: String) -> String {
        guard reference.contains("%") else { return reference }
        return reference.removingPercentEncoding ?? reference
    }
}

import URLStubs

extension JSONValue {
    /// A short rendering for reports: strings quoted, containers summarized when long.
    var brief: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .integer(let value): return String(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        case .string(let value):
            let cut = value.count > 60 ? String(value.prefix(57)) + "..." : value
            return "\"" + cut.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n") + "\""
        case .array(let items):
            return items.isEmpty ? "[]" : "an array of \(items.count)"
        case .object(let members):
            return members.isEmpty
                ? "{}"
                : "an object with " + members.keys.sorted().prefix(5).joined(separator: ", ")
                    + (members.count > 5 ? ", …" : "")
        }
    }

    /// The JSON type name: `null`, `boolean`, `integer`, `number`, `string`, `array`, `object`.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number(let value): return value.rounded() == value && value.isFinite ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// `false` when a number in the value is infinite or not a number, which JSON cannot write.
    var isWritableAsJSON: Bool {
        switch self {
        case .number(let value): return value.isFinite
        case .array(let items): return items.allSatisfy(\.isWritableAsJSON)
        case .object(let members): return members.values.allSatisfy(\.isWritableAsJSON)
        default: return true
        }
    }

    var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }
}
