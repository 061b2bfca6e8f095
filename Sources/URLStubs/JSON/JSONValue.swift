import Foundation

/// A JSON document as a `Sendable`, `Equatable` value.
///
/// Matchers, reports and patches compare JSON structurally; `[String: Any]` can be neither
/// shared across threads nor compared, so every JSON input is turned into this first.
/// Numbers compare by value (`1` equals `1.0`), and `true` never equals `1`. A whole number
/// that fits in `Int` stays an ``integer(_:)``, so identifiers above 2^53 (which a `Double`
/// rounds) pass through matchers, patches and recordings unchanged.
public enum JSONValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    /// A number with a fraction or an exponent, or one too large for `Int`.
    case number(Double)
    /// A whole number, kept exact.
    case integer(Int)
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
        case let integer as Int where type(of: value) == Int.self:
            self = .integer(integer)
        case let double as Double where type(of: value) == Double.self:
            self = .number(double)
        case let number as NSNumber:
            if Self.isBoolean(number) {
                self = .bool(number.boolValue)
            } else if let exact = Self.exactInteger(number) {
                self = .integer(exact)
            } else {
                self = .number(number.doubleValue)
            }
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

    /// The value of a number of an integer type that fits in `Int` (`JSONSerialization` makes
    /// those for numbers written without a fraction or an exponent), else `nil`.
    private static func exactInteger(_ number: NSNumber) -> Int? {
        switch String(cString: number.objCType) {
        case "c", "s", "i", "l", "q":
            return Int(exactly: number.int64Value)
        case "C", "S", "I", "L", "Q":
            let value = number.uint64Value
            return value <= UInt64(Int.max) ? Int(value) : nil
        default:
            return nil
        }
    }

    /// The numeric value of a ``number(_:)`` or an ``integer(_:)``, else `nil`: what a schema
    /// check compares with its bounds.
    @_spi(AddOns) public var numericValue: Double? {
        switch self {
        case .number(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// Numbers by value across the two number cases (`1 == 1.0`; a large integer equals
    /// only the `Double` that is exactly it); everything else structurally.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.integer(a), .number(b)), let (.number(b), .integer(a)): return Int(exactly: b) == a
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
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
    var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { return Int(value) }
            return value
        case .integer(let value): return value
        case .string(let value): return value
        case .array(let values): return values.map(\.foundationObject)
        case .object(let values): return values.mapValues(\.foundationObject)
        }
    }

    /// Compact JSON text with sorted keys, stable across runs.
    public func serialized(pretty: Bool = false) -> Data {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        let data = (try? JSONSerialization.data(withJSONObject: foundationObject, options: options)) ?? Data("null".utf8)
        return pretty ? Self.collapsingEmptyContainers(data) : data
    }

    /// `JSONSerialization` pretty-prints an empty object or array as `{`, a blank line and `}`;
    /// this writes `{}` and `[]`. Only whitespace made of newlines and spaces between the
    /// brackets is removed, and a string never holds a raw newline (JSON escapes it), so no
    /// string is changed.
    private static func collapsingEmptyContainers(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            output.append(byte)
            index += 1
            guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else { continue }
            let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            var end = index
            var sawNewline = false
            while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\n") {
                if bytes[end] == UInt8(ascii: "\n") { sawNewline = true }
                end += 1
            }
            if sawNewline, end < bytes.count, bytes[end] == closing {
                output.append(closing)
                index = end + 1
            }
        }
        return Data(output)
    }

    /// Compact JSON with sorted keys.
    public var description: String { String(decoding: serialized(), as: UTF8.self) }

    /// The differences between `self` (what was expected) and `actual`, one line each,
    /// as JSON paths: `$.user.name: expected "abc", got "abd"`. The JSON matchers' reasons.
    func differenceLines(from actual: JSONValue, path: String = "$") -> [String] {
        switch (self, actual) {
        case let (.object(expected), .object(got)):
            var lines: [String] = []
            for key in expected.keys.sorted() {
                let childPath = "\(path).\(key)"
                if let value = got[key] {
                    lines += expected[key]!.differenceLines(from: value, path: childPath)
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
                pair.0.differenceLines(from: pair.1, path: "\(path)[\(index)]")
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

extension JSONValue: Hashable {
    /// Consistent with ``==(_:_:)``: a whole number hashes alike as ``integer(_:)`` or
    /// ``number(_:)``, and members hash without regard to order. The registry's index files
    /// stubs by the JSON body they require, so equal documents must land in one bucket.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let flag):
            hasher.combine(1)
            hasher.combine(flag)
        case .integer(let number):
            hasher.combine(2)
            hasher.combine(number)
        case .number(let number):
            if let whole = Int(exactly: number) {
                hasher.combine(2)
                hasher.combine(whole)
            } else {
                hasher.combine(3)
                hasher.combine(number)
            }
        case .string(let text):
            hasher.combine(4)
            hasher.combine(text)
        case .array(let elements):
            hasher.combine(5)
            hasher.combine(elements.count)
            for element in elements { hasher.combine(element) }
        case .object(let members):
            hasher.combine(6)
            hasher.combine(members.count)
            // Order-independent: the sum of each member's own hash.
            var sum = 0
            for (key, value) in members {
                var member = Hasher()
                member.combine(key)
                member.combine(value)
                sum &+= member.finalize()
            }
            hasher.combine(sum)
        }
    }
}
