import Foundation

/// Runs the code a test or app hands URLStubs (response closures, body streams, passthrough
/// transforms, hooks, matchers of waits) on threads of its own, never on the loading context.
///
/// The bound, and why: dispatch's worker pool holds about 255 threads for the whole process,
/// and the loading context, every session's work queue and URLStubs' timeout clock all need a
/// thread from it. User code that blocks on dispatch threads can take them all, and then no
/// request of any session moves again, not even to time out. So user code runs on dedicated
/// threads (`Thread`, not dispatch workers), and never more than ``maximumThreads`` of them:
///
/// - Each registry has a ``Lane``: at most ``Lane/limit`` of its jobs run at once; the others
///   wait in order. So one registry whose closures all block holds at most that many threads,
///   and another registry's closure still finds one.
/// - A job waiting for a thread costs no thread. The request it belongs to still times out on
///   time: the timeout clock runs on dispatch, which user code no longer starves.
/// - Threads are made when needed and leave after ``idleSeconds`` without work.
final class UserCodeRunner: @unchecked Sendable {
    /// The runner every registry uses.
    static let shared = UserCodeRunner(maximumThreads: 128)

    /// Jobs of one owner (a registry, or its hooks), run at most ``limit`` at a time, in the
    /// order they were handed in.
    final class Lane: @unchecked Sendable {
        // @unchecked: every field is guarded by the runner's lock.
        /// How many jobs of this lane may run at once (1: one after the other, in order).
        let limit: Int
        fileprivate var running = 0
        fileprivate var waiting = FIFOQueue<@Sendable () -> Void>()
        fileprivate var isQueued = false

        init(limit: Int) { self.limit = max(1, limit) }
    }

    /// Threads past this many are not made: jobs wait for one to come free.
    let maximumThreads: Int
    /// A thread with nothing to do for this long leaves.
    static let idleSeconds: TimeInterval = 5

    private let condition = NSCondition()
    /// Lanes with a job waiting and room to run it, oldest first.
    private var ready = FIFOQueue<Lane>()
    private var threads = 0
    private var idleThreads = 0

    init(maximumThreads: Int) {
        self.maximumThreads = max(1, maximumThreads)
    }

    /// Runs `job` on a thread of this runner, in `lane`'s turn.
    func run(in lane: Lane, _ job: @escaping @Sendable () -> Void) {
        condition.lock()
        lane.waiting.append(job)
        makeReadyLocked(lane)
        // A thread for each runnable lane no idle thread will take, up to the bound.
        let startThread = ready.count > idleThreads && threads < maximumThreads
        if startThread { threads += 1 }
        condition.unlock()
        if startThread {
            let thread = Thread { [self] in work() }
            thread.name = "URLStubs.UserCode"
            thread.start()
        } else {
            condition.signal()
        }
    }

    /// Threads alive now (for tests of the bound).
    var threadCount: Int {
        condition.lock(); defer { condition.unlock() }
        return threads
    }

    private func makeReadyLocked(_ lane: Lane) {
        guard !lane.isQueued, !lane.waiting.isEmpty, lane.running < lane.limit else { return }
        lane.isQueued = true
        ready.append(lane)
    }

    private func nextJobLocked() -> (Lane, @Sendable () -> Void)? {
        guard let lane = ready.popFirst(), let job = lane.waiting.popFirst() else { return nil }
        lane.isQueued = false
        lane.running += 1
        makeReadyLocked(lane)
        return (lane, job)
    }

    private func work() {
        condition.lock()
        while true {
            if let (lane, job) = nextJobLocked() {
                condition.unlock()
                job()
                condition.lock()
                lane.running -= 1
                makeReadyLocked(lane)
                continue
            }
            idleThreads += 1
            let signalled = condition.wait(until: Date(timeIntervalSinceNow: Self.idleSeconds))
            idleThreads -= 1
            if !signalled, ready.isEmpty {
                threads -= 1
                condition.unlock()
                return
            }
        }
    }
}
