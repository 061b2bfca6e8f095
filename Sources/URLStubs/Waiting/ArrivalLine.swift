import Foundation

/// Arrivals (requests reaching a gate, requests connecting to a stream) handed to waits in
/// order: the first ``next(timeout:timeoutError:)`` gets the first arrival, the second the
/// second, at once when that arrival came before the call.
///
/// Its lock is its own and is never held while calling out, so an owner may call ``arrive(_:)``
/// under its own lock, keeping an arrival and the owner's state in step.
package final class ArrivalLine<Value: Sendable>: @unchecked Sendable {
    private let line = Locked(Line())

    /// What the line's lock guards.
    private struct Line {
        var arrived: [Value] = []
        /// How many of `arrived` went to a wait.
        var handedOut = 0
        var waiters: [PendingWait<Value>] = []
    }

    /// An empty line.
    package init() {}

    /// Every arrival, oldest first.
    var all: [Value] {
        line.withLock { $0.arrived }
    }

    /// Records `value` and hands it to the oldest waiting call, if any.
    package func arrive(_ value: Value) {
        line.withLock { line in
            line.arrived.append(value)
            while line.handedOut < line.arrived.count, !line.waiters.isEmpty {
                if line.waiters.removeFirst().resolve(.success(line.arrived[line.handedOut])) { line.handedOut += 1 }
            }
        }
    }

    /// The next arrival not handed out yet: at once if it came already, else when it comes.
    /// - Throws: `timeoutError()` after `timeout` seconds; `CancellationError` when the
    ///   waiting task is cancelled.
    package func next(timeout: TimeInterval, timeoutError: @escaping @Sendable () -> any Error) async throws -> Value {
        try await PendingWait<Value>.run(
            timeout: timeout, timeoutError: timeoutError,
            start: { wait in
                line.withLock { line in
                    guard line.handedOut < line.arrived.count else {
                        line.waiters.append(wait)
                        return
                    }
                    if wait.resolve(.success(line.arrived[line.handedOut])) { line.handedOut += 1 }
                }
            },
            finish: { wait in
                line.withLock { line in line.waiters.removeAll { $0 === wait } }
            })
    }
}
