import Foundation

/// Checks that bytes are exactly one JSON value (RFC 8259) and copies them without the
/// whitespace between tokens, in one pass and without building the value: how a mapping's
/// `jsonBody` is read when only its text is needed.
///
/// It answers only yes or no: on no, the caller hands the file to the engine's reader, whose
/// error says what was wrong and where. Nesting is followed with a counter, never recursion.
struct JSONChecker {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the check stands: after ``checkValue()``, just past the value.
    private(set) var index = 0
    /// The value without whitespace between tokens, up to ``runStart``.
    private var output: [UInt8] = []
    /// Where the bytes not yet copied to ``output`` start: the value is copied in runs
    /// between whitespace, so text written compactly is copied at once.
    private var runStart = 0
    /// Whether a byte above ASCII was seen (in a string): the caller then checks the UTF-8.
    private(set) var sawNonASCII = false

    /// The engine's reader refuses deeper nesting.
    static let maximumDepth = 512

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether the bytes are one JSON value, with only whitespace around it.
    mutating func checkDocument() -> Bool {
        guard checkValue() else { return false }
        skipWhitespace()
        return index == bytes.count
    }

    /// Whether the bytes start with one JSON value (after whitespace); the index is then just
    /// past it.
    mutating func checkValue() -> Bool {
        // Each open container: `true` for an object, whose next token is a member name.
        var open: [Bool] = []
        skipWhitespace()
        while true {
            // A value starts here.
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[index] == UInt8(ascii: "{")
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                index += 1
                skipWhitespace()
                guard open.count < Self.maximumDepth, index < bytes.count else { return false }
                if bytes[index] == close {
                    index += 1
                } else {
                    open.append(isObject)
                    if isObject, !memberName() { return false }
                    continue
                }
            case UInt8(ascii: "\""):
                guard string() else { return false }
            case UInt8(ascii: "t"): guard literal("true") else { return false }
            case UInt8(ascii: "f"): guard literal("false") else { return false }
            case UInt8(ascii: "n"): guard literal("null") else { return false }
            default: guard number() else { return false }
            }
            // After a value: a comma and the next, or the end of containers.
            while true {
                guard let isObject = open.last else { return true }
                skipWhitespace()
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    if isObject, !memberName() { return false }
                    break
                }
                guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                index += 1
                open.removeLast()
            }
        }
    }

    /// A member's name and its colon, leaving the index at its value.
    private mutating func memberName() -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() else { return false }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
        index += 1
        skipWhitespace()
        return true
    }

    private mutating func string() -> Bool {
        index += 1
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs = ones &* 0x80
        while true {
            // Eight bytes at a time (loaded little-endian, as on every platform URLStubs runs
            // on): each test flags its bytes' high bits, the lowest flag exactly (a borrow only
            // carries upward), so the first quote, backslash, control character or byte above
            // ASCII is found without a loop over the bytes before it.
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let flags = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- (ones &* 0x20)) & ~word | word) & highs
                if flags != 0 {
                    index += flags.trailingZeroBitCount / 8
                    break
                }
                index += 8
            }
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return true
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return false }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                    UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard index + 5 < bytes.count, (2...5).allSatisfy({ Self.isHexDigit(bytes[index + $0]) }) else { return false }
                    // A surrogate must be half of a pair: left to the engine's reader to judge.
                    let first = bytes[index + 2] | 0x20
                    let second = bytes[index + 3] | 0x20
                    if first == UInt8(ascii: "d"),
                        (UInt8(ascii: "8")...UInt8(ascii: "9")).contains(second) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(second)
                    {
                        return false
                    }
                    index += 6
                default: return false
                }
            case 0..<0x20: return false
            default:
                // Above ASCII, or a plain byte of the last seven.
                if byte >= 0x80 { sawNonASCII = true }
                index += 1
            }
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() -> Bool {
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { return false }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { return false }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { return false }
            skipDigits()
        }
        return true
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    /// Moves past whitespace, which ends the run being copied.
    private mutating func skipWhitespace() {
        guard index < bytes.count, RawJSONText.Scanner.isWhitespace(bytes[index]) else { return }
        if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
        while index < bytes.count, RawJSONText.Scanner.isWhitespace(bytes[index]) { index += 1 }
        runStart = index
    }

    /// The compact text, once the check passed; `nil` for text that is not UTF-8.
    var text: String? {
        var whole = output
        if runStart < index { whole.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
        return sawNonASCII ? String(data: Data(whole), encoding: .utf8) : String(decoding: whole, as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
