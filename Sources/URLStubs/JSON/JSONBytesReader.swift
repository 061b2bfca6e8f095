import Foundation

/// Reads UTF-8 JSON text straight into a ``JSONValue``, in one pass over the bytes.
///
/// `JSONSerialization` on Linux builds a tree of `Any` values first, and converting that tree
/// costs far more than the parse (a 10,000-entry HAR: seconds and hundreds of megabytes). This
/// reader is strict and only takes the common case: UTF-8 without a byte order mark, nesting
/// of up to 512 arrays and objects, integers that fit in `Int` and short finite fractions, valid escapes. For anything else it answers `nil`, and the
/// caller falls back to `JSONSerialization`, whose acceptance stays the rule.
///
/// When `JSONSerialization` rejects the text too, ``problem(in:)`` names the cause this reader
/// found and where (`JSONSyntaxError`): its messages say what was expected at which line,
/// column and byte, and say "nested deeper than 512 levels" for a document that is only too
/// deep, where `JSONSerialization`'s own messages say neither.
enum JSONBytesReader {
    /// The value `data` holds, or `nil` when the fast path does not take it (see above).
    static func value(from data: Data) -> JSONValue? {
        if case .value(let value) = read(data) { return value }
        return nil
    }

    /// Why `data` is not JSON this reader takes, with the byte offset; `nil` when it takes it
    /// or leaves it to `JSONSerialization` without a verdict (text that is not UTF-8, numbers
    /// beyond `Int` or with long fractions).
    static func problem(in data: Data) -> JSONSyntaxError? {
        if case .problem(let problem) = read(data) { return problem }
        return nil
    }

    private enum Outcome {
        case value(JSONValue)
        case problem(JSONSyntaxError)
        case unsupported
    }

    private static func read(_ data: Data) -> Outcome {
        data.withUnsafeBytes { bytes -> Outcome in
            var cursor = Cursor(bytes: bytes)
            do {
                let value = try cursor.readValue(depth: 0)
                cursor.skipWhitespace()
                guard cursor.index == bytes.count else {
                    throw Invalid(reason: "unexpected text after the JSON value", offset: cursor.index)
                }
                return .value(value)
            } catch let invalid as Invalid {
                return .problem(JSONSyntaxError(reason: invalid.reason, offset: invalid.offset, in: bytes))
            } catch {
                return .unsupported
            }
        }
    }

    /// Anything the fast path does not take without being sure the text is invalid (text that
    /// is not UTF-8, a number beyond `Int`); never shown to a user.
    private struct Unsupported: Error {}

