import Foundation
import URLStubs

extension JSONValue {
    /// The value as compact JSON text, written as Jackson writes it (no space, `/` not
    /// escaped), members in sorted order so the text is the same on every run. Written
    /// directly into bytes: a mapping's `jsonBody` is written once per load, and bridging to
    /// `JSONSerialization` or appending to a `String` costs more than the rest of the load.
    var compactJSON: String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        writeCompact(into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private func writeCompact(into output: inout [UInt8]) {
        switch self {
        case .null: output += "null".utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .integer(let value): output += String(value).utf8
        case .number(let value):
            if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
                output += String(Int(value)).utf8
            } else {
                output += (value.isFinite ? String(value) : "null").utf8
            }
        case .string(let text): Self.writeString(text, into: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.writeCompact(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            if members.count > 32 {
                for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    Self.writeMember(member.key, member.value, into: &output)
                }
            } else {
                // Small objects (nearly all) are sorted in place on the stack: a JSON body of
                // thousands of small objects allocates no array per object.
                withUnsafeTemporaryAllocation(of: (key: String, value: JSONValue).self, capacity: members.count) { buffer in
                    var count = 0
                    for member in members {
                        (buffer.baseAddress! + count).initialize(to: member)
                        count += 1
                    }
                    for index in buffer.indices.dropFirst() {
                        var place = index
                        while place > 0, buffer[place].key < buffer[place - 1].key {
                            buffer.swapAt(place, place - 1)
                            place -= 1
                        }
                    }
                    for index in 0..<count {
                        if index > 0 { output.append(UInt8(ascii: ",")) }
                        Self.writeMember(buffer[index].key, buffer[index].value, into: &output)
                    }
                    buffer.baseAddress!.deinitialize(count: count)
                }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeMember(_ key: String, _ value: JSONValue, into output: inout [UInt8]) {
        writeString(key, into: &output)
        output.append(UInt8(ascii: ":"))
        value.writeCompact(into: &output)
    }

    /// Whether one of the eight bytes of `word` is below 0x20, a quote or a backslash.
    private static func needsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
    }

    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            // Eight bytes at a time while none needs escaping: most of a body's text.
            var index = 0
            while index + 8 <= bytes.count, !Self.needsEscaping(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                index += 8
            }
            for index in index..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): output += #"\""#.utf8
                case UInt8(ascii: "\\"): output += #"\\"#.utf8
                case UInt8(ascii: "\n"): output += #"\n"#.utf8
                case UInt8(ascii: "\r"): output += #"\r"#.utf8
                case UInt8(ascii: "\t"): output += #"\t"#.utf8
                case 0x08: output += #"\b"#.utf8
                case 0x0C: output += #"\f"#.utf8
                default:
                    let hex = String(byte, radix: 16)
                    output += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
