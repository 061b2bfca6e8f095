import Foundation

/// A YAML text ``YAMLReader`` cannot read (surfaced as an ``OpenAPIError`` located by line and
/// column): where (1-based line and column, counted in bytes) and
/// what it expected or does not support.
///
/// ```text
/// line 12, column 7: expected ":" after the mapping key "description", found the end of the line
/// ```
struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The 1-based line.
    let line: Int
    /// The 1-based column, in bytes.
    let column: Int
    /// What was wrong.
    let message: String

    /// `line 3, column 5: …`.
    var description: String { "line \(line), column \(column): \(message)" }
    /// Same as ``description``.
    var errorDescription: String? { description }
}
