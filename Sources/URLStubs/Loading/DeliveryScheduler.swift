import Foundation
import Dispatch

/// Runs a loading request's steps, one at a time, where the platform allows client
/// callbacks: on Linux the task's serial work queue, on Apple platforms the thread that
/// started loading. Every step of a ``ExchangePlayer`` goes through one of these, so the
/// player never needs a lock around a callback and never blocks a thread while it waits.
package protocol DeliveryScheduler: Sendable {
    /// Runs `work` as soon as possible, after whatever is already queued.
    func async(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` at `deadline` (or as soon as possible if it has passed).
    func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void)
}

/// Delivers on a serial dispatch queue (Linux: the task's work queue, found in
/// ``CorelibsTaskState``). Waiting is `asyncAfter`, so a paced body never occupies the
/// process-wide queue that every session's work queue targets.
package struct DispatchQueueScheduler: DeliveryScheduler {
    /// The serial queue every step runs on.
    package let queue: DispatchQueue

    /// Delivers on `queue`, which must be serial.
    package init(queue: DispatchQueue) { self.queue = queue }

    /// Runs `work` on the queue, after whatever is already there.
    package func async(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Runs `work` on the queue at `deadline` (at once when it has passed).
    package func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) {
        if deadline <= .now() {
            queue.async(execute: work)
        } else {
            queue.asyncAfter(deadline: deadline, execute: work)
        }
    }
}
