import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The registry's record of every request (a ``RequestJournal``), as tests read it.
extension StubRegistry {
    /// Every request this registry saw, matched or not, oldest first (the newest 10,000).
    ///
    /// Entries keep request bodies up to ``journalBodyLimit`` bytes (``JournalEntry/cutBodySize``
    /// says when one was cut). Verification does not read this ring: unexpected requests are
    /// counted apart from it, so none is forgotten however many requests follow.
    public var journal: [JournalEntry] { requests.all }

    /// Empties the journal: ``verify(includePassedThrough:)`` then judges only the requests
    /// made after this call (stubs keep their activation counts).
    ///
    /// ```swift
    /// _ = try? await session.data(from: URL(string: "https://api.example.com/missing")!)  // on purpose
    /// registry.resetJournal()   // that unmatched request is no longer reported
    /// ```
    public func resetJournal() { requests.removeAll() }

    /// How many bytes of each request body the journal keeps (32 KiB by default): 10,000
    /// uploads of a megabyte must not hold 10 GB. Matchers, response closures and hooks always
    /// see the whole body; the first time each unexpected request came is also kept whole, for
    /// ``verify(includePassedThrough:)``'s analysis.
    public var journalBodyLimit: Int {
        get { requests.bodyLimit }
        set { requests.bodyLimit = newValue }
    }

    /// Unmatched requests since the journal was last reset, each distinct one once.
    var unmatchedRequestGroups: (groups: [UnmatchedLedger.Group], overflow: Int) { requests.unmatchedGroups }

    /// Adds `entry` to the journal; returns its number, for ``completeJournalEntry(_:_:)``.
    @discardableResult
    func record(_ entry: consuming JournalEntry, scrubbing: Scrubbing) -> UInt64 {
        requests.record(entry, scrubbing: scrubbing)
    }

    /// Changes the entry numbered `sequence`, if still in the journal.
    func completeJournalEntry(_ sequence: UInt64, _ change: (inout JournalEntry) -> Void) {
        requests.complete(sequence, change)
    }
}
