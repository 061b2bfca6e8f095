import Foundation
import Dispatch

/// One suspended `await` of a test, resumed exactly once: by what it waits for, by its
/// timeout, or by the cancellation of its task. Whoever comes first wins; the others find it
/// resolved and do nothing. Nothing blocks a thread while it waits.
package final class PendingWait<Value: Sendable>: @unchecked Sendable {
    /// Where timeouts fire and their reports are written (they run matchers, which are user
    /// code): a queue of their own, never the global pool.
    private static var timeoutQueue: DispatchQueue { pendingWaitTimeouts }

    private let fields = Locked(Fields())

    /// What the wait's lock guards.
    private struct Fields {
        var continuation: CheckedContinuation<Value, any Error>?
        var outcome: Result<Value, SendableError>?
    }

    /// `true` once resolved (by any side).
    var isResolved: Bool {
        fields.withLock { $0.outcome != nil }
    }

    /// Resolves the wait with `result` unless it is resolved already; returns whether this call
    /// did it.
    @discardableResult
    package func resolve(_ result: Result<Value, any Error>) -> Bool {
        let settled = fields.withLock { fields -> (Result<Value, SendableError>, CheckedContinuation<Value, any Error>?)? in
            guard fields.outcome == nil else { return nil }
            let settled = result.mapError { SendableError(error: $0) }
            fields.outcome = settled
            defer { fields.continuation = nil }
            return (settled, fields.continuation)
        }
        guard let (outcome, waiting) = settled else { return false }
        waiting.map { Self.resume($0, with: outcome) }
        return true
    }

    private func install(_ continuation: CheckedContinuation<Value, any Error>) {
        let outcome = fields.withLock { fields in
            if fields.outcome == nil { fields.continuation = continuation }
            return fields.outcome
        }
        if let outcome { Self.resume(continuation, with: outcome) }
    }

    private static func resume(_ continuation: CheckedContinuation<Value, any Error>, with outcome: Result<Value, SendableError>) {
        switch outcome {
        case .success(let value): continuation.resume(returning: value)
        case .failure(let failure): continuation.resume(throwing: failure.error)
        }
    }

    /// Suspends until the wait is resolved. `start` runs once the wait can be resolved (it
    /// registers the wait where its event will come from, and may resolve it at once);
    /// `timeoutError` builds the error thrown when `timeout` seconds pass first; `finish` runs
    /// afterwards whatever happened (to unregister).
    package static func run(
        timeout: TimeInterval,
        timeoutError: @escaping @Sendable () -> any Error,
        start: (PendingWait<Value>) -> Void,
        finish: (PendingWait<Value>) -> Void
    ) async throws -> Value {
        let wait = PendingWait<Value>()
        defer { finish(wait) }
        start(wait)
        if timeout.isFinite, !wait.isResolved {
            let deadline = DispatchTime.now() + max(0, timeout)
            timeoutQueue.asyncAfter(deadline: deadline) { [weak wait] in
                guard let wait, !wait.isResolved else { return }
                wait.resolve(.failure(timeoutError()))
            }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                wait.install(continuation)
            }
        } onCancel: {
            wait.resolve(.failure(CancellationError()))
        }
    }
}

/// ``PendingWait``'s timeout queue (a generic type cannot hold a stored static property).
private let pendingWaitTimeouts = DispatchQueue(label: "URLStubs.PendingWait.timeouts")
