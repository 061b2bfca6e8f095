import Foundation
import URLStubs
import URLStubsMultipart

/// Splits GraphQL text into tokens (names, punctuators, numbers, strings), skipping what the
/// spec ignores: white space, line breaks, commas, comments and a byte order mark.
///
/// Works on UTF-8 bytes and never traps: a character GraphQL does not allow, or a string
/// that is never closed, becomes a ``GraphQLSyntaxError`` and the reader goes on.
struct GraphQLLexer {
    enum Kind: Sendable, Equatable {
        case name, punctuator, number, string
    }

    struct Token: Sendable, Equatable {
        let kind: Kind
        let range: Range<Int>
    }

    let bytes: [UInt8]
    private(set) var position = 0
    /// The first problem met, if any.
    private(set) var error: GraphQLSyntaxError?

    init(_ text: String) {
        bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    func text(of token: Token) -> String {
        String(decoding: bytes[token.range], as: UTF8.self)
    }

    /// Every token's text, for comparing documents regardless of formatting.
    static func tokenTexts(_ text: String) -> [String] {
        var lexer = GraphQLLexer(text)
        var texts: [String] = []
        while let token = lexer.next() { texts.append(lexer.text(of: token)) }
        return texts
    }

    /// The next token, or `nil` at the end of the text.
    mutating func next() -> Token? {
        while position < bytes.count {
            let start = position
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: "#"):
                while position < bytes.count, bytes[position] != UInt8(ascii: "\n"), bytes[position] != UInt8(ascii: "\r") {
                    position += 1
                }
            case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "]"),
                UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
                position += 1
                return Token(kind: .punctuator, range: start..<position)
            case UInt8(ascii: "."):
                if bytes[position...].starts(with: [UInt8(ascii: "."), UInt8(ascii: "."), UInt8(ascii: ".")]) {
                    position += 3
                    return Token(kind: .punctuator, range: start..<position)
                }
                fail(at: start, "a lone \".\" (a fragment spread is written \"...\")")
                position += 1
            case UInt8(ascii: "\""):
                return readString(from: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                position += 1
                while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
                return Token(kind: .number, range: start..<position)
            default:
                if Self.isNameStart(byte) {
                    position += 1
                    while position < bytes.count, Self.isNameStart(bytes[position]) || Self.isDigit(bytes[position]) { position += 1 }
                    return Token(kind: .name, range: start..<position)
                }
                fail(at: start, "unexpected character \(Self.describe(byte))")
                position += 1
            }
        }
        return nil
    }

    private mutating func readString(from start: Int) -> Token {
        let quote = UInt8(ascii: "\"")
        if bytes[start...].starts(with: [quote, quote, quote]) {
            position = start + 3
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "\\"), bytes[position...].dropFirst().starts(with: [quote, quote, quote]) {
                    position += 4
                } else if bytes[position...].starts(with: [quote, quote, quote]) {
                    position += 3
                    return Token(kind: .string, range: start..<position)
                } else {
                    position += 1
                }
            }
            fail(at: start, "a block string (\"\"\") is never closed")
            position = bytes.count
            return Token(kind: .string, range: start..<bytes.count)
        }
        position = start + 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"):
                position += 2
            case quote:
                position += 1
                return Token(kind: .string, range: start..<position)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                fail(at: start, "a string is not closed before the end of its line")
                return Token(kind: .string, range: start..<position)
            default:
                position += 1
            }
        }
        fail(at: start, "a string is never closed")
        position = bytes.count
        return Token(kind: .string, range: start..<bytes.count)
    }

    mutating func fail(at offset: Int, _ message: String) {
        guard error == nil else { return }
        error = GraphQLSyntaxError(bytes: bytes, offset: offset, message: message)
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}

/// A problem in a GraphQL document, with its 1-based line and column.
struct GraphQLSyntaxError: Sendable, Equatable, CustomStringConvertible {
    let line: Int
    let column: Int
    let message: String

    init(bytes: [UInt8], offset: Int, message: String) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        self.line = line
        // Columns count characters, not bytes: continuation bytes of UTF-8 do not start one.
        self.column = 1 + bytes[lineStart..<min(offset, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count
        self.message = message
    }

    var description: String { "line \(line), column \(column): \(message)" }
}
