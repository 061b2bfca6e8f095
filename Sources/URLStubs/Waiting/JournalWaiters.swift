import Foundation
import Dispatch

/// The tests waiting on a registry's journal (``StubRegistry/waitForRequests(matching:count:timeout:)``).
///
/// The journal tells this list about every entry it records. With nobody waiting that costs one
/// lock; otherwise each entry is judged in order on a serial lane of the ``UserCodeRunner``,
/// since matchers are user code and entries are recorded on the loading context.
final class JournalWaiters: @unchecked Sendable {
    private let waiters = Locked<[JournalWaiter]>([])
    /// Serial: entries are judged one after the other, in the order they were recorded.
    private let lane: UserCodeRunner.Lane

    init(lane: UserCodeRunner.Lane) {
        precondition(lane.limit == 1, "waiters judge entries in order")
        self.lane = lane
    }

    private func onLane(_ work: @escaping @Sendable () -> Void) {
        UserCodeRunner.shared.run(in: lane, work)
    }

    /// Called by the journal for each entry it records.
    func recorded(_ entry: JournalEntry) {
        let current = waiters.withLock { $0 }
        guard !current.isEmpty else { return }
        onLane {
            for waiter in current { waiter.consider(entry) }
        }
    }

    /// Starts `waiter`: it is registered first, then judges the journal as it is, on the queue,
    /// so an entry recorded in between is seen once (entries are told apart by sequence number).
    func add(_ waiter: JournalWaiter, journal: @escaping @Sendable () -> [JournalEntry]) {
        onLane { [self] in
            waiters.withLock { $0.append(waiter) }
            for entry in journal() { waiter.consider(entry) }
        }
    }

    /// `true` when no test is waiting.
    var isEmpty: Bool {
        waiters.withLock { $0.isEmpty }
    }

    /// Stops `waiter`, after its start (both run on the queue, in order).
    func remove(_ waiter: JournalWaiter) {
        onLane { [self] in
            waiters.withLock { waiters in waiters.removeAll { $0 === waiter } }
        }
    }
}

/// One call of `waitForRequests`: collects matching entries until it has enough.
final class JournalWaiter: @unchecked Sendable {
    // @unchecked: `found` and `lastSequence` are touched on the waiters' queue only.
    let matcher: RequestMatcher
    let count: Int
    let wait: PendingWait<[JournalEntry]>
    private var found: [JournalEntry] = []
    private var lastSequence: UInt64 = 0

    init(matcher: RequestMatcher, count: Int, wait: PendingWait<[JournalEntry]>) {
        self.matcher = matcher
        self.count = count
        self.wait = wait
    }

    func consider(_ entry: JournalEntry) {
        guard entry.sequence > lastSequence, !wait.isResolved else { return }
        lastSequence = entry.sequence
        guard matcher.matches(entry.request) else { return }
        found.append(entry)
        if found.count >= count { wait.resolve(.success(found)) }
    }
}
