import Foundation
import Dispatch

/// The tests waiting on a registry's journal (``StubRegistry/waitForRequests(matching:count:timeout:)``).
///
/// The journal keeps the list of waiters under its own lock and tells them about every entry
/// it records. With nobody waiting that costs nothing more; otherwise each entry is judged in
/// order on a serial lane of the ``UserCodeRunner``, since matchers are user code and entries
/// are recorded on the loading context.
final class JournalWaiters: @unchecked Sendable {
    // @unchecked: `journal` is set once, by the journal's initializer, before any use.
    /// The journal whose lock guards the list.
    weak var journal: RequestJournal?
    /// Serial: entries are judged one after the other, in the order they were recorded.
    private let lane: UserCodeRunner.Lane

    init(lane: UserCodeRunner.Lane) {
        precondition(lane.limit == 1, "waiters judge entries in order")
        self.lane = lane
    }

    private func onLane(_ work: @escaping @Sendable () -> Void) {
        UserCodeRunner.shared.run(in: lane, work)
    }

    /// Called by the journal, under its lock, for each entry it records, with the waiters then.
    func recorded(_ entry: JournalEntry, to current: [JournalWaiter]) {
        guard !current.isEmpty else { return }
        onLane {
            for waiter in current { waiter.consider(entry) }
        }
    }

    /// Starts `waiter`: it is registered first, then judges the journal as it is, on the queue,
    /// so an entry recorded in between is seen once (entries are told apart by sequence number).
    func add(_ waiter: JournalWaiter, journal entries: @escaping @Sendable () -> [JournalEntry]) {
        onLane { [self] in
            journal?.register(waiter)
            for entry in entries() { waiter.consider(entry) }
        }
    }

    /// `true` when no test is waiting.
    var isEmpty: Bool { journal?.hasNoWaiters ?? true }

    /// Stops `waiter`, after its start (both run on the queue, in order).
    func remove(_ waiter: JournalWaiter) {
        onLane { [self] in journal?.unregister(waiter) }
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
