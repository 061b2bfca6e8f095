import Foundation

/// A document that cannot be used: which one, where in it, and what is wrong.
///
/// ```text
/// shop.yaml: #/paths/~1pets/get/responses/200: the $ref "#/components/responses/Missing" points to nothing in the document
/// shop.yaml: line 14, column 9: expected ":" after the mapping key "type", found the end of the line
/// ```
public struct OpenAPIError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The file's path, or the source name given.
    public let source: String
    /// A JSON pointer into the document (`#/components/schemas/Pet`), or a line and column for
    /// text that does not read.
    public let location: String
    /// What is wrong, and what was expected.
    public let message: String

    /// `source: location: message`.
    public var description: String { "\(source): \(location): \(message)" }
    /// Same as ``description``.
    public var errorDescription: String? { description }
}
