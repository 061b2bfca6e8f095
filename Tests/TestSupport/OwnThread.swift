import Foundation

/// Runs `work` on a thread of its own and returns its result (or throws its error).
///
/// For test code that is CPU-heavy or blocks (a big parse, a child process): Swift's cooperative
/// pool has one thread per core, and a test holding one for seconds stalls every other test's
/// `await` (under AddressSanitizer one such test once held both threads of a 2-core machine for
/// 85 s). Record expectations after it returns, in the test's own task.
func onItsOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await StartedOnItsOwnThread(work).value
}

/// Work already running on a thread of its own, whose result a test awaits later.
///
/// Unlike `async let`, whose child task waits for a thread of the cooperative pool before it
/// starts, the thread starts in the initializer: a test that starts one end of a connection here
/// and then waits for it on another thread cannot time out because a busy pool never started it.
final class StartedOnItsOwnThread<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?
    private var waiter: CheckedContinuation<Value, any Error>?

    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in finish(Result { try work() }) }
        thread.stackSize = 8 << 20  // a parser's recursion, as on a main thread
        thread.start()
    }

    /// The work's result, once it has ended (its error when it threw).
    var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                if let result {
                    lock.unlock()
                    continuation.resume(with: result)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        }
    }

    private func finish(_ outcome: Result<Value, any Error>) {
        lock.lock()
        result = outcome
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume(with: outcome)
    }
}
