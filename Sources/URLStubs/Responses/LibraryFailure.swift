import Foundation

/// A failure that a library built on the engine defines (a live stream misused, a recording
/// that cannot be made, a scenario name that no scenario has), carried by
/// ``StubError/library(_:)``.
///
/// The engine names none of its libraries' failures. Each library declares a type of its own
/// for them that conforms to this protocol, and throws `StubError.library` holding one, or
/// fails a request with it. A `catch` still has one error type to match, and its pattern
/// reaches the library's case directly:
///
/// ```swift
/// do {
///     try stream.send(update)
/// } catch StubError.library(StreamFailure.bufferFull(_, let limit, _)) {
///     print("the app is more than \(limit) bytes behind")
/// }
/// ```
///
/// `description` is the whole sentence `StubError` shows (what was wrong, where, and what to
/// do), and ``code`` its number in `StubError`'s `NSError` domain.
public protocol LibraryFailure: Sendable, Equatable, CustomStringConvertible {
    /// The failure's number under `StubError.errorDomain`: stable, and never given to another
    /// kind of failure (one failure that two libraries define keeps one number).
    var code: Int { get }
}

extension LibraryFailure {
    /// Whether `other` is the same failure: of this type, and equal to this one.
    func isEqual(to other: any LibraryFailure) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
