import Foundation

/// A mapping file read without building its `jsonBody` values: each is checked as JSON and
/// cut from the file as compact text (what the response sends), and the rest of the file, with
/// `null` where each body stood, is read into values and decoded as usual.
///
/// A 15 KB `jsonBody` read into a tree costs about 20 times the bytes it holds (a dictionary
/// per object, a string per name and value, all freed again when the registration keeps only
/// the text): most of what loading a folder did. Registering a folder needs only the text;
/// a templated or delayed response, whose JSON travels in its declaration, reads its body's
/// value from that text.
///
/// Anything this reading does not follow (a body that is not JSON, a member name written with
/// escapes, text that is not UTF-8) leaves the file to the full reader, whose error names the
/// line and column.
struct JSONBodyCut {
    /// The file with `null` in place of each `jsonBody` cut.
    let skeleton: Data
    /// The compact text of each cut body, by the mapping's place in the file (`0` for a file
    /// of one mapping).
    let bodies: [Int: String]

    /// The cut of `data`, or `nil` when it has no `jsonBody` or is left to the full reader.
    init?(_ data: Data) {
        // One pass: members other than the mappings' responses' bodies are skipped, and each
        // body is checked where it is found. Of members written twice the last counts, as the
        // engine's reader keeps it (the first stays in the skeleton, for that reader to judge).
        let found: [Int: (range: Range<Int>, text: String)]? = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var bodies: [Int: (range: Range<Int>, text: String)] = [:]
            func response(_ index: Int, _ scanner: inout RawJSONText.Scanner) -> Bool {
                scanner.members { scanner, name in
                    guard Self.is(name, "jsonBody") else { return scanner.skipping() }
                    let start = scanner.index
                    var checker = JSONChecker(bytes: UnsafeBufferPointer(rebasing: bytes[start...]))
                    guard checker.checkValue(), let text = checker.text else { return false }
                    scanner.index = start + checker.index
                    bodies[index] = (start..<scanner.index, text)
                    return true
                }
            }
            func mapping(_ index: Int, _ scanner: inout RawJSONText.Scanner) -> Bool {
                scanner.members { scanner, name in Self.is(name, "response") ? response(index, &scanner) : scanner.skipping() }
            }
            // A file of one mapping, or of several under "mappings" (a file with both is refused
            // when its skeleton is decoded, and read again whole for the error).
            var scanner = RawJSONText.Scanner(bytes: bytes)
            let followed = scanner.members { scanner, name in
                if Self.is(name, "mappings") { return scanner.items { scanner, index in mapping(index, &scanner) } }
                if Self.is(name, "response") { return response(0, &scanner) }
                return scanner.skipping()
            }
            guard followed else { return nil }
            return bodies.isEmpty ? nil : bodies
        }
        guard let found else { return nil }
        let ranges = found.values.map(\.range).sorted { $0.lowerBound < $1.lowerBound }
        var skeleton = Data()
        skeleton.reserveCapacity(data.count - ranges.reduce(0) { $0 + $1.count } + 4 * ranges.count)
        var start = data.startIndex
        for range in ranges {
            skeleton.append(data[start..<(data.startIndex + range.lowerBound)])
            skeleton.append(contentsOf: Array("null".utf8))
            start = data.startIndex + range.upperBound
        }
        skeleton.append(data[start...])
        self.skeleton = skeleton
        bodies = found.mapValues(\.text)
    }

    private static func `is`(_ name: UnsafeBufferPointer<UInt8>, _ wanted: StaticString) -> Bool {
        name.count == wanted.utf8CodeUnitCount && name.elementsEqual(UnsafeBufferPointer(start: wanted.utf8Start, count: wanted.utf8CodeUnitCount))
    }
}

extension RawJSONText.Scanner {
    /// Moves past the value here; `true`, for a visit that has nothing else to do.
    mutating func skipping() -> Bool {
        skipValue()
        return true
    }

    /// Visits each member of the object that starts here: `visit` gets the scanner at the
    /// member's value, and the member's name as written, and moves past the value. `false` when
    /// the text here is not an object, or a visit says so.
    mutating func members(_ visit: (inout Self, _ name: UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
            let end = Self.endOfString(bytes, from: index)
            guard end - 1 > index else { return false }
            let name = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<(end - 1)])
            index = end
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard visit(&self, name) else { return false }
            guard closes(UInt8(ascii: "}")) else { return false }
            if bytes[index - 1] == UInt8(ascii: "}") { return true }
        }
    }

    /// Visits each item of the array that starts here, with its place; see ``members(_:)``.
    mutating func items(_ visit: (inout Self, _ index: Int) -> Bool) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return false }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return true
        }
        var item = 0
        while true {
            skipWhitespace()
            guard visit(&self, item) else { return false }
            item += 1
            guard closes(UInt8(ascii: "]")) else { return false }
            if bytes[index - 1] == UInt8(ascii: "]") { return true }
        }
    }

    /// Moves past the comma before the next member or item, or past `close`; `false` for
    /// anything else.
    private mutating func closes(_ close: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ",") || bytes[index] == close else { return false }
        index += 1
        return true
    }
}
