import Foundation
import Dispatch

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
///   time: the runner watches the requests that wait for its jobs (``UserCodeWatch``) with a dispatch
///   timer, which user code no longer starves.
/// - Threads are made when needed and leave after ``idleSeconds`` without work.
final class UserCodeRunner: @unchecked Sendable {
    // @unchecked: every mutable field, here and in `Lane` and `Worker`, is guarded by
    // `condition`; the runtime's exclusivity checks would only repeat that.

    /// The runner every registry uses.
    static let shared = UserCodeRunner(maximumThreads: 128)

    /// Jobs of one owner (a registry, or its hooks), run at most ``limit`` at a time, in the
    /// order they were handed in.
    final class Lane: @unchecked Sendable {
        /// How many jobs of this lane may run at once (1: one after the other, in order).
        let limit: Int
        @exclusivity(unchecked) fileprivate var running = 0
        @exclusivity(unchecked) fileprivate var waiting = FIFOQueue<Job>()
        @exclusivity(unchecked) fileprivate var isQueued = false
        /// In the runner's `watchedLanes`: it may hold a waiting job with a ``Watch``.
        @exclusivity(unchecked) fileprivate var isWatched = false

        init(limit: Int) { self.limit = max(1, limit) }
    }

    /// A job as the queues hold it. A closure inside a struct is stored as it is, not
    /// re-wrapped (and allocated) for a generic container.
    fileprivate struct Job {
        let run: @Sendable () -> Void
        var watch: UserCodeWatch?
    }

    /// One thread of the runner, and the watch of the job it runs.
    private final class Worker {
        @exclusivity(unchecked) var watch: UserCodeWatch?
    }

    /// Threads past this many are not made: jobs wait for one to come free.
    let maximumThreads: Int
    /// A thread with nothing to do for this long leaves.
    static let idleSeconds: TimeInterval = 5

    private let condition = NSCondition()
    /// Lanes with a job waiting and room to run it, oldest first.
    @exclusivity(unchecked) private var ready = FIFOQueue<Lane>()
    @exclusivity(unchecked) private var threads = 0
    @exclusivity(unchecked) private var idleThreads = 0
    /// Every thread's worker, for the watch timer.
    @exclusivity(unchecked) private var workers: [Worker] = []
    /// Lanes that may hold a waiting job with a watch.
    @exclusivity(unchecked) private var watchedLanes: [Lane] = []
    /// The moment the watch timer is set for (`.max`: not set).
    @exclusivity(unchecked) private var watchTimerDue = UInt64.max
    private let watchTimer: DispatchSourceTimer

    init(maximumThreads: Int) {
        self.maximumThreads = max(1, maximumThreads)
        watchTimer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "URLStubs.UserCodeRunner.watch"))
        watchTimer.setEventHandler { [weak self] in self?.lookAtWatches() }
        watchTimer.schedule(deadline: .distantFuture)
        watchTimer.resume()
    }

    deinit { watchTimer.cancel() }

    /// Runs `job` on a thread of this runner, in `lane`'s turn. With a `watch`, the request
    /// that waits for the job's answer is told when the job outlasts `watch.due`.
    func run(in lane: Lane, watch: UserCodeWatch? = nil, _ job: @escaping @Sendable () -> Void) {
        condition.lock()
        lane.waiting.append(Job(run: job, watch: watch))
        if let watch {
            if !lane.isWatched {
                lane.isWatched = true
                watchedLanes.append(lane)
            }
            setWatchTimerLocked(watch.due)
        }
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
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    private func makeReadyLocked(_ lane: Lane) {
        guard !lane.isQueued, !lane.waiting.isEmpty, lane.running < lane.limit else { return }
        lane.isQueued = true
        ready.append(lane)
    }

    private func nextJobLocked() -> (Lane, Job)? {
        guard let lane = ready.popFirst(), let job = lane.waiting.popFirst() else { return nil }
        lane.isQueued = false
        lane.running += 1
        makeReadyLocked(lane)
        return (lane, job)
    }

    private func work() {
        let worker = Worker()
        condition.lock()
        workers.append(worker)
        while true {
            if let (lane, job) = nextJobLocked() {
                worker.watch = job.watch
                condition.unlock()
                job.run()
                condition.lock()
                worker.watch = nil
                lane.running -= 1
                makeReadyLocked(lane)
                continue
            }
            idleThreads += 1
            let signalled = condition.wait(until: Date(timeIntervalSinceNow: Self.idleSeconds))
            idleThreads -= 1
            if !signalled, ready.isEmpty {
                threads -= 1
                workers.removeAll { $0 === worker }
                condition.unlock()
                return
            }
        }
    }

    // MARK: Watches

    /// Sets the watch timer for `due` unless it fires before. Set under the lock, so a later
    /// setting never overtakes an earlier one.
    private func setWatchTimerLocked(_ due: UInt64) {
        guard due < watchTimerDue else { return }
        watchTimerDue = due
        watchTimer.schedule(deadline: DispatchTime(uptimeNanoseconds: due), leeway: TimeoutMonitor.leeway)
    }

    /// The watch timer fired: tells each request whose job outlasted its watch, forgets those
    /// watches, and sets the timer for the earliest one left.
    private func lookAtWatches() {
        let now = DispatchTime.now().uptimeNanoseconds
        var overdue: [ExchangePlayer] = []
        var next = UInt64.max
        func look(at watch: inout UserCodeWatch?) {
            guard let current = watch else { return }
            if current.due <= now {
                overdue.append(current.player)
                watch = nil
            } else {
                next = min(next, current.due)
            }
        }
        condition.lock()
        for worker in workers { look(at: &worker.watch) }
        watchedLanes.removeAll { lane in
            lane.waiting.updateEach { look(at: &$0.watch) }
            if lane.waiting.isEmpty { lane.isWatched = false }
            return !lane.isWatched
        }
        watchTimerDue = .max
        if next != .max { setWatchTimerLocked(next) }
        condition.unlock()
        for player in overdue { player.timeoutCheckDue() }
    }
}

/// A request whose answer waits for a job of the ``UserCodeRunner``, and when its timeout
/// wants a look.
///
/// The request's timeout clock is not armed while the job waits or runs: most jobs end in
/// microseconds, and a check registered per request with the ``TimeoutMonitor`` cost more than
/// the rest of the hand-over. The runner holds the job anyway; it holds this beside it, and one
/// timer of its own finds a job that outlasts `due`. The request then gets
/// ``ExchangePlayer/timeoutCheckDue()``, which fails it or registers its next check with the
/// monitor, and the runner forgets the watch. A job that ends first drops it.
package struct UserCodeWatch: Sendable {
    /// `DispatchTime.uptimeNanoseconds` of the look.
    let due: UInt64
    let player: ExchangePlayer
}
