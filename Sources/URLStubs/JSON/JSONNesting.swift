import Foundation

/// How deep JSON text nests, found by counting brackets outside strings without reading any
/// value: cheap enough for a report about a body the reader refused as too deep.
enum JSONNesting {
    /// The deepest nesting reached after `offset`, where a bracket opens level `level + 1`;
    /// the scan ends where that bracket closes, or at the end of the text.
    static func deepest(in bytes: UnsafeRawBufferPointer, from offset: Int, startingAt level: Int) -> Int {
        var depth = level
        var deepest = level
        var index = offset
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth <= level { return deepest }
            default:
                break
            }
            index += 1
        }
        return deepest
    }

    /// How deep a body that starts as JSON (`{` or `[`) nests, when that is deeper than the
    /// readers go; `nil` otherwise.
    static func depthBeyondLimit(of body: Data) -> Int? {
        body.withUnsafeBytes { bytes -> Int? in
            guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
                bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "[")
            else { return nil }
            let depth = deepest(in: bytes, from: first, startingAt: 0)
            return depth > JSONSyntaxError.maximumDepth ? depth : nil
        }
    }
}

extension JSONCursor {
    /// How deep the arrays and objects of the text nest at most, counting from `offset` (the
    /// bracket that went past the limit, at ``JSONSyntaxError/maximumDepth`` open ones): for a
    /// message saying how deep the text goes. Strings are skipped; nothing else is checked.
    func depthOfNesting(from offset: Int) -> Int? {
        JSONNesting.deepest(in: bytes, from: offset, startingAt: JSONSyntaxError.maximumDepth)
    }
}
