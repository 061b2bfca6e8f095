#if canImport(XCTest)
import Foundation

/// What a tear-down block needs, handed to it once: the block takes it and nothing stays
/// behind.
///
/// XCTest keeps every test case, and its tear-down blocks, until the process ends (seen on
/// Linux: a cassette's recorded entries were still held at exit, and LeakSanitizer reported
/// them). A block capturing the registry and the recorder would keep them, and everything they
/// hold, alive for the whole run; capturing this box keeps nothing once the block has run.
final class TearDownHandoff<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written under `lock`.
    private let lock = NSLock()
    private var value: Value?

    init(_ value: Value) { self.value = value }

    /// The value, the first time; `nil` after.
    func take() -> Value? {
        lock.lock(); defer { lock.unlock() }
        defer { value = nil }
        return value
    }
}
#endif
