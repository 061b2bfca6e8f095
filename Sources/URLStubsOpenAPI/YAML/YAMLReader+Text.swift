import Foundation
import URLStubs

/// The text the reader takes before it reads a node: UTF-8 of printable characters, its line
/// breaks made `\n`.
extension YAMLReader {
    /// Only UTF-8 is read: UTF-16 and UTF-32 (a byte order mark, or zero bytes among the first
    /// four) and invalid UTF-8 are refused by name, where decoding would repair them into U+FFFD.
    static func checkEncoding(_ bytes: [UInt8]) throws {
        let first = bytes.prefix(4)
        if first.starts(with: [0xFF, 0xFE]) || first.starts(with: [0xFE, 0xFF]) || first.contains(0) {
            throw YAMLError(line: 1, column: 1, message: "the text is UTF-16 or UTF-32, not UTF-8: save it as UTF-8")
        }
        guard let bad = bytes.withUnsafeBytes({ UTF8Validation.firstInvalidByte(in: $0) }) else { return }
        throw YAMLError(line: line(of: bad, in: bytes), column: column(of: bad, in: bytes), message: UTF8Validation.reason(byte: bytes[bad]))
    }

    /// YAML text holds printable characters only (YAML 1.2, 5.1): a control character other
    /// than a tab or a line break (U+0000 to U+001F, U+007F, U+0080 to U+009F but U+0085) is
    /// refused by name, in a quoted scalar too, where an escape writes it. Run on valid UTF-8.
    static func checkPrintable(_ bytes: [UInt8]) throws {
        for (index, byte) in bytes.enumerated() {
            let start: Int
            switch byte {
            case 0x09, 0x0A, 0x0D: continue
            case 0x00...0x1F, 0x7F: start = index
            // U+0080 to U+009F are 0xC2 then this byte in UTF-8; U+0085 is a line break.
            case 0x80...0x9F where index > 0 && bytes[index - 1] == 0xC2 && byte != 0x85: start = index - 1
            default: continue
            }
            let hex = (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            throw YAMLError(
                line: line(of: start, in: bytes), column: column(of: start, in: bytes),
                message: "the control character U+00\(hex) is not allowed in YAML text; write it as \"\\x\(hex)\" in a double-quoted string")
        }
    }

    /// The 1-based line of the byte at `offset`.
    private static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].reduce(1) { $1 == .lf ? $0 + 1 : $0 }
    }

    /// The 1-based column, in bytes, of the byte at `offset`.
    private static func column(of offset: Int, in bytes: [UInt8]) -> Int {
        offset - (bytes[..<offset].lastIndex(of: .lf).map { $0 + 1 } ?? 0) + 1
    }

    /// `\r\n` and a lone `\r` become `\n`.
    static func normalizingLineBreaks(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .cr {
                output.append(.lf)
                if index + 1 < bytes.count, bytes[index + 1] == .lf { index += 1 }
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }
}
