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
/// Stubs and a recorder on one registry: the recorder is a stub that passes every request
/// through and records it, and the newest matching stub answers a request.
@Suite("Stubs beside a recorder")
struct RecorderAndStubsTests {
    let server = TestServer.shared

    @Test func aStubAddedAfterRecordToAnswersFirstAndIsNotRecorded() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        registry.stub(isPath("/json"), name: "outage") { _ in .passthrough(.statusCode(503)) }
        #expect(await fetch(URLRequest(url: server.url("/json")), from: registry).statusCode == 503, "the stub answers")
        #expect(await fetch(URLRequest(url: server.url("/text")), from: registry).statusCode == 200, "the recorder answers the rest")
        try recorder.save()
        #expect(try HAR.read(contentsOf: file).map(\.url.path) == ["/text"], "the stub's exchange is not recorded")
    }

    @Test func aStubAddedBeforeRecordToIsNotReachedWhileTheRecorderRecords() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        registry.stub(isPath("/json"), name: "outage") { _ in .passthrough(.statusCode(503)) }
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        #expect(await fetch(URLRequest(url: server.url("/json")), from: registry).statusCode == 200, "the recorder answers")
        try recorder.save()
        #expect(try HAR.read(contentsOf: file).map(\.status) == [200], "the real exchange is recorded")
    }

    // MARK: The warning, on standard error (read from a child process)

    private static let childFileVariable = "URLSTUBS_TEST_SHADOWED_HAR"
    private static let childURLVariable = "URLSTUBS_TEST_SHADOWED_URL"

    /// Runs only inside the child: records on a registry that already holds a stub.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childFileVariable] != nil))
    func childRecordsOverAStub() async throws {
        let file = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment[Self.childFileVariable]))
        let url = try #require(ProcessInfo.processInfo.environment[Self.childURLVariable].flatMap(URL.init(string:)))
        let registry = StubRegistry()
        registry.stub(isPath("/json"), name: "outage") { _ in .passthrough(.statusCode(503)) }
        registry.stub(isPath("/other")) { _ in StubResponse(statusCode: 204) }
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        #expect(await fetch(URLRequest(url: url), from: registry).statusCode == 200)
        try recorder.save()
    }

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func recordingOverStubsTheRegistryAlreadyHoldsWarnsNamingThem() async throws {
        let file = temporaryHAR("shadow")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let child = try await runTestInChildProcess(
            "childRecordsOverAStub",
            environment: [Self.childFileVariable: file.path, Self.childURLVariable: server.url("/json").absoluteString])
        #expect(child.status == 0, "\(child.output)")
        let here = "URLStubsRecordingTests/RecorderAndStubsTests.swift:"
        #expect(child.output.contains("URLStubs: record(to: shadow.har) at \(here)"), "\(child.output)")
        #expect(
            child.output.contains(
                "starts recording on a registry that already holds 2 stubs (\"outage\" (\(here)"), "\(child.output)")
        #expect(child.output.contains("), a stub at \(here)"), "\(child.output)")
        #expect(child.output.contains("None of them answers while the recorder records"), "\(child.output)")
        #expect(child.output.contains("Add such stubs after record(to:) to answer before the recorder"), "\(child.output)")
    }
}
#endif
