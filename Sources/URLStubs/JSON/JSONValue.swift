import Foundation

/// A JSON document as a `Sendable`, `Equatable` value.
///
/// Matchers, reports and patches compare JSON structurally; `[String: Any]` can be neither
/// shared across threads nor compared, so every JSON input is turned into this first.
/// Numbers compare by value (`1` equals `1.0`), and `true` never equals `1`.
public enum JSONValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text (any top-level value).
    public init(data: Data) throws {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        try self.init(any: object)
    }

    /// Converts what `JSONSerialization` produces, or a literal such as `["id": 1]`.
    public init(any value: Any) throws {
        switch value {
        case is NSNull:
            self = .null
        case let value as JSONValue:
            self = value
        case let string as String:
            self = .string(string)
        case let bool as Bool where type(of: value) == Bool.self:
            self = .bool(bool)
        case let number as NSNumber:
            self = Self.isBoolean(number) ? .bool(number.boolValue) : .number(number.doubleValue)
        case let array as [Any]:
            self = .array(try array.map(JSONValue.init(any:)))
        case let dictionary as [String: Any]:
            self = .object(try dictionary.mapValues(JSONValue.init(any:)))
        case Optional<Any>.none:
            self = .null
        default:
            throw JSONValueError.unsupported(String(describing: type(of: value)))
        }
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(ObjectiveC)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return String(cString: number.objCType) == "c"
        #endif
    }

    /// The value as `JSONSerialization` objects, for APIs that want `Any`.
    public var anyValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { return Int(value) }
            return value
        case .string(let value): return value
        case .array(let values): return values.map(\.anyValue)
        case .object(let values): return values.mapValues(\.anyValue)
        }
    }

    /// Compact JSON text with sorted keys, stable across runs.
    public func serialized(pretty: Bool = false) -> Data {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        return (try? JSONSerialization.data(withJSONObject: anyValue, options: options)) ?? Data("null".utf8)
    }

    /// Compact JSON with sorted keys.
    public var description: String { String(decoding: serialized(), as: UTF8.self) }

    /// The differences between `self` (what was expected) and `actual`, one line each,
    /// as JSON paths: `$.user.name: expected "abc", got "abd"`.
    public func differences(from actual: JSONValue, path: String = "$") -> [String] {
        switch (self, actual) {
        case let (.object(expected), .object(got)):
            var lines: [String] = []
            for key in expected.keys.sorted() {
                let childPath = "\(path).\(key)"
                if let value = got[key] {
                    lines += expected[key]!.differences(from: value, path: childPath)
                } else {
                    lines.append("\(childPath): missing, expected \(expected[key]!)")
                }
            }
            for key in got.keys.sorted() where expected[key] == nil {
                lines.append("\(path).\(key): unexpected \(got[key]!)")
            }
            return lines
        case let (.array(expected), .array(got)):
            guard expected.count == got.count else {
                return ["\(path): expected \(expected.count) elements, got \(got.count)"]
            }
            return zip(expected, got).enumerated().flatMap { index, pair in
                pair.0.differences(from: pair.1, path: "\(path)[\(index)]")
            }
        default:
            return self == actual ? [] : ["\(path): expected \(self), got \(actual)"]
        }
    }
}

/// A value that cannot be represented as JSON.
public enum JSONValueError: Error, Sendable, CustomStringConvertible {
    case unsupported(String)

    /// Which type could not be represented.
    public var description: String {
        switch self {
        case .unsupported(let type): return "a value of type \(type) cannot be represented as JSON"
        }
    }
}
