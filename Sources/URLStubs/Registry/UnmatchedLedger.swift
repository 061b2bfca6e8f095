import Foundation

/// Every unmatched request a registry saw, kept apart from the journal's ring, so
/// verification never forgets one however long the test: each distinct request (method, URL
/// and body, as ``VerificationReport`` groups them) once, with how often it came.
struct UnmatchedLedger {
    struct Group {
        /// The first time the request came, with its whole body.
        let first: JournalEntry
        var count: Int
    }

    /// Distinct requests past this many are counted in ``overflow`` only (a test that sends
    /// thousands of different unmatched requests has one problem to fix, not thousands).
    static let maximumGroups = 1_000

    private(set) var groups: [Group] = []
    /// Requests that were not kept because ``maximumGroups`` was reached.
    private(set) var overflow = 0
    private var indexByKey: [String: Int] = [:]

    mutating func add(_ entry: JournalEntry) {
        let key = VerificationReport.groupingKey(entry.request)
        if let index = indexByKey[key] {
            groups[index].count += 1
        } else if groups.count < Self.maximumGroups {
            indexByKey[key] = groups.count
            groups.append(Group(first: entry, count: 1))
        } else {
            overflow += 1
        }
    }

    mutating func removeAll() {
        groups.removeAll()
        indexByKey.removeAll()
        overflow = 0
    }
}
