import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubsTesting
@testable import TestSupport

/// What the trait would have recorded as issues, captured instead of recorded: the suite stays
/// green without "known issues" in its summary.
final class RecordedProblems: @unchecked Sendable {
    struct Entry {
        let problem: VerificationProblem
        let location: Testing.SourceLocation
        let testThrew: Bool
    }

    private let lock = NSLock()
    private var stored: [Entry] = []

    var entries: [Entry] {
        lock.lock(); defer { lock.unlock() }
        return stored
    }

    func trait(
        unmatchedRequests: UnmatchedRequestPolicy = .fail, verify: Bool = true,
        setup: @escaping @Sendable (StubRegistry) throws -> Void = { _ in }
    ) -> StubsTrait {
        StubsTrait(
            unmatchedRequests: unmatchedRequests, verifies: verify,
            recordProblem: { [self] problem, location, threw in
                lock.lock(); stored.append(Entry(problem: problem, location: location, testThrew: threw)); lock.unlock()
            }, setup: setup)
    }
}

private struct AppFailure: Error, Equatable {}

@Suite("Swift Testing trait")
struct TraitTests {
    @Test(.stubbed) func stubbedTraitProvidesAFreshRegistry() async {
        let registry = StubRegistry.current
        #expect(registry.stubs.isEmpty)
        #expect(registry.unmatchedRequestPolicy == .fail)
        registry.stub(isPath("/me")) { _ in StubResponse(data: Data("Ada".utf8)) }.expect(.once)
        #expect(await fetch("https://api.test/me", from: registry).body == "Ada")
    }

    // Passes only because nothing is verified: the stub is expected once and never answers.
    @Test(.stubbed(verify: false)) func stubbedTraitWithoutVerification() {
        #expect(StubRegistry.current.unmatchedRequestPolicy == .fail)
        StubRegistry.current.stub(isPath("/never"), name: "never") { _ in StubResponse(data: Data()) }.expect(.once)
    }

    @Test func currentOutsideTheTraitSaysWhatToAdd() {
        withKnownIssue {
            _ = StubRegistry.current
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasSuffix("add .stubbed to this @Test (or to its @Suite)")
        }
    }

    @Test(.stubbed(unmatchedRequests: .passthrough)) func stubbedTraitTakesAnUnmatchedPolicy() {
        #expect(StubRegistry.current.unmatchedRequestPolicy == .passthrough)
    }

    @Test(
        .stubs { registry in
            registry.stub(isPath("/prepared")) { _ in StubResponse(data: Data("ready".utf8)) }
        }, arguments: [1, 2, 3])
    func stubsTraitSetsUpEveryCase(value: Int) async {
        let registry = StubRegistry.current
        #expect(registry.stubs.count == 1, "each case gets its own registry")
        registry.stub(isPath("/case")) { _ in StubResponse(data: Data("\(value)".utf8)) }
        #expect(await fetch("https://api.test/prepared", from: registry).body == "ready")
        #expect(await fetch("https://api.test/case", from: registry).body == "\(value)")
    }

