import Foundation

/// The outcome of ``StubRegistry/verify(includePassedThrough:)``: requests no stub expected,
/// and stubs whose use broke their ``ExpectedCount``.
///
/// `description` is one report meant to be read in a test failure. An unexpected request
/// carries the same analysis as the error it failed with: the closest stubs, why each refused,
/// and a stub to paste (the app may have swallowed that error):
///
/// ```text
/// URLStubs verification failed (2 problems):
/// - "refresh token" (AuthTests.swift:12) was expected exactly once, answered 0 times
/// - unexpected request: GET https://api.example.com/users?page=2 (no stub matched)
///   Closest stubs:
///     1. "users" (AuthTests.swift:14)
///        - expected query parameter "page" = "1", got "2"
///   To stub this request, add:
///       registry.stub(isMethodGET() && isHost("api.example.com") && isPath("/users") && containsQueryParams(["page": "2"])) { _ in
///           StubResponse(data: Data(), statusCode: 200)
///       }
/// ```
public struct VerificationReport: Sendable, CustomStringConvertible {
    /// A stub whose activation count broke its expectation.
    public struct UnmetExpectation: Sendable, CustomStringConvertible {
        /// The stub.
        public let stub: StubDescriptor
        /// What was expected.
        public let expected: ExpectedCount
        /// How many times it answered.
        public let actual: Int

        /// One line: the stub, where it was declared, and the counts.
        public var description: String {
            "\(stub) was expected \(expected), answered \(times(actual))"
        }
    }

    /// An ``ExpectedUnmatchedRequest`` whose requests came more or less often than declared.
    public struct UnmetUnmatchedExpectation: Sendable, CustomStringConvertible {
        /// The declaration.
        public let expectation: ExpectedUnmatchedRequest
        /// How many unmatched requests it accepted.
        public let actual: Int

        /// One line: the declaration, where it was written, and the counts.
        public var description: String {
            "an \(expectation) was expected \(expectation.count), seen \(times(actual))"
        }
    }

    /// Requests that no stub matched and no ``ExpectedUnmatchedRequest`` accepted: each
    /// distinct one (method, URL and body) once, the first time it came, in the order they
    /// first arrived. ``count(of:)`` says how often each came.
    public let unexpectedRequests: [JournalEntry]
    /// How often each unexpected request came, by ``groupingKey(_:)``.
    let unexpectedCounts: [String: Int]
    /// Unexpected requests beyond the distinct ones the registry keeps (see
    /// 1,000), counted only.
    public let uncountedUnexpectedRequests: Int
    /// Stubs used more or less often than declared.
    public let unmetExpectations: [UnmetExpectation]
    /// Stubs whose matcher could not be built (an invalid regular expression, say).
    public let invalidStubs: [StubDescriptor]
    /// Declarations of expected unmatched requests whose count was broken.
    public let unmetUnmatchedExpectations: [UnmetUnmatchedExpectation]
    /// The near-miss analysis of each distinct unexpected request, by ``groupingKey(_:)``.
    let nearMisses: [String: String]
    /// Stubs replaying a recorded request the test never made (see
    /// ``HARReplayOptions/reportsUnusedEntries``), named by archive, method and URL.
    public internal(set) var unusedRecordedEntries: [StubDescriptor] = []
    /// Each distinct unexpected request as printed, its secrets scrubbed, by ``groupingKey(_:)``.
    var printedRequests: [String: String] = [:]
    /// What the registry's ``ExchangeChecker``s found (a contract check's violations).
    var checkerProblems: [VerificationProblem] = []

    /// `true` when there is nothing to report.
    public var isSuccess: Bool {
        unexpectedRequests.isEmpty && unmetExpectations.isEmpty && invalidStubs.isEmpty && unmetUnmatchedExpectations.isEmpty
            && uncountedUnexpectedRequests == 0 && unusedRecordedEntries.isEmpty && checkerProblems.isEmpty
    }

    /// How many times the unexpected request `entry` (one of ``unexpectedRequests``) came.
    public func count(of entry: JournalEntry) -> Int {
        unexpectedCounts[Self.groupingKey(entry.request)] ?? 0
    }

    /// Unexpected requests are reported once per method, URL and body.
    static func groupingKey(_ request: StubRequest) -> String {
        guard let body = request.body, !body.isEmpty else { return request.description }
        return request.description + "\n" + String(decoding: body.prefix(4_096), as: UTF8.self)
    }

