import Foundation

/// Why a text is not JSON, and where: the reason, the byte offset, and the line and column
/// (both from 1) of that byte.
///
/// Reports quote it: `expected ',' or '}' after an object member at line 3, column 7 (byte 41)`;
/// a document that is valid but nested too deep says `nested deeper than 512 levels`, and
/// ``nestingDepth`` how deep it goes.
struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// How deep arrays and objects may nest: JSONSerialization's limit too. The reader holds
    /// open containers on the heap, so this bounds what later steps (comparing, printing,
    /// freeing a value) recurse through, not the reader.
    static let maximumDepth = 512
    static let tooDeepReason = "nested deeper than \(maximumDepth) levels"

    /// What is wrong: `expected ':' after the member name`.
    let reason: String
    /// The byte where it was found, from 0; `nil` when it concerns the whole text.
    let offset: Int?
    /// The line of that byte, from 1.
    let line: Int
    /// The column of that byte within its line, in bytes, from 1.
    let column: Int
    /// For a text nested too deep, how deep it nests.
    let nestingDepth: Int?

    /// `true` when the text is nested too deep (the text may be valid JSON otherwise).
    var isTooDeep: Bool { reason == Self.tooDeepReason }

    init(reason: String, offset: Int?, line: Int, column: Int, nestingDepth: Int? = nil) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
        self.nestingDepth = nestingDepth
    }

    init(reason: String, offset: Int, in bytes: UnsafeRawBufferPointer, nestingDepth: Int? = nil) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        self.init(reason: reason, offset: offset, line: line, column: offset - lineStart + 1, nestingDepth: nestingDepth)
    }

    /// What a file is, for "the file …": `is not valid JSON: expected a value at …`, or
    /// `is nested deeper than 512 levels at …`.
    var verdict: String { isTooDeep ? "is \(self)" : "is not valid JSON: \(self)" }

    /// `expected a value at line 1, column 5 (byte 4)`.
    var description: String {
        guard let offset else { return reason }
        return "\(reason) at line \(line), column \(column) (byte \(offset))"
    }

    /// Same as ``description``.
    var errorDescription: String? { description }
}

extension JSONValue {
    /// Parses JSON text as ``init(data:)`` does; a rejected text throws the cause
    /// (``JSONSyntaxError``: what was expected, at which line, column and byte; or that it is
    /// nested deeper than 512 levels).
    package static func parsing(_ data: Data) throws -> JSONValue {
        try JSONBytesReader.read(data, rules: .body)
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
    /// `a JSON body nested deeper than 512 levels (…); it is nested 600 levels deep` for a
    /// document only too deep.
    package static func unreadable(_ data: Data, as noun: String) -> String {
        do {
            _ = try parsing(data)
            return "\(noun) that is not JSON"
        } catch let problem as JSONSyntaxError where problem.isTooDeep {
            let depth = problem.nestingDepth.map { "; it is nested \($0) levels deep" } ?? ""
            return "a JSON \(noun.split(separator: " ").last ?? "") \(problem)\(depth)"
        } catch {
            return "\(noun) that is not JSON (\(error))"
        }
    }

    /// For a near-miss report, a line about a body that starts as JSON but nests deeper than
    /// the readers go (so no JSON matcher can match it, whatever the stubs expect), or `nil`.
    /// Counts brackets only: cheap for a large body.
    static func tooDeepBodyNote(_ body: Data) -> String? {
        guard let depth = JSONNesting.depthBeyondLimit(of: body) else { return nil }
        return "the body is JSON nested \(depth) levels deep, deeper than the \(JSONSyntaxError.maximumDepth) levels URLStubs reads: "
            + "no JSON matcher can match it"
    }
}
