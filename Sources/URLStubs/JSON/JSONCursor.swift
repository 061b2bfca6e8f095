import Foundation

/// ``JSONBytesReader``'s engine: the position in the text and the arrays and objects open at it,
/// held in arrays of their own rather than in the call stack, so that nesting never recurses.
///
/// `complete` decides what the fast subset leaves to `JSONSerialization` (``Unsupported``):
/// integers beyond `Int` and long fractions become the nearest `Double`, invalid UTF-8 and half
/// a surrogate pair are ``Invalid``, and a byte order mark is skipped.
struct JSONCursor {
    /// Text that is not JSON (or is nested too deep): the reason and the byte where it was found.
    struct Invalid: Error {
        let reason: String
        let offset: Int
    }

    /// What the fast subset leaves to `JSONSerialization`; never shown to a user.
    struct Unsupported: Error {}

    let bytes: UnsafeRawBufferPointer
    let complete: Bool
    let refusesDuplicates: Bool
    /// Objects found under a member of this name keep the order of their members in
    /// ``memberOrders`` (`nil`: none is kept, the common case).
    var memberOrderName: String?
    /// The order of the members of each object found under ``memberOrderName``, keyed by the
    /// object itself.
    private(set) var memberOrders: [JSONValue: [String]] = [:]
    var index = 0
    /// Reused for strings with escapes.
    private var scratch: [UInt8] = []

    init(bytes: UnsafeRawBufferPointer, complete: Bool, refusesDuplicates: Bool) {
        self.bytes = bytes
        self.complete = complete
        self.refusesDuplicates = refusesDuplicates
    }

    /// The one value of the text, with nothing but whitespace after it.
    mutating func readDocument() throws -> JSONValue {
        if complete, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        let value = try readValue()
        skipWhitespace()
        guard index == bytes.count else { throw Invalid(reason: "unexpected text after the JSON value", offset: index) }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    // MARK: Containers

    /// Reads one value. `kinds` says what is open, innermost last (`true`: an array); the
    /// elements and members gathered so far sit in `arrays` and `objects`, and `keys` holds the
    /// name (and its offset) each open object's next member goes under.
    private mutating func readValue() throws -> JSONValue {
        var kinds: [Bool] = []
        var arrays: [[JSONValue]] = []
        var objects: [[String: JSONValue]] = []
        var keys: [(name: String, offset: Int)] = []
        /// Per open object, when ``memberOrderName`` is set: its member names so far, or `nil`.
        var orders: [[String]?] = []
        readingValues: while true {
            skipWhitespace()
            guard let byte = next else { throw Invalid(reason: "the text ends where a value was expected", offset: index) }
            var value: JSONValue
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                guard kinds.count < JSONSyntaxError.maximumDepth else {
                    throw Invalid(reason: JSONSyntaxError.tooDeepReason, offset: index)
                }
                index += 1
                skipWhitespace()
                if byte == UInt8(ascii: "[") {
                    guard next == UInt8(ascii: "]") else {
                        kinds.append(true)
                        arrays.append([])
                        continue readingValues
                    }
                    index += 1
                    value = .array([])
                } else {
                    guard next == UInt8(ascii: "}") else {
                        if let memberOrderName {
                            let isUnderName = kinds.last == false && keys.last?.name == memberOrderName
                            orders.append(isUnderName ? [] : nil)
                        }
                        kinds.append(false)
                        objects.append([:])
                        keys.append(try readMemberName())
                        continue readingValues
                    }
                    index += 1
                    value = .object([:])
                }
            } else {
                value = try readScalar(byte)
            }
            // `value` is whole: it joins the innermost open container, which may close in turn.
            while let isArray = kinds.last {
                skipWhitespace()
                let separator = next
                if isArray {
                    arrays[arrays.count - 1].append(value)
                    if separator == UInt8(ascii: ",") {
                        index += 1
                        continue readingValues
                    }
                    guard separator == UInt8(ascii: "]") else {
                        throw Invalid(reason: "expected ',' or ']' after an array element", offset: index)
                    }
                    value = .array(arrays.removeLast())
                } else {
                    let key = keys[keys.count - 1]
                    if refusesDuplicates, objects[objects.count - 1][key.name] != nil {
                        throw Invalid(reason: Self.duplicateReason(key.name), offset: key.offset)
                    }
                    objects[objects.count - 1][key.name] = value
                    if memberOrderName != nil, orders[orders.count - 1] != nil { orders[orders.count - 1]?.append(key.name) }
                    if separator == UInt8(ascii: ",") {
                        index += 1
                        keys[keys.count - 1] = try readMemberName()
                        continue readingValues
                    }
                    guard separator == UInt8(ascii: "}") else {
                        throw Invalid(reason: "expected ',' or '}' after an object member", offset: index)
                    }
                    keys.removeLast()
                    value = .object(objects.removeLast())
                    if memberOrderName != nil, let order = orders.removeLast() { memberOrders[value] = order }
                }
                index += 1
                kinds.removeLast()
            }
            return value
        }
    }

    /// A member's name and the `:` after it; returns the name and where it starts.
    private mutating func readMemberName() throws -> (name: String, offset: Int) {
        skipWhitespace()
        guard next == UInt8(ascii: "\"") else { throw Invalid(reason: "expected a member name in double quotes", offset: index) }
        let offset = index
        let name = try readString()
        skipWhitespace()
        guard next == UInt8(ascii: ":") else { throw Invalid(reason: "expected ':' after the member name", offset: index) }
        index += 1
        return (name, offset)
    }

