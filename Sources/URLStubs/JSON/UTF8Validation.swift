import Foundation

/// Whether bytes are well-formed UTF-8 (the Unicode Standard's table 3-7: no overlong forms, no
/// surrogates, nothing past U+10FFFF), so that readers refuse text that decoding would repair
/// into U+FFFD. `String(validating:)` does the same from macOS 15 only.
package enum UTF8Validation {
    /// The offset of the first byte that starts no well-formed sequence, or `nil`.
    package static func firstInvalidByte(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        let end = bytes.count
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            let count: Int
            switch lead {
            case 0xC2...0xDF: count = 2
            case 0xE0: count = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 3
            case 0xED: count = 3; high = 0x9F
            case 0xF0: count = 4; low = 0x90
            case 0xF1...0xF3: count = 4
            case 0xF4: count = 4; high = 0x8F
            default: return index
            }
            guard end - index >= count, (low...high).contains(bytes[index + 1]) else { return index }
            for offset in 2..<count where bytes[index + offset] & 0xC0 != 0x80 { return index }
            index += count
        }
        return nil
    }

    /// Why the text is refused, naming the byte `firstInvalidByte(in:)` found.
    package static func reason(byte: UInt8) -> String {
        "invalid UTF-8 (the byte 0x\(String(byte, radix: 16, uppercase: true)) starts no valid UTF-8 sequence): the text must be UTF-8"
    }
}
