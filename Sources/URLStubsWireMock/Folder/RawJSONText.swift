import Foundation

/// The compact text of one value of a JSON file, cut from the file's bytes: a mapping's
/// `jsonBody` as WireMock sends it (Jackson keeps the members in the file's order and the
/// numbers as written), without writing it again from the parsed tree, which costs more than
/// the rest of loading a mapping with a large body.
///
/// Only ever used on text the engine's reader has accepted, so it checks nothing but the
/// path: a step it cannot follow (a member name written with escapes, text that is not
/// UTF-8) gives `nil`, and the caller writes the value from its tree instead.
enum RawJSONText {
    enum Step {
        case member(String)
        case index(Int)
    }

    /// The value at `path` in `data`, without the whitespace between tokens.
    static func compactValue(in data: Data, at path: [Step]) -> String? {
        data.withUnsafeBytes { raw -> String? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = Scanner(bytes: bytes)
            guard let range = scanner.find(path[...]) else { return nil }
            return compact(bytes, range)
        }
    }

    /// The bytes of `range` without whitespace between tokens, copied in runs.
    private static func compact(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var runStart = range.lowerBound
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index = Scanner.endOfString(bytes, from: index)
            } else if Scanner.isWhitespace(byte) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index += 1
                runStart = index
            } else {
                index += 1
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<min(index, range.upperBound)]))
        return String(decoding: output, as: UTF8.self)
    }

    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        /// The index just past the string that starts with the quote at `start`.
        @inline(__always)
        static func endOfString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            var index = start + 1
            // Eight bytes at a time while none is a quote or a backslash.
            let ones: UInt64 = 0x0101_0101_0101_0101
            func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & (ones &* 0x80) != 0 }
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                if hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C)) { break }
                index += 8
            }
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""): return index + 1
                default: index += 1
                }
            }
            return bytes.count
        }

        mutating func skipWhitespace() {
            while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        }

        /// Moves past the value that starts here.
        mutating func skipValue() {
            skipWhitespace()
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = Self.endOfString(bytes, from: index)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        index = Self.endOfString(bytes, from: index)
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return
                        }
                    default: break
                    }
                    index += 1
                }
            default:
                while index < bytes.count, !Self.isWhitespace(bytes[index]), !",}]".utf8.contains(bytes[index]) { index += 1 }
            }
        }

        /// The byte range of the value at `path` from here, in one pass: only the values on
        /// the path are entered, the others skipped; of members written twice, the last
        /// counts, as the engine's reader keeps it.
        mutating func find(_ path: ArraySlice<Step>) -> Range<Int>? {
            skipWhitespace()
            guard let step = path.first else {
                let start = index
                skipValue()
                return start < index ? start..<index : nil
            }
            guard index < bytes.count else { return nil }
            var found: Range<Int>?
            switch step {
            case .member(let name):
                guard bytes[index] == UInt8(ascii: "{") else { return nil }
                let wanted = Array(name.utf8)
                index += 1
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { break }
                    let end = Self.endOfString(bytes, from: index)
                    let matches =
                        end - index - 2 == wanted.count && UnsafeBufferPointer(rebasing: bytes[(index + 1)..<(end - 1)]).elementsEqual(wanted)
                    index = end
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    if matches { found = find(path.dropFirst()) } else { skipValue() }
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
                    index += 1
                }
            case .index(let wanted):
                guard bytes[index] == UInt8(ascii: "[") else { return nil }
                index += 1
                var item = 0
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { break }
                    if item == wanted { found = find(path.dropFirst()) } else { skipValue() }
                    item += 1
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
                    index += 1
                }
            }
            skipWhitespace()
            if index < bytes.count { index += 1 }  // the closing brace or bracket
            return found
        }
    }
}
