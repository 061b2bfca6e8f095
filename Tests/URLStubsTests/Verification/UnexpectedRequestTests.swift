import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
import LoopbackTestServer
@testable import TestSupport

/// Requests no stub matched, as verification reports them: explained when the app swallowed
/// the error, accepted when the test made them on purpose.
@Suite("Unexpected and expected unmatched requests")
struct UnexpectedRequestTests {
    /// What an app does that shows an empty list on any error.
    private func loadUsersSwallowingErrors(_ url: String, from registry: StubRegistry) async -> [String] {
        let result = await fetch(url, from: registry)
        guard result.error == nil, let data = result.data,
            let names = try? JSONSerialization.jsonObject(with: data) as? [String]
        else { return [] }
        return names
    }

    @Test func swallowedErrorIsExplainedAtVerification() async {
        let registry = StubRegistry()
        let line = #line + 1
        registry.stub(isHost("api.myapp.test") && isPath("/users") && containsQueryParams(["page": "1"]), name: "first page") { _ in
            try StubResponse(json: ["Ada"])
        }
        #expect(await loadUsersSwallowingErrors("https://api.myapp.test/users?page=1", from: registry) == ["Ada"])
        #expect(await loadUsersSwallowingErrors("https://api.myapp.test/users?page=2", from: registry).isEmpty)
        #expect(await loadUsersSwallowingErrors("https://api.myapp.test/users?page=2", from: registry).isEmpty)

        let problems = registry.verify().problems
        #expect(problems.count == 1, "identical requests are one problem")
        #expect(problems.first?.summary == "unexpected request: GET https://api.myapp.test/users?page=2 (no stub matched, 2 times)")
        #expect(
            problems.first?.message == """
                unexpected request: GET https://api.myapp.test/users?page=2 (no stub matched, 2 times)
                Closest stubs:
                  1. "first page" (URLStubsTests/UnexpectedRequestTests.swift:\(line))
                     - expected query parameter "page" = "1", got "2"
                To stub this request, add:
                    registry.stub(isMethod(.get) && isHost("api.myapp.test") && isPath("/users") && containsQueryParams(["page": "2"])) { _ in
                        StubResponse(data: Data(), statusCode: 200)
                    }
                """)
    }

    @Test func eachDistinctRequestIsExplainedOnce() async {
        let registry = StubRegistry()
        registry.stub(isMethod(.post) && isPath("/users") && hasJSONBody(["name": "Ada"]), name: "create Ada") { _ in
            StubResponse(data: Data(), statusCode: 201)
        }
        for name in ["Bob", "Bob", "Cy"] {
            _ = await fetch(request("https://api.test/users", method: "POST", body: Data(#"{"name":"\#(name)"}"#.utf8)), from: registry)
        }
        _ = await fetch("https://api.test/elsewhere", from: registry)
        let report = registry.verify()
        #expect(
            report.problems.map(\.summary) == [
                "unexpected request: POST https://api.test/users (no stub matched, 2 times)",
                "unexpected request: POST https://api.test/users (no stub matched)",
                "unexpected request: GET https://api.test/elsewhere (no stub matched)",
            ], "requests differing only in their body are told apart")
        #expect(report.problems[0].details?.contains(#"$.name: expected "Ada", got "Bob""#) == true)
        #expect(report.problems[1].details?.contains(#"$.name: expected "Ada", got "Cy""#) == true)
        let text = report.description
        #expect(text.components(separatedBy: "Closest stubs:").count - 1 == 3)
        #expect(text.contains(#"  To stub this request, add:"#), "details are indented under their problem")
    }

    @Test func manyDistinctRequestsAreExplainedUpToALimit() async {
        let registry = StubRegistry()
        registry.stub(isPath("/known")) { _ in StubResponse(data: Data()) }
        let count = StubRegistry.explainedUnexpectedRequests + 5
        for index in 0..<count { _ = await fetch("https://api.test/missing/\(index)", from: registry) }
        let problems = registry.verify().problems
        #expect(problems.count == count)
        #expect(problems.filter { $0.details != nil }.count == StubRegistry.explainedUnexpectedRequests)
    }

    // MARK: expectUnmatched

    @Test func expectedUnmatchedRequestIsNotReported() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/users")) { _ in StubResponse(data: Data("[]".utf8)) }.expect(.once)
        registry.expectUnmatched(isPath("/users/999"))
        let missing = await fetch("https://api.test/users/999", from: registry)
        #expect(missing.urlError?.code == .resourceUnavailable, "the request still fails with the near-miss report")
        _ = await fetch("https://api.test/users", from: registry)
        let report = registry.verify()
        #expect(report.isSuccess, "\(report)")
        try registry.verifyOrThrow()
    }

    @Test func expectedUnmatchedRequestThatNeverCameIsReportedAtItsDeclaration() async {
        let registry = StubRegistry()
        let line = #line + 1
        let expectation = registry.expectUnmatched(isPath("/gone"), .exactly(2))
        _ = await fetch("https://api.test/gone", from: registry)
        _ = await fetch("https://api.test/other", from: registry)
        let report = registry.verify()
        #expect(report.problems.filter { $0.kind == .unmetUnmatchedExpectation }.map(\.count) == [1])
        #expect(report.problems.filter { $0.kind == .unexpectedRequest }.compactMap(\.request?.request.description) == ["GET https://api.test/other"])
        let problem = report.problems.first
        #expect(
            problem?.summary
                == #"an unmatched request where path is "/gone" (URLStubsTests/UnexpectedRequestTests.swift:\#(line)) was expected exactly twice, seen once"#
        )
        #expect(problem?.location == expectation.location)
        #expect(problem?.location?.line == line)
    }

    @Test func resetJournalForgetsAnUnmatchedRequestMadeOnPurpose() async {
        let registry = StubRegistry()
        _ = await fetch("https://api.test/on-purpose", from: registry)
        #expect(!registry.verify().isSuccess)
        registry.resetJournal()
        #expect(registry.verify().isSuccess)
    }

    // MARK: Journal lines

    @Test func passedThroughRequestsDoNotReadAsUnmatched() async throws {
        let server = TestServer.shared
        let registry = StubRegistry(unmatchedRequests: .passthrough)
        let live = registry.stub(isPath("/echo"), name: "live echo") { _ in .passthrough() }
        let unmatched = await fetch(URLRequest(url: server.url("/json")), from: registry)
        #expect(unmatched.statusCode == 200)
        _ = await fetch(URLRequest(url: server.url("/echo")), from: registry)
        // A stub's passthrough learns the status once its player has finished, just after the
        // caller; an unmatched request goes to the system's own loader, whose answer URLStubs
        // never sees.
        try await waitUntil { registry.journal.last?.statusCode != nil }
        let journal = registry.journal
        #expect(journal.map(\.isPassedThrough) == [true, true])
        #expect(
            journal.map(\.description) == [
                "GET \(server.url("/json")) -> passed through to the network (no stub matched)",
                "GET \(server.url("/echo")) -> 200 from the network (passed through by \(live))",
            ])
        #expect(registry.verify().isSuccess, "a passThrough registry does not report what it passed through")
        #expect(registry.verify(includePassedThrough: true).problems.filter { $0.kind == .unexpectedRequest }.count == 1)

        let failing = StubRegistry()
        _ = await fetch("https://api.test/missing", from: failing)
        #expect(failing.journal.map(\.description) == ["GET https://api.test/missing -> unmatched"])
        #expect(failing.journal.first?.isPassedThrough == false)
    }
}