    /// Text that is not JSON (or is nested too deep): the reason and the byte where it was found.
    private struct Invalid: Error {
        let reason: String
        let offset: Int
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        /// Reused for strings with escapes.
        var scratch: [UInt8] = []

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func readValue(depth: Int) throws -> JSONValue {
            skipWhitespace()
            guard index < bytes.count else { throw Invalid(reason: "the text ends where a value was expected", offset: index) }
            // `depth` arrays and objects enclose this value: it may open one more up to the limit.
            if bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "["), depth >= JSONSyntaxError.maximumDepth {
                throw Invalid(reason: JSONSyntaxError.tooDeepReason, offset: index)
            }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try readObject(depth: depth)
            case UInt8(ascii: "["): return try readArray(depth: depth)
            case UInt8(ascii: "\""): return .string(try readString())
            case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try readLiteral("null"); return .null
            default: return try readNumber()
            }
        }

        mutating func readLiteral(_ literal: StaticString) throws {
            let count = literal.utf8CodeUnitCount
            let expected = "expected \(literal)"
            guard bytes.count - index >= count else { throw Invalid(reason: expected, offset: index) }
            for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { throw Invalid(reason: expected, offset: index) }
            index += count
        }

        mutating func readObject(depth: Int) throws -> JSONValue {
            index += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw Invalid(reason: "expected a member name in double quotes", offset: index)
                }
                let key = try readString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw Invalid(reason: "expected ':' after the member name", offset: index)
                }
                index += 1
                members[key] = try readValue(depth: depth + 1)
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    throw Invalid(reason: "expected ',' or '}' after an object member", offset: index)
                }
            }
        }

        mutating func readArray(depth: Int) throws -> JSONValue {
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                elements.append(try readValue(depth: depth + 1))
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                } else {
                    throw Invalid(reason: "expected ',' or ']' after an array element", offset: index)
                }
            }
        }

        /// A string starting at the opening quote. Text without escapes is decoded straight
        /// from the input; invalid UTF-8 (decoding would repair it into U+FFFD) is not taken.
        mutating func readString() throws -> String {
            index += 1
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    try Self.checkNotRepaired(text, byteCount: index - 1 - start)
                    return text
                }
                if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
                guard byte >= 0x20 else { throw Invalid(reason: Self.controlCharacterReason, offset: index) }
                index += 1
            }
            throw Invalid(reason: Self.unterminatedReason, offset: start - 1)
        }

        static let controlCharacterReason = "a control character in a string (write it as an escape such as \\n)"
        static let unterminatedReason = "a string that is never closed by a double quote"

        mutating func readEscapedString(from start: Int) throws -> String {
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    let text = String(decoding: scratch, as: UTF8.self)
                    try Self.checkNotRepaired(text, byteCount: scratch.count)
                    return text
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw Invalid(reason: Self.unterminatedReason, offset: start - 1) }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
                    case UInt8(ascii: "b"): scratch.append(0x08)
                    case UInt8(ascii: "f"): scratch.append(0x0C)
                    case UInt8(ascii: "n"): scratch.append(0x0A)
                    case UInt8(ascii: "r"): scratch.append(0x0D)
                    case UInt8(ascii: "t"): scratch.append(0x09)
                    case UInt8(ascii: "u"): try appendUnicodeEscape()
                    default: throw Invalid(reason: "an invalid escape in a string", offset: index - 2)
                    }
                default:
                    guard byte >= 0x20 else { throw Invalid(reason: Self.controlCharacterReason, offset: index - 1) }
                    scratch.append(byte)
                }
            }
            throw Invalid(reason: Self.unterminatedReason, offset: start - 1)
        }

        /// `\uXXXX`, a surrogate pair written as two of them included; a lone surrogate is not
        /// taken.
        mutating func appendUnicodeEscape() throws {
            var code = try readHex4()
            if (0xD800...0xDBFF).contains(code) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw Unsupported()
                }
                index += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw Unsupported() }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw Unsupported()
            }
            guard let scalar = Unicode.Scalar(code) else { throw Unsupported() }
            scratch.append(contentsOf: UTF8.encode(scalar)!)
        }

        mutating func readHex4() throws -> UInt32 {
            let invalid = Invalid(reason: "expected four hexadecimal digits after \\u", offset: index)
            guard bytes.count - index >= 4 else { throw invalid }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw invalid
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        static func checkNotRepaired(_ text: String, byteCount: Int) throws {
            // Valid UTF-8 decodes to the same number of bytes with no U+FFFD added; a U+FFFD
            // written in the input is rare enough to leave to the slow path.
            guard text.utf8.count == byteCount, !text.unicodeScalars.contains("\u{FFFD}") else { throw Unsupported() }
        }

        /// A JSON number: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`. Without a
        /// fraction or an exponent it stays an exact integer when it fits in `Int`.
        mutating func readNumber() throws -> JSONValue {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { throw Invalid(reason: "expected a digit", offset: index) }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard skipDigits() > 0 else {
                    // A byte order mark or other text in another encoding: JSONSerialization's call.
                    if index == 0, bytes[index] >= 0x80 || bytes[index] == 0 { throw Unsupported() }
                    throw Invalid(reason: index == start ? "expected a value" : "expected a digit", offset: index)
                }
            }
            var isWhole = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                isWhole = false
                guard skipDigits() > 0 else { throw Invalid(reason: "expected a digit after the decimal point", offset: index) }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                isWhole = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() > 0 else { throw Invalid(reason: "expected a digit in the exponent", offset: index) }
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isWhole {
                // An integer beyond `Int` is left to JSONSerialization, which does not read it
                // as the nearest Double (found by fuzzing the two readers against each other).
                guard let integer = Int(text) else { throw Unsupported() }
                return .integer(integer)
            }
            // A fraction is read as the nearest Double. JSONSerialization reads some long ones
            // (`0.8919999999998254`) through NSDecimalNumber, whose `doubleValue` can be an ulp
            // or two off: the only place the two readers differ, and this one is the exact one.
            // Very long numbers are left to it all the same.
            guard index - start <= 32, let number = Double(text), number.isFinite else { throw Unsupported() }
            return .number(number)
        }

        mutating func skipDigits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
    }
}
