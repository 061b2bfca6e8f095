import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
import LoopbackTestServer
@testable import TestSupport

// The server and the child process: macOS and Linux only.
#if os(macOS) || os(Linux)
/// An app that records GraphQL traffic without naming any GraphQL API still gets the inline
/// arguments of its documents scrubbed: recording brings the formats it scrubs. The recording
/// runs in a fresh child process, where nothing has used a GraphQL entry point before.
@Suite("Recording GraphQL without naming it")
struct RecordingGraphQLScrubbingTests {
    let server = TestServer.shared

    private static let childFileVariable = "URLSTUBS_TEST_GRAPHQL_HAR"
    private static let childURLVariable = "URLSTUBS_TEST_GRAPHQL_URL"
    private static let secret = "graphql-inline-password-secret"

    /// Runs only inside the child: records one GraphQL mutation with an inline password.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childFileVariable] != nil))
    func childRecordsAGraphQLMutation() async throws {
        let file = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment[Self.childFileVariable]))
        let url = try #require(ProcessInfo.processInfo.environment[Self.childURLVariable].flatMap(URL.init(string:)))
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        let document = #"mutation { login(user: \"ada\", password: \"\#(Self.secret)\") { ok } }"#
        let body = Data(#"{"query":"\#(document)"}"#.utf8)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        #expect(await fetch(request, from: registry).statusCode == 200)
        try recorder.save()
    }

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func aRecordingScrubsInlineGraphQLArgumentsWithoutAnyGraphQLAPIUsed() async throws {
        let file = temporaryHAR("graphql")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let child = try await runTestInChildProcess(
            "childRecordsAGraphQLMutation",
            environment: [Self.childFileVariable: file.path, Self.childURLVariable: server.url("/echo").absoluteString], timeLimit: 120)
        #expect(child.status == 0, "\(child.output)")
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written.contains("login"), "the mutation is recorded: \(written)")
        #expect(!written.contains(Self.secret), "the inline password reached the cassette: \(written)")
    }
}
#endif
