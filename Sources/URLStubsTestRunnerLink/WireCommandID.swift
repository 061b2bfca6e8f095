import Foundation
import URLStubs

extension WireMessage {
    /// The `id` of a message that could not be decoded, read without decoding the rest: so a
    /// command too deep, too odd or too malformed for the decoder is still answered under its
    /// own `id`, and the test's call fails at once instead of waiting for its timeout.
    ///
    /// Reads the top-level object's keys only, skipping every nested value by counting
    /// brackets (no recursion, whatever the depth); `nil` when there is no integer `id` there.
    static func topLevelID(in json: Data) -> Int? {
        let bytes = [UInt8](json)
        var index = 0
        var depth = 0
        var expectingKey = false
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let start = index + 1
                guard let end = endOfString(in: bytes, from: start) else { return nil }
                index = end
                if depth == 1, expectingKey {
                    expectingKey = false
                    if bytes[start..<end].elementsEqual("id".utf8) { return integer(in: bytes, after: end + 1) }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingKey = depth == 1 && bytes[index] == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                expectingKey = depth == 1
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The index of the quote that ends the string starting at `start`.
    private static func endOfString(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "\"") { return index }
            index += 1
        }
        return nil
    }

    /// The integer after `: ` at `index`, when the value is one.
    private static func integer(in bytes: [UInt8], after index: Int) -> Int? {
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var index = index
        while index < bytes.count, blank.contains(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        while index < bytes.count, blank.contains(bytes[index]) { index += 1 }
        var end = index
        if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
        while end < bytes.count, end - index < 19, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        guard end < bytes.count, [UInt8(ascii: ","), UInt8(ascii: "}")].contains(bytes[end]) || blank.contains(bytes[end]) else { return nil }
        return Int(String(decoding: bytes[index..<end], as: UTF8.self))
    }
}
