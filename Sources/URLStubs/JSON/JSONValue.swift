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

    /// Parses JSON text (any top-level value): UTF-8, or UTF-16 or UTF-32 as `JSONSerialization`
    /// reads them; arrays and objects nested at most 512 levels. Text that is not JSON throws
    /// an error saying what was expected at which line, column and byte.
    ///
    /// The reader never recurses, so any text is safe to read on a thread with a small stack.
    public init(data: Data) throws {
        self = try JSONBytesReader.read(data, rules: .body)
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
            throw StubError.notJSON(type: String(describing: type(of: value)))
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
    package var numericValue: Double? {
        switch self {
        case .number(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
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

    /// Compact JSON with sorted keys. A value nested deeper than 64 levels is shown to 32 levels,
    /// each deeper array or object as `"…"`: messages stay short, and writing one never
    /// recurses deeper than that (a thread with a 512 KB stack reads 512 levels).
    public var description: String {
        let shown = nestingDepth(upTo: Self.describedDepth) > Self.describedDepth ? elided(below: Self.describedDepth / 2) : self
        return String(decoding: shown.serialized(), as: UTF8.self)
    }

    private static let describedDepth = 64

    /// How deep arrays and objects nest in the value (a scalar: 0), counted without recursion
    /// and no further than `limit + 1`.
    func nestingDepth(upTo limit: Int) -> Int {
        var deepest = 0
        var pending: [(value: JSONValue, depth: Int)] = [(self, 0)]
        while let (value, depth) = pending.popLast() {
            let children: [JSONValue]
            switch value {
            case .array(let items): children = items
            case .object(let members): children = Array(members.values)
            default: continue
            }
            deepest = max(deepest, depth + 1)
            if deepest > limit { return deepest }
            for child in children {
                switch child {
                case .array, .object: pending.append((child, depth + 1))
                default: break
                }
            }
        }
        return deepest
    }

    /// The value with every array and object below `levels` levels written `"…"`.
    private func elided(below levels: Int) -> JSONValue {
        switch self {
        case .array(let items): return levels == 0 ? .string("…") : .array(items.map { $0.elided(below: levels - 1) })
        case .object(let members): return levels == 0 ? .string("…") : .object(members.mapValues { $0.elided(below: levels - 1) })
        default: return self
        }
    }

    /// The differences between `self` (what was expected) and `actual`, one line each,
    /// as JSON paths: `$.user.name: expected "abc", got "abd"`. The JSON matchers' reasons.
    package func differenceLines(from actual: JSONValue, path: String = "$") -> [String] {
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
