import Foundation

/// Every request a registry saw: a ring of the newest entries, the ledger of unmatched requests
/// that verification reads, and the tests waiting for entries. Its own lock: recording an entry
/// never waits for the stub table, and the table never waits for the journal.
final class RequestJournal: @unchecked Sendable {
    /// Entries past this many push out the oldest.
    static let capacity = 10_000

    private let fields = Locked(Fields())

    /// What the journal's lock guards.
    private struct Fields {
        var entries: [JournalEntry] = []
        /// Where the oldest entry is, once the ring is full.
        var start = 0
        var lastSequence: UInt64 = 0
        var unmatched = UnmatchedLedger()
        var bodyLimit = 32 * 1024
    }
    /// Tests waiting for requests (``StubRegistry/waitForRequests(matching:count:timeout:)``).
    let waiters: JournalWaiters

    init(waiterLane: UserCodeRunner.Lane) {
        waiters = JournalWaiters(lane: waiterLane)
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
            if entry.isUnmatched { fields.unmatched.add(entry) }
            entry.limitBody(to: fields.bodyLimit)
            // Told before the entry moves into the ring, still under the lock: a waiter starting
            // meanwhile reads the journal after this, and sees the entry once either way (waiters
            // tell entries apart by sequence).
            waiters.recorded(entry)
            // A ring once full: dropping the oldest must not move 10,000 entries per request.
            if fields.entries.count < Self.capacity {
                fields.entries.append(entry)
            } else {
                fields.entries[fields.start] = entry
                fields.start = (fields.start + 1) % Self.capacity
            }
            return fields.lastSequence
        }
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
