import Foundation

/// Arrivals (requests reaching a gate, requests connecting to a stream) handed to waits in
/// order: the first ``next(timeout:timeoutError:)`` gets the first arrival, the second the
/// second, at once when that arrival came before the call.
///
/// Its lock is its own and is never held while calling out, so an owner may call ``arrive(_:)``
/// under its own lock, keeping an arrival and the owner's state in step.
package final class ArrivalLine<Value: Sendable>: @unchecked Sendable {
    // @unchecked: the fields below are read and written under `lock`.
    private let lock = NSLock()
    private var arrived: [Value] = []
    /// How many of `arrived` went to a wait.
    private var handedOut = 0
    private var waiters: [PendingWait<Value>] = []

    /// An empty line.
    package init() {}

    /// Every arrival, oldest first.
    var all: [Value] {
        lock.lock(); defer { lock.unlock() }
        return arrived
    }

    /// Records `value` and hands it to the oldest waiting call, if any.
    package func arrive(_ value: Value) {
        lock.lock(); defer { lock.unlock() }
        arrived.append(value)
        while handedOut < arrived.count, !waiters.isEmpty {
            if waiters.removeFirst().resolve(.success(arrived[handedOut])) { handedOut += 1 }
        }
    }

    /// The next arrival not handed out yet: at once if it came already, else when it comes.
    /// - Throws: `timeoutError()` after `timeout` seconds; `CancellationError` when the
    ///   waiting task is cancelled.
    package func next(timeout: TimeInterval, timeoutError: @escaping @Sendable () -> any Error) async throws -> Value {
        try await PendingWait<Value>.run(
            timeout: timeout, timeoutError: timeoutError,
            start: { wait in
                lock.lock(); defer { lock.unlock() }
                guard handedOut < arrived.count else {
                    waiters.append(wait)
                    return
                }
                if wait.resolve(.success(arrived[handedOut])) { handedOut += 1 }
            },
            finish: { wait in
                lock.lock(); defer { lock.unlock() }
                waiters.removeAll { $0 === wait }
            })
    }
}