    /// A cassette's save fails after the test threw (a recording with the server down): both
    /// are reported, the save's failure as an issue of its own, and verification still runs.
    @Test func aFailureAfterTheTestIsReportedBesideTheTestsOwnError() async throws {
        let recorded = RecordedProblems()
        let errors = EventLog()
        let registry = StubRegistry()
        registry.stub(isPath("/never"), name: "never") { _ in StubResponse(data: Data()) }.expect(.once)
        var rethrown: (any Error)?
        do {
            try await StubsTrait.run(
                { throw AppFailure() }, with: registry, for: Test.current!,
                afterTest: { throw StubError.library(RecordingFailure.invalidRecordMode(value: "after")) },
                recordProblem: { problem, location, threw in recorded.trait().recordProblem(problem, location, threw) },
                recordError: { error, _ in errors.append("\(error)") })
        } catch {
            rethrown = error
        }
        #expect(rethrown is AppFailure, "the test's own error is rethrown")
        #expect(errors.events == ["URLStubs: URLSTUBS_RECORD=after is not a record mode; use once, none, newEpisodes or all."])
        #expect(recorded.entries.map(\.problem.summary).contains { $0.contains("\"never\"") }, "verified too")
        // Alone, the failure after the test is what the test throws.
        let alone = await #expect(throws: StubError.self) {
            try await StubsTrait.run(
                {}, with: StubRegistry(), for: Test.current!,
                afterTest: { throw StubError.library(RecordingFailure.invalidRecordMode(value: "alone")) },
                recordError: { error, _ in errors.append("\(error)") })
        }
        #expect(alone == .library(RecordingFailure.invalidRecordMode(value: "alone")))
        #expect(errors.events.count == 1)
    }

    @Test func traitRecordsProblemsAtTheStubDeclaration() async throws {
        let recorded = RecordedProblems()
        let line = #line + 3
        try await recorded.trait().provideScope(for: Test.current!, testCase: Test.Case.current) {
            let registry = StubRegistry.current
            registry.stub(isPath("/never-called"), name: "expected") { _ in StubResponse(data: Data()) }.expect(.once)
        }
        let entry = try #require(recorded.entries.first)
        #expect(recorded.entries.count == 1)
        #expect(entry.location.line == line)
        #expect(entry.location.fileName == "TraitTests.swift")
        #expect(entry.problem.summary == #""expected" (URLStubsTestingTests/TraitTests.swift:\#(line)) was expected exactly once, answered 0 times"#)
        #expect(!entry.testThrew)
    }

    @Test func issueHeadlineNamesTheStubAndTheExpectation() {
        // Swift Testing prints an issue recorded for an error as "Caught error: <description>".
        let registry = StubRegistry()
        let stub = registry.stub(isPath("/me"), name: "profile") { _ in StubResponse(data: Data()) }.expect(.once)
        let problem = registry.verify().problems[0]
        #expect(
            "\(BrokenStubExpectation(summary: problem.summary))"
                == #"URLStubs: "profile" (URLStubsTestingTests/TraitTests.swift:\#(stub.location.line)) was expected exactly once, answered 0 times"#)
        // Under it, the summary is not repeated; a registry that saw no request at all says so.
        #expect(
            StubsTrait.commentLines(for: problem, testThrew: false) == [
                "This registry saw no request at all: does the code under test use registry.makeSession(), or a URLSessionConfiguration passed to registry.install(into:)?"
            ])
    }

    @Test func anUnmetExpectationOfARegistryThatSawRequestsRepeatsNothingUnderTheHeadline() async {
        let registry = StubRegistry()
        registry.stub(isPath("/me"), name: "profile") { _ in StubResponse(data: Data()) }.expect(.once)
        registry.stub(isPath("/other"), name: "other") { _ in StubResponse(data: Data()) }
        _ = await fetch("https://api.test/other", from: registry)
        let problem = registry.verify().problems[0]
        #expect(problem.summary.hasPrefix(#""profile""#))
        #expect(StubsTrait.commentLines(for: problem, testThrew: false).isEmpty, "nothing repeated under the headline")
    }

    @Test func aRegistryThatSawNoRequestAsksWhetherTheCodeUsesItsSession() async {
        let registry = StubRegistry()
        let stub = registry.stub(isPath("/me")) { _ in StubResponse(data: Data()) }.expect(.once)
        let report = registry.verify()
        #expect(
            report.problems.map(\.message) == [
                #"stub where path is "/me" (URLStubsTestingTests/TraitTests.swift:\#(stub.location.line)) was expected exactly once, answered 0 times"#
                    + "\n"
                    + "This registry saw no request at all: does the code under test use registry.makeSession(), or a URLSessionConfiguration passed to registry.install(into:)?"
            ])
    }

    @Test func traitRecordsUnexpectedRequestsWithTheirNearMissAnalysis() async throws {
        let recorded = RecordedProblems()
        try await recorded.trait().provideScope(for: Test.current!, testCase: Test.Case.current) {
            StubRegistry.current.stub(isPath("/somebody-stubbed-this"), name: "near") { _ in StubResponse(data: Data()) }
            _ = await fetch("https://api.test/nobody-stubbed-this", from: StubRegistry.current)
        }
        let entry = try #require(recorded.entries.first)
        #expect(entry.problem.summary == "unexpected request: GET https://api.test/nobody-stubbed-this (no stub matched)")
        #expect(entry.location == Test.current!.sourceLocation, "at the test itself")
        let comment = StubsTrait.commentLines(for: entry.problem, testThrew: false).joined(separator: "\n")
        #expect(comment.contains("1. \"near\""))
        #expect(comment.contains(#"registry.stub(isMethod(.get) && isHost("api.test") && isPath("/nobody-stubbed-this"))"#))
    }

    @Test func testThatThrowsIsVerifiedAndItsErrorRethrown() async throws {
        let recorded = RecordedProblems()
        let stubLine = #line + 5
        var rethrown: (any Error)?
        do {
            try await recorded.trait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                let registry = StubRegistry.current
                registry.stub(isPath("/users") && containsQueryParams(["page": "1"]), name: "users") { _ in StubResponse(data: Data("[]".utf8)) }
                    .expect(.once)
                _ = await fetch("https://api.test/users?page=2", from: registry)  // the app swallows this failure…
                throw AppFailure()  // …and the test then throws
            }
        } catch {
            rethrown = error
        }
        #expect(rethrown is AppFailure)
        #expect(
            recorded.entries.map(\.problem.summary) == [
                #""users" (URLStubsTestingTests/TraitTests.swift:\#(stubLine)) was expected exactly once, answered 0 times"#,
                "unexpected request: GET https://api.test/users?page=2 (no stub matched)",
            ])
        #expect(recorded.entries.allSatisfy { $0.testThrew })
        let first = try #require(recorded.entries.first)
        let comment = StubsTrait.commentLines(for: first.problem, testThrew: true)
        #expect(comment.last?.contains("although it threw") == true)
    }

    @Test func verifyFalseRecordsNothing() async throws {
        let recorded = RecordedProblems()
        try await recorded.trait(verify: false).provideScope(for: Test.current!, testCase: Test.Case.current) {
            _ = await fetch("https://api.test/on-purpose", from: StubRegistry.current)
        }
        #expect(recorded.entries.isEmpty)
    }

    @Test(.stubbed) func expectedUnmatchedRequestKeepsTheTestGreen() async {
        let registry = StubRegistry.current
        registry.expectUnmatched(isPath("/users/999"))
        let result = await fetch("https://api.test/users/999", from: registry)
        #expect(result.urlError?.code == .resourceUnavailable)
    }
}
