import Foundation

/// What a test expected of the traffic and did not see: the outcome of
/// ``StubRegistry/verify(includePassedThrough:)`` (requests no stub expected, stubs whose use
/// broke their ``ExpectedCount``), and what a wait for requests throws when they do not come
/// in time (``StubRegistry/waitForRequests(matching:count:timeout:)``, see
/// ``VerificationProblem/Kind/waitTimedOut``).
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
/// error reads the same as a returned report, and what a wait that gave up throws:
///
/// ```swift
/// do {
///     try registry.verifyOrThrow()
///     _ = try await registry.waitForRequests(matching: isPath("/analytics"), timeout: 2)
/// } catch let report as VerificationReport {
///     print(report.problems.map(\.summary))
/// }
/// ```
public struct VerificationReport: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// A stub whose activation count broke its expectation.
    package struct CountMismatch: Sendable {
        /// The stub.
        package let stub: StubDescriptor
        /// What was expected.
        package let expected: ExpectedCount
        /// How many times it answered.
        package let actual: Int
    }

    /// An ``ExpectedUnmatchedRequest`` whose requests came more or less often than declared.
    package struct UnmatchedCountMismatch: Sendable {
        /// The declaration.
        package let expectation: ExpectedUnmatchedRequest
        /// How many unmatched requests it accepted.
        package let actual: Int
    }

    /// Requests that no stub matched and no ``ExpectedUnmatchedRequest`` accepted: each
    /// distinct one (method, URL and body) once, the first time it came, in the order they
    /// first arrived.
    package let unexpected: [JournalEntry]
    /// How often each unexpected request came, by ``groupingKey(_:)``.
    let unexpectedCounts: [String: Int]
    /// Unexpected requests beyond the distinct ones the registry keeps, counted only.
    package let uncounted: Int
    /// Stubs used more or less often than declared.
    package let unmet: [CountMismatch]
    /// Stubs whose matcher could not be built (an invalid regular expression, say).
    package let invalid: [StubDescriptor]
    /// Stubs whose response no client can receive (``StubDescriptor/invalidResponses``).
    let invalidResponses: [StubDescriptor]
    /// Declarations of expected unmatched requests whose count was broken.
    package let unmetUnmatched: [UnmatchedCountMismatch]
    /// The near-miss analysis of each distinct unexpected request, by ``groupingKey(_:)``.
    let nearMisses: [String: String]
    /// Stubs replaying a recorded request the test never made (see
    /// `HARReplayOptions.reportsUnusedEntries`), named by archive, method and URL.
    package var unusedRecorded: [StubDescriptor] = []
    /// Configurations ``StubRegistry/install(into:)`` could not stub, each distinct one with
    /// how many times it was given.
    var unstubbable: [(problem: StubError, count: Int)] = []
    /// What stub descriptions are scrubbed of: the registry's policy.
    var scrubbing = Scrubbing.default
    /// Each distinct unexpected request as printed, its secrets scrubbed, by ``groupingKey(_:)``.
    var printedRequests: [String: String] = [:]
    /// What the registry's ``ExchangeChecker``s found (a contract check's violations).
    var checkerProblems: [VerificationProblem] = []
    /// `true` when the registry saw no request at all (an empty journal, no stub ever
    /// answered): a stub that never answered then most likely means the code under test used
    /// another session.
    var journalWasEmpty = false
    /// For a wait that gave up, what it awaited and saw; `nil` for ``StubRegistry/verify(includePassedThrough:)``.
    package internal(set) var timedOutWait: TimedOutWait?
    /// The problem of a wait that gave up (``VerificationProblem/Kind/waitTimedOut``).
    var waitProblems: [VerificationProblem] = []

    /// Said under a stub that answered 0 times when the registry saw no request at all.
    static let noRequestsHint =
        "This registry saw no request at all: does the code under test use registry.makeSession(), or a URLSessionConfiguration passed to registry.install(into:)?"

    /// `true` when there is nothing to report.
    public var isSuccess: Bool {
        unstubbable.isEmpty && unexpected.isEmpty && unmet.isEmpty && invalid.isEmpty && invalidResponses.isEmpty && unmetUnmatched.isEmpty
            && uncounted == 0
            && unusedRecorded.isEmpty
            && checkerProblems.isEmpty
            && waitProblems.isEmpty
    }

    /// How many times the unexpected request `entry` came.
    package func occurrences(of entry: JournalEntry) -> Int {
        unexpectedCounts[Self.groupingKey(entry.request)] ?? 0
    }

    /// Unexpected requests are reported once per method, URL and body.
    static func groupingKey(_ request: StubRequest) -> String {
        guard let body = request.body, !body.isEmpty else { return request.description }
        return request.description + "\n" + String(decoding: body.prefix(4_096), as: UTF8.self)
    }

    /// Every problem, in this order: a wait that gave up (the report's only problem then),
    /// configurations ``StubRegistry/install(into:)`` could not
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
                summary: ReportText.withoutLibraryPrefix($0.problem.description) + ($0.count > 1 ? " (given \(ReportText.times($0.count)))" : ""),
                location: nil, count: $0.count)
        }
            + unmet.map {
                VerificationProblem(
                    kind: .unmetExpectation, summary: scrubbed("\($0.stub) was expected \($0.expected), answered \(ReportText.times($0.actual))"),
                    details: journalWasEmpty && $0.actual == 0 ? Self.noRequestsHint : nil,
                    location: $0.stub.location, stub: $0.stub, count: $0.actual)
            }
            + invalid.map {
                VerificationProblem(
                    kind: .invalidStub, summary: scrubbed("\($0) has an invalid matcher: \($0.matcher.problems.joined(separator: "; "))"),
                    location: $0.location, stub: $0)
            }
            + invalidResponses.map {
                VerificationProblem(
                    kind: .invalidStub,
                    summary: scrubbed("\($0) can never answer a client: \($0.invalidResponses.joined(separator: "; "))"),
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
                    kind: .unusedRecordedEntry, summary: scrubbed("recorded request never made: \($0) (re-record, or remove the entry)"),
                    location: $0.location, stub: $0, count: 0)
            }
            + checkerProblems
            + waitProblems
    }

    /// `text` (a stub's description) without what its matchers expect in the fields the
    /// registry's scrubbing hides (``Scrubbing/expectedSecrets(in:)``).
    private func scrubbed(_ text: String) -> String {
        let secrets = scrubbing.expectedSecrets(in: text)
        guard !secrets.isEmpty else { return text }
        return Redactor(secrets: secrets, placeholder: scrubbing.placeholder).redact(text)
    }

    /// The whole report, as ``description`` gives it, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// The whole report; for a wait that gave up, what it awaited, what arrived and the other
    /// requests, closest first.
    public var description: String {
        if isSuccess { return "URLStubs verification passed." }
        let problems = self.problems
        if problems.count == 1, let wait = problems.first, wait.kind == .waitTimedOut { return "URLStubs: " + wait.message }
        let lines = problems.map { problem in
            "- " + problem.message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
        }
        return "URLStubs verification failed (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + lines.joined(separator: "\n")
    }
}
