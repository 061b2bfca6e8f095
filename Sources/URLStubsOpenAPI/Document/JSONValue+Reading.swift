import Foundation
import URLStubs

/// What the checks read of JSON values, and how reports print them.
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
