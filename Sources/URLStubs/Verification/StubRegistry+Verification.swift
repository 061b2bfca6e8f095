import Foundation

extension StubRegistry {
    /// Checks what happened against what was declared: every request must have matched a stub
    /// (passthrough requests of a `.passthrough` registry count as unexpected only when
    /// `includePassedThrough` is `true`) or an ``expectUnmatched(_:_:fileID:filePath:line:)``
    /// declaration, every stub with an ``ExpectedCount`` must have answered accordingly, and
    /// every entry of a recording replayed with `HARReplayOptions.reportsUnusedEntries` (as
    /// `record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`
    /// does) must have been requested.
    ///
    /// ```swift
    /// let report = registry.verify()
    /// #expect(report.isSuccess, "\(report)")
    /// ```
    ///
    /// Each distinct unexpected request is explained against the stubs the registry holds now
    /// (the closest ones, why each refused, a stub to paste), as the error it failed with was.
    /// Its secrets (``scrubbing``) are printed as `<scrubbed>`.
    public func verify(includePassedThrough: Bool = false) -> VerificationReport {
        let declarations = expectedUnmatchedRequests
        var accepted = Array(repeating: 0, count: declarations.count)
        var unexpected: [JournalEntry] = []
        var counts: [String: Int] = [:]
        let (groups, overflow) = unmatchedRequestGroups
        for group in groups {
            let entry = group.first
            if let index = declarations.firstIndex(where: { $0.matcher.matches(entry.request) }) {
                accepted[index] += group.count
            } else if includePassedThrough || !entry.wentToNetwork {
                unexpected.append(entry)
                counts[VerificationReport.groupingKey(entry.request)] = group.count
            }
        }
        let stubs = self.stubs
        let unmet = stubs.compactMap { stub -> VerificationReport.CountMismatch? in
            guard let expected = stub.expectedActivations else { return nil }
            let actual = stub.activationCount
            return expected.accepts(actual) ? nil : .init(stub: stub, expected: expected, actual: actual)
        }
        let unmetUnmatched = zip(declarations, accepted).compactMap { declaration, actual in
            declaration.count.accepts(actual) ? nil : VerificationReport.UnmatchedCountMismatch(expectation: declaration, actual: actual)
        }
        var report = VerificationReport(
            unexpected: unexpected, unexpectedCounts: counts, uncounted: overflow, unmet: unmet,
            invalid: stubs.filter { !$0.matcher.problems.isEmpty }, invalidResponses: stubs.filter { !$0.invalidResponses.isEmpty },
            unmetUnmatched: unmetUnmatched,
            nearMisses: nearMisses(for: unexpected, stubs: stubs))
        report.scrubbing = scrubbing
        for entry in unexpected {
            report.printedRequests[VerificationReport.groupingKey(entry.request)] =
                ReportText.bounded(entry.scrubbing.redactor(for: entry.request).redact(entry.request.description))
        }
        for problem in installationProblems {
            if let index = report.unstubbable.firstIndex(where: { $0.problem.description == problem.description }) {
                report.unstubbable[index].count += 1
            } else {
                report.unstubbable.append((problem, 1))
            }
        }
        report.unusedRecorded = stubs.filter { $0.isRecordedEntryReportedWhenUnused && $0.activationCount == 0 }
        report.checkerProblems = snapshot().checkers.flatMap { $0.verificationProblems() }
        report.journalWasEmpty =
            groups.isEmpty && overflow == 0 && stubs.allSatisfy { $0.activationCount == 0 } && journal.isEmpty
        return report
    }

    /// How many distinct unexpected requests get a near-miss analysis: each one ranks every
    /// stub, and a report past this many is read no further.
    static let explainedUnexpectedRequests = 20

    /// The near-miss report of each distinct request without its headline, which the problem's
    /// summary already says.
    private func nearMisses(for entries: [JournalEntry], stubs: [StubDescriptor]) -> [String: String] {
        var analyses: [String: String] = [:]
        for entry in entries {
            let key = VerificationReport.groupingKey(entry.request)
            guard analyses[key] == nil else { continue }
            guard analyses.count < Self.explainedUnexpectedRequests else { break }
            var report = UnmatchedReport(request: entry.request, stubs: stubs, scrubbing: entry.scrubbing)
            report.showsDeclarations = showsDeclarationsInReports
            var lines = addingReportNotes(to: report.text).split(separator: "\n", omittingEmptySubsequences: false)
            if lines.first?.hasPrefix("URLStubs: no stub matches") == true { lines.removeFirst() }
            analyses[key] = lines.joined(separator: "\n")
        }
        return analyses
    }

    /// ``verify(includePassedThrough:)``, throwing its ``VerificationReport`` when the report
    /// has a problem.
    public func verifyOrThrow(includePassedThrough: Bool = false) throws {
        let report = verify(includePassedThrough: includePassedThrough)
        if !report.isSuccess { throw report }
    }
}
