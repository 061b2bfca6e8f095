import Foundation

/// Every request a registry saw: a ring of the newest entries, the ledger of unmatched requests
/// that verification reads, and the tests waiting for entries. Its own lock: recording an entry
/// never waits for the stub table, and the table never waits for the journal.
final class RequestJournal: @unchecked Sendable {
    /// Entries past this many push out the oldest.
    static let capacity = 10_000
    /// The request bodies the entries keep, together: past it, the oldest entries' bodies are
    /// dropped (their ``JournalEntry/cutBodySize`` says how large they were), so 10,000
    /// uploads of 32 KB hold 64 MB, not 320.
    static let bodyBudget = 64 * 1024 * 1024

    private let lock = NSLock()
    private var entries: [JournalEntry] = []
    /// Where the oldest entry is, once the ring is full.
    private var start = 0
    private var lastSequence: UInt64 = 0
    private var unmatched = UnmatchedLedger()
    private var bodyLimitValue = 32 * 1024
    /// Body bytes the entries in the ring keep.
    private var bodyBytes = 0
    /// Entries older than this sequence number have had their bodies dropped.
    private var bodiesKeptFrom: UInt64 = 0
    /// Tests waiting for requests (``StubRegistry/waitForRequests(matching:count:timeout:)``).
    let waiters: JournalWaiters

    init(waiterLane: UserCodeRunner.Lane) {
        waiters = JournalWaiters(lane: waiterLane)
    }

    /// The entries, oldest first.
    var all: [JournalEntry] {
        lock.lock(); defer { lock.unlock() }
        guard start > 0 else { return entries }
        return Array(entries[start...]) + entries[..<start]
    }

    /// How many bytes of each request body an entry keeps.
    var bodyLimit: Int {
        get { lock.lock(); defer { lock.unlock() }; return bodyLimitValue }
        set { lock.lock(); bodyLimitValue = max(0, newValue); lock.unlock() }
    }

    /// Unmatched requests since the last reset, each distinct one once.
    var unmatchedGroups: (groups: [UnmatchedLedger.Group], overflow: Int) {
        lock.lock(); defer { lock.unlock() }
        return (unmatched.groups, unmatched.overflow)
    }

    func removeAll() {
        lock.lock()
        entries.removeAll()
        start = 0
        bodyBytes = 0
        unmatched.removeAll()
        lock.unlock()
    }

    /// Adds `entry`; returns its number, for ``complete(_:_:)``.
    ///
    /// - Parameter scrubbing: What the entry's description hides.
    @discardableResult
    func record(_ entry: consuming JournalEntry, scrubbing: Scrubbing) -> UInt64 {
        entry.scrubbing = scrubbing
        lock.lock()
        lastSequence += 1
        entry.sequence = lastSequence
        if entry.isUnmatched { unmatched.add(entry, journalBodyLimit: bodyLimitValue) }
        entry.limitBody(to: bodyLimitValue)
        bodyBytes += entry.request.body?.count ?? 0
        // Told before the entry moves into the ring (no copy of it is made), still under the
        // lock: a waiter starting meanwhile reads the journal after this, and sees the entry
        // once either way (waiters tell entries apart by sequence).
        waiters.recorded(entry)
        let sequence = lastSequence
        // A ring once full: dropping the oldest must not move 10,000 entries per request.
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            bodyBytes -= entries[start].request.body?.count ?? 0
            entries[start] = entry
            start = (start + 1) % Self.capacity
        }
        if bodyBytes > Self.bodyBudget { dropOldestBodies() }
        lock.unlock()
        return sequence
    }

    /// Drops the bodies of the oldest entries until the rest fit ``bodyBudget`` (under the
    /// lock). Sequence numbers in the ring follow each other, so an entry is found by its number.
    private func dropOldestBodies() {
        let count = entries.count
        let oldest = entries[start].sequence
        var next = max(bodiesKeptFrom, oldest)
        while bodyBytes > Self.bodyBudget, next <= lastSequence {
            let index = (start + Int(next - oldest)) % count
            bodyBytes -= entries[index].request.body?.count ?? 0
            entries[index].limitBody(to: 0)
            next += 1
        }
        bodiesKeptFrom = next
    }

    /// Changes the entry numbered `sequence`, if still in the ring (an exchange that ended says
    /// what its client saw). Searches from the newest entry: the one wanted is recent.
    func complete(_ sequence: UInt64, _ change: (inout JournalEntry) -> Void) {
        lock.lock(); defer { lock.unlock() }
        let count = entries.count
        for offset in 0..<count {
            let index = (start + count - 1 - offset) % count
            if entries[index].sequence == sequence {
                change(&entries[index])
                return
            }
            if entries[index].sequence < sequence { return }
        }
    }
}
