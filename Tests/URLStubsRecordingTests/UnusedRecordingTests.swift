import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
import LoopbackTestServer
@testable import TestSupport

// The server is a child process (TestServer): these tests run where Process exists.
#if os(macOS) || os(Linux)
/// Recorded requests a replaying test never made are reported by verify().
@Suite("Unused recorded entries")
struct UnusedRecordingTests {
    let server = TestServer.shared

    /// A recording of GET /json and GET /text, made against the real server.
    private func recording() async throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-unused-\(UUID().uuidString)/profile.har")
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        _ = await fetch(URLRequest(url: server.url("/json")), from: registry)
        _ = await fetch(URLRequest(url: server.url("/text")), from: registry)
        try recorder.save()
        #expect(registry.verify().isSuccess, "recording reports nothing: \(registry.verify())")
        return file
    }

    @Test func verifyNamesEachRecordedRequestTheTestNeverMade() async throws {
        let file = try await recording()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        _ = try registry.record(to: file, mode: .none, environment: [:])
        #expect(await fetch(URLRequest(url: server.url("/json")), from: registry).statusCode == 200)
        let report = registry.verify()
        #expect(!report.isSuccess)
        #expect(
            report.problems.filter { $0.kind == .unusedRecordedEntry }.map(\.stub?.name) == ["profile.har: GET \(server.url("/text").absoluteString)"]
        )
        #expect(
            report.description.contains("recorded request never made: \"profile.har: GET \(server.url("/text").absoluteString)\""),
            "\(report)")
        #expect(!report.description.contains("/json\""), "the used entry is not reported")
        #expect(throws: VerificationReport.self) { try registry.verifyOrThrow() }
        // Using it clears the problem.
        _ = await fetch(URLRequest(url: server.url("/text")), from: registry)
        #expect(registry.verify().isSuccess)
    }

    @Test func anOptionTurnsTheReportOff() async throws {
        let file = try await recording()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        _ = try registry.record(to: file, mode: .none, reportsUnusedEntries: false, environment: [:])
        _ = await fetch(URLRequest(url: server.url("/json")), from: registry)
        #expect(registry.verify().isSuccess)
        let fixtures = StubRegistry()
        try fixtures.stubs(fromHAR: file)
        #expect(fixtures.verify().isSuccess, "a plain fixture archive reports nothing unless asked")
        var options = HARReplayOptions()
        options.reportsUnusedEntries = true
        let asked = StubRegistry()
        try asked.stubs(fromHAR: file, options: options)
        #expect(asked.verify().problems.filter { $0.kind == .unusedRecordedEntry }.count == 2)
    }
}
#endif
