import Foundation

extension StubRegistry {
    /// Waits until `count` requests matching `matcher` are in the ``journal``, and returns the
    /// first `count` of them, oldest first. Requests that arrived before the call count: this
    /// returns at once when they are already there.
    ///
    /// For requests the app sends on its own schedule (analytics, a background refresh, a retry),
    /// where the test has nothing to `await`:
    ///
    /// ```swift
    /// app.trackPurchase()   // fires a request in the background
    /// let sent = try await registry.waitForRequests(matching: isPath("/analytics"), count: 1, timeout: 2)
    /// #expect(sent[0].request.bodyString?.contains("purchase") == true)
    /// ```
    ///
    /// A request counts as soon as the registry has matched it (before its response is sent),
    /// whether a stub answered it or not: the matcher here is only a filter on the journal.
    ///
    /// - Parameters:
    ///   - matcher: Which journal entries count.
    ///   - count: How many must arrive; 0 returns at once.
    ///   - timeout: Seconds to wait before throwing; generous by default, since a parallel
    ///     test suite on a small machine can start a request seconds late.
    /// - Returns: The first `count` matching entries.
    /// - Throws: ``VerificationReport`` (``VerificationProblem/Kind/waitTimedOut``) when they
    ///   have not all arrived in time: it lists what did arrive and why each other request the
    ///   registry saw does not match, closest first.
    ///   `CancellationError` when the waiting task is cancelled.
    /// - Important: ``resetJournal()`` forgets earlier requests: they no longer count. The
    ///   matcher sees each request as the journal keeps it, so a body matcher sees at most
    ///   ``journalBodyLimit`` bytes of a body (``JournalEntry/cutBodySize``).
    public func waitForRequests(matching matcher: RequestMatcher, count: Int = 1, timeout: TimeInterval = 30) async throws -> [JournalEntry] {
        guard count > 0 else { return [] }
        let waiters = requests.waiters
        let awaited = "\(count) request\(count == 1 ? "" : "s") matching \(matcher.description)"
        var registered: JournalWaiter?
        return try await PendingWait<[JournalEntry]>.run(
            timeout: timeout,
            timeoutError: { [weak self] in
                let journal = self?.journal ?? []
                let matched = Array(journal.filter { matcher.matches($0.request) }.prefix(count))
                let others = journal.filter { !matcher.matches($0.request) }
                return VerificationReport(
                    awaited: awaited, timeout: timeout, matched: matched, others: others, matcher: matcher,
                    hint: VerificationReport.noRequestSeenHint)
            },
            start: { wait in
                let waiter = JournalWaiter(matcher: matcher, count: count, wait: wait)
                registered = waiter
                waiters.add(waiter) { [weak self] in self?.journal ?? [] }
            },
            finish: { _ in
                registered.map(waiters.remove)
            })
    }
}
