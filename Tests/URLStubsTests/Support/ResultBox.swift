import Foundation

/// The error a task completed with, set once from any thread.
final class ResultBox: @unchecked Sendable {
    // @unchecked: the fields are read and written under `lock`.
    private let lock = NSLock()
    private var done = false
    private var stored: (any Error)?

    func set(_ error: (any Error)?) {
        lock.lock(); done = true; stored = error; lock.unlock()
    }

    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return done }
    var error: (any Error)? { lock.lock(); defer { lock.unlock() }; return stored }
}
