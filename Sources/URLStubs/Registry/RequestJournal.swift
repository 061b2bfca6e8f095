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

    private let fields = Locked(Fields())

    /// What the journal's lock guards.
    private struct Fields {
        var entries: [JournalEntry] = []
        /// Where the oldest entry is, once the ring is full.
        var start = 0
        var lastSequence: UInt64 = 0
        var unmatched = UnmatchedLedger()
        var bodyLimit = 32 * 1024
        /// Body bytes the entries in the ring keep.
        var bodyBytes = 0
        /// Entries older than this sequence number have had their bodies dropped.
        var bodiesKeptFrom: UInt64 = 0
        /// The tests waiting for entries (``JournalWaiters``): under this lock, so recording an
        /// entry takes one lock whether or not anyone waits.
        var waiting: [JournalWaiter] = []
    }
    /// Tests waiting for requests (``StubRegistry/waitForRequests(matching:count:timeout:)``).
    let waiters: JournalWaiters

    init(waiterLane: UserCodeRunner.Lane) {
        waiters = JournalWaiters(lane: waiterLane)
        waiters.journal = self
    }

    /// The entries, oldest first.
    var all: [JournalEntry] {
        fields.withLock { fields in
            guard fields.start > 0 else { return fields.entries }
            return Array(fields.entries[fields.start...]) + fields.entries[..<fields.start]
        }
    }

    /// How many bytes of each request body an entry keeps.
    var bodyLimit: Int {
        get { fields.withLock { $0.bodyLimit } }
        set { fields.withLock { $0.bodyLimit = max(0, newValue) } }
    }

    /// Unmatched requests since the last reset, each distinct one once.
    var unmatchedGroups: (groups: [UnmatchedLedger.Group], overflow: Int) {
        fields.withLock { ($0.unmatched.groups, $0.unmatched.overflow) }
    }

    func removeAll() {
        fields.withLock { fields in
            fields.entries.removeAll()
            fields.start = 0
            fields.bodyBytes = 0
            fields.unmatched.removeAll()
        }
    }

    /// Adds `entry`; returns its number, for ``complete(_:_:)``.
    ///
    /// - Parameter scrubbing: What the entry's description hides.
    @discardableResult
    func record(_ entry: consuming JournalEntry, scrubbing: Scrubbing) -> UInt64 {
        var entry = entry
        entry.scrubbing = scrubbing
        return fields.withLock { fields in
            fields.lastSequence += 1
            entry.sequence = fields.lastSequence
            if entry.isUnmatched { fields.unmatched.add(entry, journalBodyLimit: fields.bodyLimit) }
            entry.limitBody(to: fields.bodyLimit)
            fields.bodyBytes += entry.request.body?.count ?? 0
            // Told before the entry moves into the ring, still under the lock: a waiter starting
            // meanwhile reads the journal after this, and sees the entry once either way (waiters
            // tell entries apart by sequence).
            waiters.recorded(entry, to: fields.waiting)
            // A ring once full: dropping the oldest must not move 10,000 entries per request.
            if fields.entries.count < Self.capacity {
                fields.entries.append(entry)
            } else {
                fields.bodyBytes -= fields.entries[fields.start].request.body?.count ?? 0
                fields.entries[fields.start] = entry
                fields.start = (fields.start + 1) % Self.capacity
            }
            if fields.bodyBytes > Self.bodyBudget { Self.dropOldestBodies(&fields) }
            return fields.lastSequence
        }
    }

    /// Drops the bodies of the oldest entries until the rest fit ``bodyBudget`` (under the
    /// lock). Sequence numbers in the ring follow each other, so an entry is found by its number.
    private static func dropOldestBodies(_ fields: inout Fields) {
        let count = fields.entries.count
        let oldest = fields.entries[fields.start].sequence
        var next = max(fields.bodiesKeptFrom, oldest)
        while fields.bodyBytes > Self.bodyBudget, next <= fields.lastSequence {
            let index = (fields.start + Int(next - oldest)) % count
            fields.bodyBytes -= fields.entries[index].request.body?.count ?? 0
            fields.entries[index].limitBody(to: 0)
            next += 1
        }
        fields.bodiesKeptFrom = next
    }

    /// Adds `waiter` to the list every recorded entry is told to.
    func register(_ waiter: JournalWaiter) {
        fields.withLock { $0.waiting.append(waiter) }
    }

    /// `true` when no test waits for entries.
    var hasNoWaiters: Bool { fields.withLock { $0.waiting.isEmpty } }

    /// Removes `waiter` from that list.
    func unregister(_ waiter: JournalWaiter) {
        fields.withLock { fields in fields.waiting.removeAll { $0 === waiter } }
    }

    /// Changes the entry numbered `sequence`, if still in the ring (an exchange that ended says
    /// what its client saw). Searches from the newest entry: the one wanted is recent.
    func complete(_ sequence: UInt64, _ change: (inout JournalEntry) -> Void) {
        fields.withLock { fields in
            let count = fields.entries.count
            for offset in 0..<count {
                let index = (fields.start + count - 1 - offset) % count
                if fields.entries[index].sequence == sequence {
                    change(&fields.entries[index])
                    return
                }
                if fields.entries[index].sequence < sequence { return }
            }
        }
    }
}