    /// Every problem, with the source location it belongs to (the stub's declaration, or
    /// `nil` for an unexpected request), for test frameworks to record. Identical unexpected
    /// requests (a polling loop, a retry) are one problem with a count.
    public var problems: [VerificationProblem] {
        let order = unexpectedRequests.map { (key: Self.groupingKey($0.request), entry: $0) }
        let overflow =
            uncountedUnexpectedRequests == 0
            ? []
            : [
                VerificationProblem(
                    summary:
                        "\(uncountedUnexpectedRequests) more unexpected requests, beyond the \(UnmatchedLedger.maximumGroups) distinct ones listed",
                    location: nil)
            ]
        return unmetExpectations.map { VerificationProblem(summary: $0.description, location: $0.stub.location) }
            + invalidStubs.map {
                VerificationProblem(
                    summary: "\($0) has an invalid matcher: \($0.matcher.problems.joined(separator: "; "))",
                    location: $0.location)
            }
            + unmetUnmatchedExpectations.map { VerificationProblem(summary: $0.description, location: $0.expectation.location) }
            + order.map { key, entry in
                let times = unexpectedCounts[key] ?? 1
                return VerificationProblem(
                    summary:
                        "unexpected request: \(printedRequests[key] ?? entry.request.description) (no stub matched\(times > 1 ? ", \(times) times" : ""))",
                    details: nearMisses[key], location: nil)
            }
            + overflow
            + unusedRecordedEntries.map {
                VerificationProblem(summary: "recorded request never made: \($0) (re-record, or remove the entry)", location: $0.location)
            }
            + checkerProblems
    }

    /// The whole report.
    public var description: String {
        if isSuccess { return "URLStubs verification passed." }
        let problems = self.problems
        let lines = problems.map { problem in
            "- " + problem.message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
        }
        return "URLStubs verification failed (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + lines.joined(separator: "\n")
    }
}

/// One problem found by ``StubRegistry/verify(includePassedThrough:)``.
public struct VerificationProblem: Sendable, CustomStringConvertible {
    /// One line: what broke (`"login" (LoginTests.swift:12) was expected exactly once,
    /// answered 0 times`, `unexpected request: GET https://… (no stub matched)`).
    public let summary: String
    /// More lines, for an unexpected request: the closest stubs, why each refused, and a stub
    /// that would have matched.
    public let details: String?
    /// Where the problem was declared (the stub, the ``ExpectedUnmatchedRequest``), `nil` for
    /// an unexpected request.
    public let location: StubLocation?

    init(summary: String, details: String? = nil, location: StubLocation?) {
        self.summary = summary
        self.details = details
        self.location = location
    }

    /// The summary, then the details on the following lines.
    public var message: String { details.map { summary + "\n" + $0 } ?? summary }

    /// Same as ``message``.
    public var description: String { message }
}

/// "once", "twice", "3 times".
private func times(_ count: Int) -> String {
    count == 1 ? "once" : count == 2 ? "twice" : "\(count) times"
}

/// Thrown by ``StubRegistry/verifyOrThrow(includePassedThrough:)``; its description is the report.
public struct VerificationFailure: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The report.
    public let report: VerificationReport
    /// The report's text.
    public var description: String { report.description }
    /// The report's text.
    public var errorDescription: String? { report.description }
}

extension StubRegistry {
    /// Checks what happened against what was declared: every request must have matched a stub
    /// (passthrough requests of a `.passThrough` registry count as unexpected only when
    /// `includePassedThrough` is `true`) or an ``expectUnmatched(_:_:fileID:filePath:line:)``
    /// declaration, every stub with an ``ExpectedCount`` must have answered accordingly, and
    /// every entry of a recording replayed with ``HARReplayOptions/reportsUnusedEntries`` (as
    /// ``record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)``
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
        let unmet = stubs.compactMap { stub -> VerificationReport.UnmetExpectation? in
            guard let expected = stub.expectation else { return nil }
            let actual = stub.activationCount
            return expected.isSatisfied(by: actual) ? nil : .init(stub: stub, expected: expected, actual: actual)
        }
        let unmetUnmatched = zip(declarations, accepted).compactMap { declaration, actual in
            declaration.count.isSatisfied(by: actual) ? nil : VerificationReport.UnmetUnmatchedExpectation(expectation: declaration, actual: actual)
        }
        var report = VerificationReport(
            unexpectedRequests: unexpected, unexpectedCounts: counts,
            uncountedUnexpectedRequests: overflow, unmetExpectations: unmet,
            invalidStubs: stubs.filter { !$0.matcher.problems.isEmpty },
            unmetUnmatchedExpectations: unmetUnmatched,
            nearMisses: nearMisses(for: unexpected, stubs: stubs))
        for entry in unexpected {
            report.printedRequests[VerificationReport.groupingKey(entry.request)] =
                ReportText.bounded(entry.scrubbing.redactor(for: entry.request).redact(entry.request.description))
        }
        report.unusedRecordedEntries = stubs.filter { $0.isRecordedEntryReportedWhenUnused && $0.activationCount == 0 }
        report.checkerProblems = exchangeCheckers.problems
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
            var lines = UnmatchedReport(request: entry.request, stubs: stubs, scrubbing: entry.scrubbing).text.split(
                separator: "\n", omittingEmptySubsequences: false)
            if lines.first?.hasPrefix("URLStubs: no stub matches") == true { lines.removeFirst() }
            analyses[key] = lines.joined(separator: "\n")
        }
        return analyses
    }

    /// ``verify(includePassedThrough:)``, throwing a ``VerificationFailure`` when it finds a
    /// problem.
    public func verifyOrThrow(includePassedThrough: Bool = false) throws {
        let report = verify(includePassedThrough: includePassedThrough)
        if !report.isSuccess { throw VerificationFailure(report: report) }
    }
}
