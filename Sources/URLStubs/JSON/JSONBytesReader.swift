import Foundation

/// Reads UTF-8 JSON text straight into a ``JSONValue``, in one pass over the bytes.
///
/// `JSONSerialization` on Linux builds a tree of `Any` values first, and converting that tree
/// costs far more than the parse (a 10,000-entry HAR: seconds and hundreds of megabytes). This
/// reader is strict and only takes the common case: UTF-8 without a byte order mark, nesting
/// up to 512 levels, integers that fit in `Int` and short finite fractions, valid escapes. For anything else it answers `nil`, and the
/// caller falls back to `JSONSerialization`, whose acceptance and error messages stay the rule.
enum JSONBytesReader {
    /// The value `data` holds, or `nil` when the fast path does not take it (see above).
    static func value(from data: Data) -> JSONValue? {
        data.withUnsafeBytes { bytes in
            var cursor = Cursor(bytes: bytes)
            guard let value = try? cursor.readValue(depth: 0) else { return nil }
            cursor.skipWhitespace()
            return cursor.index == bytes.count ? value : nil
        }
    }

    /// Anything the fast path does not take; never shown to a user.
    private struct Unsupported: Error {}

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
            guard depth < 512 else { throw Unsupported() }
            skipWhitespace()
            guard index < bytes.count else { throw Unsupported() }
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
            guard bytes.count - index >= count else { throw Unsupported() }
            for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { throw Unsupported() }
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
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Unsupported() }
                let key = try readString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw Unsupported() }
                index += 1
                members[key] = try readValue(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw Unsupported() }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    throw Unsupported()
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
                guard index < bytes.count else { throw Unsupported() }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                } else {
                    throw Unsupported()
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
                guard byte >= 0x20 else { throw Unsupported() }
                index += 1
            }
            throw Unsupported()
        }

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
                    guard index < bytes.count else { throw Unsupported() }
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
                    default: throw Unsupported()
                    }
                default:
                    guard byte >= 0x20 else { throw Unsupported() }
                    scratch.append(byte)
                }
            }
            throw Unsupported()
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
            guard bytes.count - index >= 4 else { throw Unsupported() }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw Unsupported()
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
            guard index < bytes.count else { throw Unsupported() }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard skipDigits() > 0 else { throw Unsupported() }
            }
            var isWhole = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                isWhole = false
                guard skipDigits() > 0 else { throw Unsupported() }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                isWhole = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() > 0 else { throw Unsupported() }
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
