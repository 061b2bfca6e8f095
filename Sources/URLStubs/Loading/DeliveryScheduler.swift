import Foundation
import Dispatch

/// Runs a loading request's steps, one at a time, where the platform allows client
/// callbacks: on Linux the task's serial work queue, on Apple platforms the thread that
/// started loading. Every step of a ``ResponsePlayer`` goes through one of these, so the
/// player never needs a lock around a callback and never blocks a thread while it waits.
protocol DeliveryScheduler: Sendable {
    /// Runs `work` as soon as possible, after whatever is already queued.
    func async(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` at `deadline` (or as soon as possible if it has passed).
    func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void)
    /// Runs `work` on the context from a thread that is not the context's, and waits for it
    /// where the context allows that (a serial queue: the waiting thread runs `work` itself, with
    /// no thread to wake), else as ``async(_:)``. Never call it from the context itself, nor
    /// from a thread the context may be waiting for.
    func run(fromAnotherThread work: @escaping @Sendable () -> Void)
}

extension DeliveryScheduler {
    func run(fromAnotherThread work: @escaping @Sendable () -> Void) { async(work) }
}

/// Delivers on a serial dispatch queue (Linux: the task's work queue, found in
/// ``CorelibsTaskState``). Waiting is `asyncAfter`, so a paced body never occupies the
/// process-wide queue that every session's work queue targets.
struct DispatchQueueScheduler: DeliveryScheduler {
    let queue: DispatchQueue

    func async(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) {
        if deadline <= .now() {
            queue.async(execute: work)
        } else {
            queue.asyncAfter(deadline: deadline, execute: work)
        }
    }

    /// `sync`: the caller (a user-code thread, done with its work) runs the step itself once
    /// the queue is free, which saves waking a thread of the queue for it.
    func run(fromAnotherThread work: @escaping @Sendable () -> Void) {
        queue.sync(execute: work)
    }
}
