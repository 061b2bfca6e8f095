import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
@testable import TestSupport

// The child process: macOS and Linux only.
#if os(macOS) || os(Linux)
/// Entries built in code replay GraphQL requests by meaning (operation and variables, not the
/// document's spacing) without any GraphQL API named first: replaying brings the formats it
/// reads. The replay runs in a fresh child process, where nothing has registered them before.
@Suite("Replaying GraphQL entries without naming GraphQL")
struct ReplayingGraphQLEntriesTests {
    private static let childVariable = "URLSTUBS_TEST_GRAPHQL_ENTRIES"

    /// Runs only inside the child: replays a recorded query for a request whose document is
    /// spaced differently.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func childReplaysAReformattedQuery() async throws {
        let url = try #require(URL(string: "https://api.example.com/graphql"))
        let recorded = HAREntry(
            method: "POST", url: url, requestHeaders: ["Content-Type": "application/json"],
            requestBody: Data(#"{"query":"query Profile($id: ID!) { user(id: $id) { name } }","variables":{"id":"7"}}"#.utf8),
            requestMimeType: "application/json", status: 200, responseHeaders: ["Content-Type": "application/json"],
            responseBody: Data(#"{"data":{"user":{"name":"Ada"}}}"#.utf8), responseMimeType: "application/json")
        let registry = StubRegistry()
        registry.stubs(fromHAREntries: [recorded])
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"variables":{"id":"7"},"query":"query Profile($id: ID!) {\n  user(id: $id) {\n    name\n  }\n}"}"#.utf8)
        let result = await fetch(request, from: registry)
        #expect(result.statusCode == 200, "\(result)")
        #expect(result.body == #"{"data":{"user":{"name":"Ada"}}}"#)
    }

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func entriesReplayAGraphQLQueryByItsMeaningInAFreshProcess() async throws {
        let child = try await runTestInChildProcess(
            "childReplaysAReformattedQuery", environment: [Self.childVariable: "1"], timeLimit: 120)
        #expect(child.status == 0, "\(child.output)")
    }
}
#endif
