import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

@Suite("Verification and diagnostics")
struct VerificationTests {
    // MARK: Near-miss reports, exact text

    private func report(for request: URLRequest, in registry: StubRegistry) async -> String {
        let result = await fetch(request, from: registry)
        #expect(result.urlError?.code == .resourceUnavailable)
        guard case .unmatchedRequest(let report)? = result.stubError else { return "no report: \(String(describing: result.error))" }
        #expect(result.urlError?.localizedDescription == report, "the URLError's message is the report")
        return report
    }

    @Test func hostMismatchReport() async {
        let registry = StubRegistry()
        let line = #line + 1
        registry.stub(isHost("api.example.com") && isPath("/users"), name: "users") { _ in StubResponse(data: Data()) }
        let text = await report(for: request("https://api.example.org/users"), in: registry)
        #expect(
            text == """
                URLStubs: no stub matches GET https://api.example.org/users
                Closest stubs:
                  1. "users" (URLStubsTests/VerificationTests.swift:\(line))
                     - expected host "api.example.com", got "api.example.org"
                To stub this request, add:
                    registry.stub(isMethod(.get) && isHost("api.example.org") && isPath("/users")) { _ in
                        StubResponse(data: Data(), statusCode: 200)
                    }
                """)
    }

    @Test func pathMethodQueryAndHeaderMismatchesAreRanked() async {
        let registry = StubRegistry()
        let first = #line + 1
        registry.stub(isMethod(.post) && isPath("/search"), name: "post search") { _ in StubResponse(data: Data()) }
        let second = #line + 1
        registry.stub(
            isPath("/search") && containsQueryParams(["q": "swift", "page": nil]) && hasHeaderNamed("Accept", value: "application/json"),
            name: "search"
        ) { _ in StubResponse(data: Data()) }
        let third = #line + 1
        registry.stub(isPath("/other"), name: "other") { _ in StubResponse(data: Data()) }
        let text = await report(for: request("https://api.test/search?q=rust", headers: ["Accept": "text/html"]), in: registry)
        #expect(
            text == """
                URLStubs: no stub matches GET https://api.test/search?q=rust
                Closest stubs:
                  1. "post search" (URLStubsTests/VerificationTests.swift:\(first))
                     - expected method POST, got GET
                  2. "other" (URLStubsTests/VerificationTests.swift:\(third))
                     - expected path "/other", got "/search"
                  3. "search" (URLStubsTests/VerificationTests.swift:\(second))
                     - missing query parameter "page"
                     - expected query parameter "q" = "swift", got "rust"
                     - expected header "Accept" = "application/json", got "text/html"
                To stub this request, add:
                    registry.stub(isMethod(.get) && isHost("api.test") && isPath("/search") && containsQueryParams(["q": "rust"])) { _ in
                        StubResponse(data: Data(), statusCode: 200)
                    }
                """)
    }

    @Test func jsonBodyDiffReport() async {
        let registry = StubRegistry()
        let line = #line + 1
        registry.stub(isMethod(.post) && hasJSONBody(["name": "Ada", "age": 36, "tags": ["math"]]), name: "create user") { _ in
            StubResponse(data: Data())
        }
        let body = Data(#"{"name":"Ada L.","tags":["math"],"admin":true}"#.utf8)
        let text = await report(for: request("https://api.test/users", method: "POST", body: body), in: registry)
        #expect(
            text == """
                URLStubs: no stub matches POST https://api.test/users
                  body: "{"name":"Ada L.","tags":["math"],"admin":true}"
                Closest stubs:
                  1. "create user" (URLStubsTests/VerificationTests.swift:\(line))
                     - JSON body differs: $.age: missing, expected 36; $.name: expected "Ada", got "Ada L."; $.admin: unexpected true
                To stub this request, add:
                    registry.stub(isMethod(.post) && isHost("api.test") && isPath("/users") && hasJSONBody(["admin": true, "name": "Ada L.", "tags": ["math"] as [Any]] as [String: Any])) { _ in
                        StubResponse(data: Data(), statusCode: 200)
                    }
                """)
    }

    @Test func generatedSnippetCompilesAndMatches() async {
        // Pasted verbatim from the report of `jsonBodyDiffReport`.
        let registry = StubRegistry()
        registry.stub(
            isMethod(.post) && isHost("api.test") && isPath("/users")
                && hasJSONBody(["admin": true, "name": "Ada L.", "tags": ["math"] as [Any]] as [String: Any])
        ) { _ in
            StubResponse(data: Data(), statusCode: 200)
        }
        let body = Data(#"{"name":"Ada L.","tags":["math"],"admin":true}"#.utf8)
        let result = await fetch(request("https://api.test/users", method: "POST", body: body), from: registry)
        #expect(result.statusCode == 200)
    }

    @Test func emptyRegistryReport() {
        let registry = StubRegistry()
        let text = registry.nearMissReport(for: StubRequest(request("https://api.test/a?x=1&y")))
        #expect(text.contains("The registry has no stubs."))
        #expect(text.contains(#"containsQueryParams(["x": "1", "y": nil])"#))
    }

    // MARK: Journal

    @Test func journalRecordsEveryRequestInOrderWithBodies() async {
        let registry = StubRegistry()
        let users = registry.stub(isPath("/users"), name: "users") { _ in StubResponse(data: Data(), statusCode: 201) }
        _ = await fetch(request("https://api.test/users", method: "POST", body: Data("new".utf8)), from: registry)
        _ = await fetch("https://api.test/missing", from: registry)
        let journal = registry.journal
        #expect(journal.count == 2)
        #expect(journal[0].stub === users)
        #expect(journal[0].statusCode == 201)
        #expect(journal[0].request.body == Data("new".utf8))
        #expect(journal[1].isUnmatched)
        #expect(
            journal.map(\.description) == [
                "POST https://api.test/users -> 201 from \"users\" (URLStubsTests/VerificationTests.swift:\(users.location.line))",
                "GET https://api.test/missing -> unmatched",
            ])
        registry.resetJournal()
        #expect(registry.journal.isEmpty)
    }

    // MARK: Counts, lifetimes, sequences

    @Test func timesLimitsAStubAndThenItStopsMatching() async {
        let registry = StubRegistry()
        registry.stub(isPath("/x")) { _ in StubResponse(data: Data("fallback".utf8)) }
        let once = registry.stub(isPath("/x"), times: 1) { _ in StubResponse(data: Data("once".utf8)) }
        #expect(await fetch("https://api.test/x", from: registry).body == "once")
        #expect(await fetch("https://api.test/x", from: registry).body == "fallback")
        #expect(once.activationCount == 1)
        #expect(once.activationCount == once.maxActivations)
    }

    @Test func timesOneUnderConcurrentRequestsServesExactlyOne() async {
        let registry = StubRegistry()
        registry.stub(isPath("/token")) { _ in StubResponse(data: Data("other".utf8)) }
        let once = registry.stub(isPath("/token"), times: 1) { _ in StubResponse(data: Data("the one".utf8)) }
        let bodies = await withTaskGroup(of: String.self) { group in
            for _ in 0..<40 { group.addTask { await fetch("https://api.test/token", from: registry).body } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies.filter { $0 == "the one" }.count == 1)
        #expect(bodies.filter { $0 == "other" }.count == 39)
        #expect(once.activationCount == 1)
    }

    @Test(arguments: FetchAPI.allCases)
    func sequenceFailsTwiceThenSucceedsAndRepeatsTheLast(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(
            isPath("/flaky"),
            responses: [
                StubResponse(data: Data(), statusCode: 503),
                StubResponse(data: Data(), statusCode: 503),
                StubResponse(data: Data("ok".utf8), statusCode: 200),
            ])
        var codes: [Int] = []
        for _ in 0..<5 { codes.append(await fetch("https://api.test/flaky", from: registry, using: api).statusCode ?? 0) }
        #expect(codes == [503, 503, 200, 200, 200])
    }

    @Test func exhaustingSequenceStopsMatching() async {
        let registry = StubRegistry(unmatchedRequests: .fail)
        registry.stub(
            isPath("/once-each"), responses: [StubResponse(data: Data("a".utf8)), StubResponse(data: Data("b".utf8))],
            afterLast: .exhaust)
        #expect(await fetch("https://api.test/once-each", from: registry).body == "a")
        #expect(await fetch("https://api.test/once-each", from: registry).body == "b")
        let third = await fetch("https://api.test/once-each", from: registry)
        guard case .unmatchedRequest(let report)? = third.stubError else {
            Issue.record("expected an unmatched request, got \(String(describing: third.error))")
            return
        }
        #expect(report.contains("used up: it may answer twice and already did"), "\(report)")
    }

    @Test func concurrentSequenceHandsEachResponseOutOnce() async {
        let registry = StubRegistry()
        let responses = (0..<20).map { StubResponse(data: Data("r\($0)".utf8)) }
        registry.stub(isPath("/seq"), responses: responses, afterLast: .exhaust)
        let bodies = await withTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { await fetch("https://api.test/seq", from: registry).body } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(bodies) == Set((0..<20).map { "r\($0)" }))
    }

    // MARK: verify()

    @Test func verifyReportsUnmetExpectationsAndUnexpectedRequests() async {
        let registry = StubRegistry()
        let refresh = registry.stub(isPath("/refresh"), name: "refresh token") { _ in StubResponse(data: Data()) }.expect(.once)
        let poll = registry.stub(isPath("/poll"), name: "poll") { _ in StubResponse(data: Data()) }.expect(.atLeast(2))
        registry.stub(isPath("/delete"), name: "delete") { _ in StubResponse(data: Data()) }.expect(.never)
        registry.stub(isPath("/optional"), name: "optional") { _ in StubResponse(data: Data()) }
        _ = await fetch("https://api.test/poll", from: registry)
        _ = await fetch("https://api.test/delete", from: registry)
        _ = await fetch("https://api.test/surprise", from: registry)
        let report = registry.verify()
        #expect(!report.isSuccess)
        #expect(report.problems.filter { $0.kind == .unmetExpectation }.map(\.stub?.name) == ["refresh token", "poll", "delete"])
        #expect(
            report.problems.filter { $0.kind == .unexpectedRequest }.compactMap(\.request?.request.description) == ["GET https://api.test/surprise"])
        let file = "URLStubsTests/VerificationTests.swift"
        #expect(
            report.description == """
                URLStubs verification failed (4 problems):
                - "refresh token" (\(file):\(refresh.location.line)) was expected exactly once, answered 0 times
                - "poll" (\(file):\(poll.location.line)) was expected at least twice, answered once
                - "delete" (\(file):\(poll.location.line + 1)) was expected never, answered once
                - unexpected request: GET https://api.test/surprise (no stub matched)
                  Closest stubs:
                    1. "optional" (\(file):\(poll.location.line + 2))
                       - expected path "/optional", got "/surprise"
                    2. "delete" (\(file):\(poll.location.line + 1))
                       - expected path "/delete", got "/surprise"
                    3. "poll" (\(file):\(poll.location.line))
                       - expected path "/poll", got "/surprise"
                    (1 more stubs matched less)
                  To stub this request, add:
                      registry.stub(isMethod(.get) && isHost("api.test") && isPath("/surprise")) { _ in
                          StubResponse(data: Data(), statusCode: 200)
                      }
                """)
        #expect(throws: VerificationReport.self) { try registry.verifyOrThrow() }
        // What verifyOrThrow() throws is the report verify() returns, read the same way.
        do {
            try registry.verifyOrThrow()
        } catch let thrown as VerificationReport {
            #expect(thrown.description == registry.verify().description)
            #expect(thrown.problems.map(\.summary) == registry.verify().problems.map(\.summary))
            #expect(thrown.localizedDescription == thrown.description)
        } catch {
            Issue.record("verifyOrThrow() threw \(error), not its report")
        }
    }

    @Test func identicalUnexpectedRequestsAreOneProblemWithACount() async {
        let registry = StubRegistry()
        for _ in 0..<5 { _ = await fetch("https://api.test/poll?since=1", from: registry) }
        _ = await fetch("https://api.test/other", from: registry)
        _ = await fetch("https://api.test/poll?since=1", from: registry)
        let report = registry.verify()
        #expect(report.problems.filter { $0.kind == .unexpectedRequest }.count == 2, "each distinct request once")
        #expect(report.problems.filter { $0.kind == .unexpectedRequest }.map(\.count) == [6, 1])
        #expect(
            report.problems.map(\.summary) == [
                "unexpected request: GET https://api.test/poll?since=1 (no stub matched, 6 times)",
                "unexpected request: GET https://api.test/other (no stub matched)",
            ])
    }

    @Test func verifyPassesWhenEverythingHappened() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/a")) { _ in StubResponse(data: Data()) }.expect(.exactly(2))
        registry.stub(isPath("/b")) { _ in StubResponse(data: Data()) }.expect(.between(1...3))
        registry.stub(isPath("/c")) { _ in StubResponse(data: Data()) }.expect(.atMost(1))
        for path in ["/a", "/a", "/b"] { _ = await fetch("https://api.test\(path)", from: registry) }
        #expect(registry.verify().isSuccess)
        try registry.verifyOrThrow()
    }

    @Test func expectationWords() {
        #expect(ExpectedCount.once.description == "exactly once")
        #expect(ExpectedCount.never.description == "never")
        #expect(ExpectedCount.atLeastOnce.description == "at least once")
        #expect(ExpectedCount.atMost(3).description == "at most 3 times")
        #expect(ExpectedCount.between(2...4).description == "between 2 and 4 times")
    }
}
