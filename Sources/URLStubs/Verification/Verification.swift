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
/// - "refresh token" (MyAppTests/AuthTests.swift:12) was expected exactly once, answered 0 times
/// - unexpected request: GET https://api.example.com/users?page=2 (no stub matched)
///   Closest stubs:
///     1. "users" (MyAppTests/AuthTests.swift:14)
///        - expected query parameter "page" = "1", got "2"
///   To stub this request, add:
///       registry.stub(isMethod(.get) && isHost("api.example.com") && isPath("/users") && containsQueryParams(["page": "2"])) { _ in
///           StubResponse(data: Data(), statusCode: 200)
///       }
/// ```
///
/// It is also what ``StubRegistry/verifyOrThrow(includePassedThrough:)`` throws, so a caught
/// error reads the same as a returned report:
///
/// ```swift
/// do {
///     try registry.verifyOrThrow()
/// } catch let report as VerificationReport {
///     print(report.problems.map(\.summary))
/// }
/// ```
public struct VerificationReport: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// A stub whose activation count broke its expectation.
    @_spi(AddOns) public struct CountMismatch: Sendable {
        /// The stub.
        @_spi(AddOns) public let stub: StubDescriptor
        /// What was expected.
        @_spi(AddOns) public let expected: ExpectedCount
        /// How many times it answered.
        @_spi(AddOns) public let actual: Int
    }

    /// An ``ExpectedUnmatchedRequest`` whose requests came more or less often than declared.
    @_spi(AddOns) public struct UnmatchedCountMismatch: Sendable {
        /// The declaration.
        @_spi(AddOns) public let expectation: ExpectedUnmatchedRequest
        /// How many unmatched requests it accepted.
        @_spi(AddOns) public let actual: Int
    }

    /// Requests that no stub matched and no ``ExpectedUnmatchedRequest`` accepted: each
    /// distinct one (method, URL and body) once, the first time it came, in the order they
    /// first arrived.
    @_spi(AddOns) public let unexpected: [JournalEntry]
    /// How often each unexpected request came, by ``groupingKey(_:)``.
    let unexpectedCounts: [String: Int]
    /// Unexpected requests beyond the distinct ones the registry keeps, counted only.
    @_spi(AddOns) public let uncounted: Int
    /// Stubs used more or less often than declared.
    @_spi(AddOns) public let unmet: [CountMismatch]
    /// Stubs whose matcher could not be built (an invalid regular expression, say).
    @_spi(AddOns) public let invalid: [StubDescriptor]
    /// Stubs whose response no client can receive (``StubDescriptor/invalidResponses``).
    let invalidResponses: [StubDescriptor]
    /// Declarations of expected unmatched requests whose count was broken.
    @_spi(AddOns) public let unmetUnmatched: [UnmatchedCountMismatch]
    /// The near-miss analysis of each distinct unexpected request, by ``groupingKey(_:)``.
    let nearMisses: [String: String]
    /// Stubs replaying a recorded request the test never made (see
    /// ``HARReplayOptions/reportsUnusedEntries``), named by archive, method and URL.
    @_spi(AddOns) public var unusedRecorded: [StubDescriptor] = []
    /// Configurations ``StubRegistry/install(into:)`` could not stub, each distinct one with
    /// how many times it was given.
    var unstubbable: [(problem: StubError, count: Int)] = []
    /// Each distinct unexpected request as printed, its secrets scrubbed, by ``groupingKey(_:)``.
    var printedRequests: [String: String] = [:]
    /// What the registry's ``ExchangeChecker``s found (a contract check's violations).
    var checkerProblems: [VerificationProblem] = []
    /// `true` when the registry saw no request at all (an empty journal, no stub ever
    /// answered): a stub that never answered then most likely means the code under test used
    /// another session.
    var journalWasEmpty = false

    /// Said under a stub that answered 0 times when the registry saw no request at all.
    static let noRequestsHint =
        "This registry saw no request at all: does the code under test use registry.makeSession(), or a URLSessionConfiguration passed to registry.install(into:)?"

    /// `true` when there is nothing to report.
    public var isSuccess: Bool {
        unstubbable.isEmpty && unexpected.isEmpty && unmet.isEmpty && invalid.isEmpty && invalidResponses.isEmpty && unmetUnmatched.isEmpty
            && uncounted == 0
            && unusedRecorded.isEmpty
            && checkerProblems.isEmpty
    }

    /// How many times the unexpected request `entry` came.
    @_spi(AddOns) public func occurrences(of entry: JournalEntry) -> Int {
        unexpectedCounts[Self.groupingKey(entry.request)] ?? 0
    }

    /// Unexpected requests are reported once per method, URL and body.
    static func groupingKey(_ request: StubRequest) -> String {
        guard let body = request.body, !body.isEmpty else { return request.description }
        return request.description + "\n" + String(decoding: body.prefix(4_096), as: UTF8.self)
    }

    /// Every problem, in this order: configurations ``StubRegistry/install(into:)`` could not
    /// stub (whatever else went wrong may follow from them), stubs that answered more or less often than expected,
    /// stubs with an invalid matcher, broken ``StubRegistry/expectUnmatched(_:_:fileID:filePath:line:)``
    /// declarations, unexpected requests (identical ones, a polling loop say, are one problem
    /// with a ``VerificationProblem/count``), recorded requests never made, and what add-ons
    /// found (a contract check's violations). Each has the source location it belongs to, for
    /// test frameworks to record.
    ///
    /// ```swift
    /// let report = registry.verify()
    /// let surprises = report.problems.filter { $0.kind == .unexpectedRequest }
    /// #expect(surprises.compactMap(\.request?.request.url?.path) == ["/refresh"])
    /// ```
    public var problems: [VerificationProblem] {
        let order = unexpected.map { (key: Self.groupingKey($0.request), entry: $0) }
        let overflow =
            uncounted == 0
            ? []
            : [
                VerificationProblem(
                    kind: .unexpectedRequest,
                    summary: "\(uncounted) more unexpected requests, beyond the \(UnmatchedLedger.maximumGroups) distinct ones listed",
                    location: nil, count: uncounted)
            ]
        return unstubbable.map {
            VerificationProblem(
                kind: .unstubbableConfiguration,
                summary: withoutLibraryPrefix($0.problem.description) + ($0.count > 1 ? " (given \(ReportText.times($0.count)))" : ""),
                location: nil, count: $0.count)
        }
            + unmet.map {
                VerificationProblem(
                    kind: .unmetExpectation, summary: "\($0.stub) was expected \($0.expected), answered \(ReportText.times($0.actual))",
                    details: journalWasEmpty && $0.actual == 0 ? Self.noRequestsHint : nil,
                    location: $0.stub.location, stub: $0.stub, count: $0.actual)
            }
            + invalid.map {
                VerificationProblem(
                    kind: .invalidStub, summary: "\($0) has an invalid matcher: \($0.matcher.problems.joined(separator: "; "))",
                    location: $0.location, stub: $0)
            }
            + invalidResponses.map {
                VerificationProblem(
                    kind: .invalidStub,
                    summary: "\($0) can never answer a client: \($0.invalidResponses.joined(separator: "; "))",
                    location: $0.location, stub: $0)
            }
            + unmetUnmatched.map {
                VerificationProblem(
                    kind: .unmetUnmatchedExpectation,
                    summary: "an \($0.expectation) was expected \($0.expectation.count), seen \(ReportText.times($0.actual))",
                    location: $0.expectation.location, count: $0.actual)
            }
            + order.map { key, entry in
                let times = unexpectedCounts[key] ?? 1
                return VerificationProblem(
                    kind: .unexpectedRequest,
                    summary:
                        "unexpected request: \(printedRequests[key] ?? entry.request.description) (no stub matched\(times > 1 ? ", \(times) times" : ""))",
                    details: nearMisses[key], location: nil, request: entry, count: times)
            }
            + overflow
            + unusedRecorded.map {
                VerificationProblem(
                    kind: .unusedRecordedEntry, summary: "recorded request never made: \($0) (re-record, or remove the entry)",
                    location: $0.location, stub: $0, count: 0)
            }
            + checkerProblems
    }

    /// The whole report, as ``description`` gives it, for `localizedDescription`.
    public var errorDescription: String? { description }

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
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A stub answered more or less often than its ``ExpectedCount`` (``stub``; ``count`` is
        /// how many times it answered).
        case unmetExpectation
        /// A stub's matcher could not be built (``stub``).
        case invalidStub
        /// Unmatched requests declared with ``StubRegistry/expectUnmatched(_:_:fileID:filePath:line:)``
        /// came more or less often (``count`` times).
        case unmetUnmatchedExpectation
        /// A request no stub matched (``request``, which came ``count`` times; `nil` for the
        /// line counting those beyond the distinct ones listed).
        case unexpectedRequest
        /// A replayed recording's entry that the test never requested (``stub``).
        case unusedRecordedEntry
        /// An exchange broke a contract that an add-on checks (URLStubsOpenAPI: the API's
        /// OpenAPI document); ``stub`` answered it, ``count`` is how many times it happened.
        case contractViolation
        /// ``StubRegistry/install(into:)`` was given a configuration it cannot stub (a
        /// background one), whose requests reach the network; ``count`` is how many times.
        case unstubbableConfiguration
    }

    /// What went wrong.
    public let kind: Kind
    /// One line: what broke (`"login" (MyAppTests/LoginTests.swift:12) was expected exactly once,
    /// answered 0 times`, `unexpected request: GET https://… (no stub matched)`).
    public let summary: String
    /// More lines, for an unexpected request: the closest stubs, why each refused, and a stub
    /// that would have matched. ``message`` holds them after the ``summary``.
    @_spi(AddOns) public let details: String?
    /// Where the problem was declared (the stub, the ``ExpectedUnmatchedRequest``), `nil` for
    /// an unexpected request.
    public let location: StubLocation?
    /// The stub concerned, if any.
    public let stub: StubDescriptor?
    /// The unexpected request, as the journal keeps it.
    public let request: JournalEntry?
    /// How many times it happened: answers of the stub, requests seen, or times an unexpected
    /// request came.
    public let count: Int

    init(
        kind: Kind, summary: String, details: String? = nil, location: StubLocation?, stub: StubDescriptor? = nil, request: JournalEntry? = nil,
        count: Int = 1
    ) {
        self.kind = kind
        self.summary = summary
        self.details = details
        self.location = location
        self.stub = stub
        self.request = request
        self.count = count
    }

    /// The whole text: the ``summary``, then, for an unexpected request, the closest stubs, why
    /// each refused, and a stub that would have matched, on the following lines.
    public var message: String { details.map { summary + "\n" + $0 } ?? summary }

    /// Same as ``message``.
    public var description: String { message }
}

extension StubRegistry {
    /// Checks what happened against what was declared: every request must have matched a stub
    /// (passthrough requests of a `.passthrough` registry count as unexpected only when
    /// `includePassedThrough` is `true`) or an ``expectUnmatched(_:_:fileID:filePath:line:)``
    /// declaration, every stub with an ``ExpectedCount`` must have answered accordingly, and
    /// every entry of a recording replayed with ``HARReplayOptions/reportsUnusedEntries`` (as
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
            var lines = addingCassetteNote(to: UnmatchedReport(request: entry.request, stubs: stubs, scrubbing: entry.scrubbing).text).split(
                separator: "\n", omittingEmptySubsequences: false)
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

/// An error's description without the "URLStubs: " it starts with, for a problem's summary,
/// which test frameworks print after a prefix of their own.
private func withoutLibraryPrefix(_ text: String) -> String {
    let prefix = "URLStubs: "
    return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
}