    private static func duplicateReason(_ name: String) -> String {
        let shown = name.count > 60 ? String(name.prefix(57)) + "..." : name
        return "the member \"\(shown)\" appears twice in one object"
    }

    // MARK: Scalars

    private mutating func readScalar(_ byte: UInt8) throws -> JSONValue {
        switch byte {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        default: return try readNumber()
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        let expected = "expected \(literal)"
        guard bytes.count - index >= count else { throw Invalid(reason: expected, offset: index) }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { throw Invalid(reason: expected, offset: index) }
        index += count
    }

    /// A string starting at the opening quote. Text without escapes is decoded straight from
    /// the input; text with bytes beyond ASCII is checked to be UTF-8 first.
    private mutating func readString() throws -> String {
        index += 1
        let start = index
        var beyondASCII = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if beyondASCII { try checkUTF8(start..<index) }
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            guard byte >= 0x20 else { throw Invalid(reason: Self.controlCharacterReason, offset: index) }
            if byte >= 0x80 { beyondASCII = true }
            index += 1
        }
        throw Invalid(reason: Self.unterminatedReason, offset: start - 1)
    }

    private static let controlCharacterReason = "a control character in a string (write it as an escape such as \\n)"
    private static let unterminatedReason = "a string that is never closed by a double quote"

    private mutating func readEscapedString(from start: Int) throws -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[start..<index])
        var beyondASCII = scratch.contains { $0 >= 0x80 }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                // Escapes write valid UTF-8; the bytes taken as they are must be too.
                if beyondASCII { try checkUTF8(start..<(index - 1)) }
                return String(decoding: scratch, as: UTF8.self)
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
                if byte >= 0x80 { beyondASCII = true }
                scratch.append(byte)
            }
        }
        throw Invalid(reason: Self.unterminatedReason, offset: start - 1)
    }

    /// Invalid UTF-8 would be repaired into U+FFFD when decoded: refused, or left to
    /// `JSONSerialization` by the fast subset.
    private func checkUTF8(_ range: Range<Int>) throws {
        guard let bad = UTF8Validation.firstInvalidByte(in: UnsafeRawBufferPointer(rebasing: bytes[range])) else { return }
        guard complete else { throw Unsupported() }
        let offset = range.lowerBound + bad
        throw Invalid(reason: UTF8Validation.reason(byte: bytes[offset]), offset: offset)
    }

    /// `\uXXXX`, a surrogate pair written as two of them included. Half a pair is not text:
    /// refused (`JSONSerialization`'s call in the fast subset).
    private mutating func appendUnicodeEscape() throws {
        let escapeOffset = index - 2
        var code = try readHex4()
        if (0xD800...0xDBFF).contains(code) {
            if bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw halfSurrogate(code, at: escapeOffset) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
                throw halfSurrogate(code, at: escapeOffset)
            }
        } else if (0xDC00...0xDFFF).contains(code) {
            throw halfSurrogate(code, at: escapeOffset)
        }
        guard let scalar = Unicode.Scalar(code) else { throw halfSurrogate(code, at: escapeOffset) }
        scratch.append(contentsOf: UTF8.encode(scalar)!)
    }

    private func halfSurrogate(_ code: UInt32, at offset: Int) -> Error {
        guard complete else { return Unsupported() }
        let hex = String(code, radix: 16, uppercase: true)
        return Invalid(
            reason: "\"\\u\(hex)\" is half of a UTF-16 surrogate pair, without its other half (invalid UTF-16)", offset: offset)
    }

    private mutating func readHex4() throws -> UInt32 {
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

    /// A JSON number: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`. Without a
    /// fraction or an exponent it stays an exact integer when it fits in `Int`.
    private mutating func readNumber() throws -> JSONValue {
        let start = index
        if next == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw Invalid(reason: "expected a digit", offset: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard skipDigits() > 0 else {
                // A byte order mark or other text in another encoding: JSONSerialization's call.
                if !complete, index == 0, bytes[index] >= 0x80 || bytes[index] == 0 { throw Unsupported() }
                throw Invalid(reason: index == start ? "expected a value" : "expected a digit", offset: index)
            }
        }
        var isWhole = true
        if next == UInt8(ascii: ".") {
            index += 1
            isWhole = false
            guard skipDigits() > 0 else { throw Invalid(reason: "expected a digit after the decimal point", offset: index) }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            index += 1
            isWhole = false
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw Invalid(reason: "expected a digit in the exponent", offset: index) }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isWhole, let integer = Int(text) { return .integer(integer) }
        // The fast subset leaves integers beyond `Int` and very long numbers to
        // JSONSerialization, which reads some long fractions (`0.8919999999998254`) through
        // NSDecimalNumber, an ulp or two off: here every number is the nearest Double.
        guard complete || (!isWhole && index - start <= 32) else { throw Unsupported() }
        guard let number = Double(text), number.isFinite else {
            guard complete else { throw Unsupported() }
            throw Invalid(reason: "a number too large for a Double", offset: start)
        }
        return .number(number)
    }

    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }
}
