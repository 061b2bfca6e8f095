import Foundation
import URLStubs

/// Scalars on a line: plain (and what their text resolves to), single- and double-quoted.
extension YAMLReader {
    // MARK: Plain

    /// The plain scalar on this line, up to a `: `, a ` #` comment, the line's end or (in a
    /// flow collection) a flow indicator; trailing spaces dropped.
    mutating func readPlainLine(inFlow: Bool) throws -> String {
        let start = index
        var end = index
        while let byte = current {
            if byte == .lf { break }
            if byte == UInt8(ascii: ":") {
                let next = peek(1)
                if next == nil || next == .space || next == .tab || next == .lf { break }
                if inFlow, let next, Self.isFlowIndicator(next) { break }
            }
            if byte == UInt8(ascii: "#"), index > start, bytes[index - 1] == .space || bytes[index - 1] == .tab { break }
            if inFlow, Self.isFlowIndicator(byte) { break }
            index += 1
            if byte != .space && byte != .tab { end = index }
        }
        guard end > start else {
            throw error("expected a value, found \(Self.describe(current))")
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// A block plain scalar's following lines, while they sit right of `parentIndent`: one
    /// line break becomes a space, each blank line a line break.
    mutating func continuePlain(_ first: String, parentIndent: Int) throws -> String {
        var text = first
        while current == .lf || current == .space || current == .tab {
            let saved = (index, line, lineStart)
            skipSpaces()
            guard current == .lf else {
                (index, line, lineStart) = saved
                break
            }
            var breaks = 0
            while let byte = current, Self.isWhitespace(byte) {
                if byte == .lf { breaks += 1 }
                advance()
            }
            guard let byte = current, column > parentIndent, byte != UInt8(ascii: "#"), !isDocumentMarker("---"),
                !isDocumentMarker("...")
            else {
                (index, line, lineStart) = saved
                break
            }
            let more = try readPlainLine(inFlow: false)
            if current == UInt8(ascii: ":") {
                throw error("\"\(Self.clip(more)):\" inside a multi-line plain scalar; quote the value, or fix the indentation of this key")
            }
            text += breaks == 1 ? " " + more : String(repeating: "\n", count: breaks - 1) + more
        }
        return text
    }

    /// What a plain scalar means under YAML 1.2's core schema.
    static func resolvePlain(_ text: String) -> JSONValue {
        guard let first = text.utf8.first else { return .null }
        switch text {
        case "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
        case ".nan", ".NaN", ".NAN": return .number(.nan)
        default: break
        }
        // Only text that can be a number is tried as one.
        guard
            (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: ".")
        else { return .string(text) }
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return .integer(value) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return .integer(value) }
        if isDecimalInteger(text), let value = Int(text) { return .integer(value) }
        if isDecimalNumber(text), let value = Double(text) { return .number(value) }
        return .string(text)
    }

    private static func isDecimalInteger(_ text: String) -> Bool {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "-") || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isDecimalNumber(_ text: String) -> Bool {
        var rest = text.utf8[...]
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if rest.first == UInt8(ascii: "-") || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
        let integerDigits = rest.prefix(while: isDigit).count
        rest = rest.dropFirst(integerDigits)
        var fractionDigits = 0
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            fractionDigits = rest.prefix(while: isDigit).count
            rest = rest.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "-") || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
            let exponentDigits = rest.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return false }
            rest = rest.dropFirst(exponentDigits)
        }
        return rest.isEmpty
    }

    // MARK: Quoted

    mutating func readSingleQuoted() throws -> String {
        let openLine = line, openColumn = column + 1
        advance()
        var output: [UInt8] = []
        while true {
            guard let byte = current else {
                throw YAMLError(line: openLine, column: openColumn, message: "the single-quoted scalar that starts here never ends")
            }
            if byte == UInt8(ascii: "'") {
                if peek(1) == UInt8(ascii: "'") {
                    output.append(byte)
                    advance(by: 2)
                    continue
                }
                advance()
                return String(decoding: output, as: UTF8.self)
            }
            if byte == .space || byte == .tab || byte == .lf {
                try foldQuotedWhitespace(into: &output)
                continue
            }
            output.append(byte)
            advance()
        }
    }

    mutating func readDoubleQuoted() throws -> String {
        let openLine = line, openColumn = column + 1
        advance()
        var output: [UInt8] = []
        while true {
            guard let byte = current else {
                throw YAMLError(line: openLine, column: openColumn, message: "the double-quoted scalar that starts here never ends")
            }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return String(decoding: output, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(into: &output)
            case .space, .tab, .lf:
                try foldQuotedWhitespace(into: &output)
            default:
                output.append(byte)
                advance()
            }
        }
    }

    /// Spaces inside a line are kept; a line break with the spaces around it becomes one space,
    /// and each blank line after it a line break.
    private mutating func foldQuotedWhitespace(into output: inout [UInt8]) throws {
        let start = index
        while let byte = current, byte == .space || byte == .tab { index += 1 }
        guard current == .lf else {
            output.append(contentsOf: bytes[start..<index])
            return
        }
        var breaks = 0
        while let byte = current, Self.isWhitespace(byte) {
            if byte == .lf { breaks += 1 }
            advance()
        }
        if isDocumentMarker("---") || isDocumentMarker("...") {
            throw error("a document marker inside a quoted scalar; close the quote before it")
        }
        if breaks == 1 {
            output.append(.space)
        } else {
            output.append(contentsOf: repeatElement(UInt8.lf, count: breaks - 1))
        }
    }

    private mutating func readEscape(into output: inout [UInt8]) throws {
        let escapeColumn = column + 1
        advance()
        guard let byte = current else { throw error("a \"\\\" at the end of the text") }
        func append(_ scalar: UInt32) throws {
            guard let unicode = Unicode.Scalar(scalar) else {
                throw YAMLError(
                    line: line, column: escapeColumn,
                    message: "the escape names U+\(String(scalar, radix: 16, uppercase: true)), which is not a Unicode scalar")
            }
            output.append(contentsOf: Array(String(Character(unicode)).utf8))
        }
        switch byte {
        case UInt8(ascii: "0"): output.append(0)
        case UInt8(ascii: "a"): output.append(7)
        case UInt8(ascii: "b"): output.append(8)
        case UInt8(ascii: "t"), .tab: output.append(9)
        case UInt8(ascii: "n"): output.append(10)
        case UInt8(ascii: "v"): output.append(11)
        case UInt8(ascii: "f"): output.append(12)
        case UInt8(ascii: "r"): output.append(13)
        case UInt8(ascii: "e"): output.append(0x1B)
        case .space, UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "\\"): output.append(byte)
        case UInt8(ascii: "N"): try append(0x85)
        case UInt8(ascii: "_"): try append(0xA0)
        case UInt8(ascii: "L"): try append(0x2028)
        case UInt8(ascii: "P"): try append(0x2029)
        case .lf:
            // An escaped line break: the line goes on, without the next line's indentation.
            advance()
            while let next = current, next == .space || next == .tab { index += 1 }
            return
        case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = byte == UInt8(ascii: "x") ? 2 : byte == UInt8(ascii: "u") ? 4 : 8
            var value = try readHex(count, escapeColumn: escapeColumn)
            if (0xD800...0xDBFF).contains(value), current == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") {
                advance()
                let low = try readHex(4, escapeColumn: escapeColumn)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw YAMLError(line: line, column: escapeColumn, message: "a high surrogate escape not followed by a low one")
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            try append(value)
            return
        default:
            throw YAMLError(line: line, column: escapeColumn, message: "\"\\\(Character(Unicode.Scalar(byte)))\" is not a YAML escape")
        }
        advance()
    }

    /// Reads `count` hex digits after an escape letter (the cursor is on the letter).
    private mutating func readHex(_ count: Int, escapeColumn: Int) throws -> UInt32 {
        advance()
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let byte = current, let digit = Self.hexValue(byte) else {
                throw YAMLError(
                    line: line, column: escapeColumn, message: "expected \(count) hexadecimal digits in this escape, found \(Self.describe(current))")
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
