import Foundation

extension JSONValue {
    /// Reads a JSON document a person wrote (an OpenAPI document) with the library's reader:
    /// one pass, no recursion, nesting up to 512 levels. Stricter than a body: a member written
    /// twice in one object, text that is not UTF-8 (UTF-16, UTF-32, invalid bytes) and half a
    /// UTF-16 surrogate pair are refused by name rather than picked, guessed or repaired.
    ///
    /// - Throws: ``JSONDocumentProblem``, with the line and column.
    package static func readingDocument(_ data: Data) throws -> JSONValue {
        try readingDocument(data, keepingMemberOrderUnder: nil).value
    }

    /// ``readingDocument(_:)``, also telling the order in which each object found under a member
    /// named `name` lists its members (a ``JSONValue`` object does not keep it), keyed by the
    /// object: what an OpenAPI document's `examples` need, whose first entry is the one shown.
    package static func readingDocument(_ data: Data, keepingMemberOrderUnder name: String?) throws -> (
        value: JSONValue, memberOrders: [JSONValue: [String]]
    ) {
        var rules = JSONBytesReader.Rules.document
        rules.keepsMemberOrderUnder = name
        do {
            return try JSONBytesReader.readKeepingOrder(data, rules: rules)
        } catch let error as JSONSyntaxError {
            throw JSONDocumentProblem(reason: error.reason, line: max(error.line, 1), column: max(error.column, 1))
        }
    }
}

/// Why a JSON document does not read, and where: `line 3, column 7: expected ',' or '}' after
/// an object member`.
package struct JSONDocumentProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    package let reason: String
    /// The line, from 1.
    package let line: Int
    /// The column within the line, in bytes, from 1.
    package let column: Int

    /// `line 3, column 7: …`.
    package var description: String { "line \(line), column \(column): \(reason)" }
}
