import Foundation

/// A YAML text this reader cannot read: where (1-based line and column, counted in bytes) and
/// what it expected or does not support.
///
/// ```text
/// line 12, column 7: expected ":" after the mapping key "description", found the end of the line
/// ```
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The 1-based line.
    public let line: Int
    /// The 1-based column, in bytes.
    public let column: Int
    /// What was wrong.
    public let message: String

    /// `line 3, column 5: …`.
    public var description: String { "line \(line), column \(column): \(message)" }
    /// Same as ``description``.
    public var errorDescription: String? { description }
}
