import Foundation

/// Every unmatched request a registry saw, kept apart from the journal's ring, so
/// verification never forgets one however long the test: each distinct request (method, URL
/// and body, as ``VerificationReport`` groups them) once, with how often it came.
struct UnmatchedLedger {
    struct Group {
        /// The first time the request came, with its body up to ``bodyLimitPerRequest``.
        let first: JournalEntry
        var count: Int
    }

    /// Distinct requests past this many are counted in ``overflow`` only (a test that sends
    /// thousands of different unmatched requests has one problem to fix, not thousands).
    static let maximumGroups = 1_000
    /// The most body bytes kept of one unmatched request: enough for verification's analysis
    /// of any body a test would read, without 60 uploads of 60 MB holding 3.6 GB.
    static let bodyLimitPerRequest = 1024 * 1024
    /// The body bytes kept of all unmatched requests together; past it, a new one keeps what
    /// the journal keeps (``StubRegistry/journalBodyLimit``).
    static let bodyBudget = 64 * 1024 * 1024

    private(set) var groups: [Group] = []
    /// Requests that were not kept because ``maximumGroups`` was reached.
    private(set) var overflow = 0
    private var indexByKey: [String: Int] = [:]
    /// Body bytes the groups keep.
    private var bodyBytes = 0

    mutating func add(_ entry: JournalEntry, journalBodyLimit: Int) {
        let key = VerificationReport.groupingKey(entry.request)
        if let index = indexByKey[key] {
            groups[index].count += 1
        } else if groups.count < Self.maximumGroups {
            indexByKey[key] = groups.count
            var first = entry
            let budgetLeft = Self.bodyBudget - bodyBytes
            first.limitBody(to: budgetLeft >= Self.bodyLimitPerRequest ? Self.bodyLimitPerRequest : journalBodyLimit)
            bodyBytes += first.request.body?.count ?? 0
            groups.append(Group(first: first, count: 1))
        } else {
            overflow += 1
        }
    }

    mutating func removeAll() {
        groups.removeAll()
        indexByKey.removeAll()
        overflow = 0
        bodyBytes = 0
    }
}
