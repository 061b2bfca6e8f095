import Foundation

/// Why a text is not JSON, and where: the reason, the byte offset, and the line and column
/// (both from 1) of that byte. Where the reader has no verdict (text that is not UTF-8),
/// the reason is `JSONSerialization`'s own message and there is no offset.
///
/// Reports quote it: `expected ',' or '}' after an object member at line 3, column 7 (byte 41)`;
/// a document that is valid but nested too deep says `nested deeper than 512 levels`.
struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// How deep arrays and objects may nest: JSONSerialization's limit too.
    static let maximumDepth = 512
    static let tooDeepReason = "nested deeper than \(maximumDepth) levels"

    /// What is wrong: `expected ':' after the member name`.
    let reason: String
    /// The byte where it was found, from 0; `nil` when only `JSONSerialization` judged it.
    let offset: Int?
    /// The line of that byte, from 1.
    let line: Int
    /// The column of that byte within its line, in bytes, from 1.
    let column: Int

    /// `true` when the text is nested too deep (the text may be valid JSON otherwise).
    var isTooDeep: Bool { reason == Self.tooDeepReason }

    init(reason: String, offset: Int?, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    init(reason: String, offset: Int, in bytes: UnsafeRawBufferPointer) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        self.init(reason: reason, offset: offset, line: line, column: offset - lineStart + 1)
    }

    /// What a file is, for "the file …": `is not valid JSON: expected a value at …`, or
    /// `is nested deeper than 512 levels at …`.
    var verdict: String { isTooDeep ? "is \(self)" : "is not valid JSON: \(self)" }

    /// `expected a value at line 1, column 5 (byte 4)`.
    var description: String {
        guard let offset else { return reason }
        return "\(reason) at line \(line), column \(column) (byte \(offset))"
    }
}

extension JSONValue {
    /// Parses JSON text as ``init(data:)`` does, but a rejected text throws the cause found by
    /// the reader (``JSONSyntaxError``: what was expected, at which line, column and byte; or
    /// that it is nested deeper than 512 levels) instead of `JSONSerialization`'s opaque error.
    /// Well-formed UTF-8 takes the fast path of `JSONBytesReader`.
    static func parsing(_ data: Data) throws -> JSONValue {
        if let value = JSONBytesReader.value(from: data) { return value }
        do {
            return try JSONValue(data: data)
        } catch {
            if let problem = JSONBytesReader.problem(in: data) { throw problem }
            if data.isEmpty { throw JSONSyntaxError(reason: "the text is empty", offset: 0, line: 1, column: 1) }
            throw JSONSyntaxError(reason: Self.reason(of: error), offset: nil, line: 0, column: 0)
        }
    }

    /// Why `data` is not JSON, or `nil` when it is.
    static func problem(in data: Data) -> JSONSyntaxError? {
        do {
            _ = try parsing(data)
            return nil
        } catch {
            return error as? JSONSyntaxError
        }
    }

    /// What a report calls `data` that it expected to be JSON and could not read, with the
    /// cause: `a body that is not JSON (expected a value at line 1, column 1 (byte 0))`, or
    /// `a JSON body nested deeper than 512 levels (…)` for a document only too deep.
    static func unreadable(_ data: Data, as noun: String) -> String {
        do {
            _ = try parsing(data)
            return "\(noun) that is not JSON"
        } catch let problem as JSONSyntaxError where problem.isTooDeep {
            return "a JSON \(noun.split(separator: " ").last ?? "") \(problem)"
        } catch {
            return "\(noun) that is not JSON (\(error))"
        }
    }

    /// JSONSerialization's own message (its debug description on Linux, where the localized
    /// one is "The operation could not be completed").
    private static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty { return detail }
        return "not JSON text (\(nsError.localizedDescription))"
    }
}
