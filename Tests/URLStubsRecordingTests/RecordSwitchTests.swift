import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
import LoopbackTestServer
@testable import TestSupport

// Child processes and the real server (TestServer): macOS and Linux only.
#if os(macOS) || os(Linux)
/// `URLSTUBS_RECORD` and `CI` decide the record mode for a whole run.
@Suite("The record switch")
struct RecordSwitchTests {
    let server = TestServer.shared

    @Test func theVariableOverridesTheModeInCode() async throws {
        let file = temporaryHAR("fetchUser")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let tag = UUID().uuidString
        let recording = StubRegistry()
        let recorder = try recording.record(to: file, mode: .none, environment: ["URLSTUBS_RECORD": "all", "CI": "true"])
        #expect(recorder.mode == .all && recorder.isRecording, "the variable wins over the code and over CI")
        _ = await fetch(URLRequest(url: server.url("/json?tag=\(tag)")), from: recording)
        try recorder.save()
        #expect(try await server.count("/json", tag: tag) == 1)
        let replaying = StubRegistry()
        let replayer = try replaying.record(to: file, mode: .all, environment: ["CI": "1"])
        #expect(replayer.mode == RecordMode.none, "CI alone means none")
        let replayed = await fetch(URLRequest(url: server.url("/json?tag=\(tag)")), from: replaying)
        #expect(replayed.statusCode == 200)
        #expect(try await server.count("/json", tag: tag) == 1, "the CI run never reached the server")
        #expect(throws: StubError.library(RecordingFailure.invalidRecordMode(value: "sometimes"))) {
            try StubRegistry().record(to: file, environment: ["URLSTUBS_RECORD": "sometimes"])
        }
    }

    @Test func aMissingRecordingUnderCINamesTheCommandThatRecordsIt() throws {
        let file = temporaryHAR("fetchUser")
        let error = #expect(throws: StubError.self) { try StubRegistry().record(to: file, mode: .once, environment: ["CI": "true"]) }
        let message = String(describing: try #require(error))
        #expect(message.contains("URLSTUBS_RECORD=once swift test --filter aMissingRecordingUnderCINamesTheCommandThatRecordsIt"), "\(message)")
        #expect(message.contains(file.path))
        #expect(message.contains("CI is set"))
    }

    // MARK: A whole test run in a child process

    private static let childFileVariable = "URLSTUBS_TEST_CHILD_HAR"
    private static let childURLVariable = "URLSTUBS_TEST_CHILD_URL"

    /// Runs only inside the child process: records (or replays) the file it is given, the way a
    /// user's test does, with the mode in code `.once` and no environment of its own.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childFileVariable] != nil))
    func childFetchesThroughARecording() async throws {
        let file = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment[Self.childFileVariable]))
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .once)
        // The parent's server: the URL must be the same in every run for the replay to match.
        let url = try #require(ProcessInfo.processInfo.environment[Self.childURLVariable].flatMap(URL.init(string:)))
        let result = await fetch(URLRequest(url: url), from: registry)
        #expect(result.statusCode == 200)
        try recorder.save()
    }

    private func runChild(_ environment: [String: String]) async throws -> ChildProcessResult {
        try await runTestInChildProcess(
            "childFetchesThroughARecording", environment: [Self.childURLVariable: server.url("/json").absoluteString].merging(environment) { $1 })
    }

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func aCIRunWithoutTheRecordingFailsWithTheCommandAndTheSwitchRecordsIt() async throws {
        let file = temporaryHAR("fetchUser")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let onCI = try await runChild(["CI": "true", Self.childFileVariable: file.path])
        #expect(onCI.status != 0, "\(onCI.output)")
        #expect(onCI.output.contains("URLSTUBS_RECORD=once swift test --filter childFetchesThroughARecording"), "\(onCI.output)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let recording = try await runChild(["CI": "true", "URLSTUBS_RECORD": "once", Self.childFileVariable: file.path])
        #expect(recording.status == 0, "\(recording.output)")
        #expect(try HAR.read(contentsOf: file).map(\.url.path) == ["/json"])
        let replaying = try await runChild(["CI": "true", Self.childFileVariable: file.path])
        #expect(replaying.status == 0, "with the recording, the CI run passes: \(replaying.output)")
    }
}
#endif
