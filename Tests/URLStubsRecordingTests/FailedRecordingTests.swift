import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsRecording
import LoopbackTestServer
@testable import TestSupport

// The server is a child process (TestServer): these tests run where Process exists.
#if os(macOS) || os(Linux)
/// A recording in which an exchange failed at the network (the server down, the VPN off) lacks
/// that exchange: it never replaces the cassette, and the save says so, and how to retry.
@Suite("Recordings that failed at the network")
struct FailedRecordingTests {
    let server = TestServer.shared

    /// A URL of a loopback port nothing listens on, carrying a secret.
    private static func downURL() throws -> URL {
        URL(string: "http://127.0.0.1:\(try closedLoopbackPort())/users/1?token=SECRET-RECORDING-TOKEN&page=1")!
    }

    /// A good cassette of one exchange, as a previous run saved it.
    private func recordGoodCassette(_ file: URL) async throws -> Data {
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        #expect(await fetch(URLRequest(url: server.url("/json")), from: registry).statusCode == 200)
        try recorder.save()
        return try Data(contentsOf: file)
    }

    @Test(arguments: [RecordMode.all, .newEpisodes])
    func aReRecordWithTheServerDownKeepsTheCassetteAndSaysHowToRetry(mode: RecordMode) async throws {
        let file = temporaryHAR("fetchUser")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let good = try await recordGoodCassette(file)
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: mode, environment: [:], testName: "fetchUser()")
        var request = URLRequest(url: try Self.downURL())
        request.setValue("Bearer SECRET-RECORDING-BEARER", forHTTPHeaderField: "Authorization")
        let result = await fetch(request, from: registry, using: .asyncData)
        #expect(result.urlError?.code == .cannotConnectToHost, "\(String(describing: result.error))")
        let error = try #require(throws: StubError.self) { try recorder.save() }
        guard case .library(RecordingFailure.recordingFailed(let path, let failed, let first, let previousKept, let command)) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(path == file.path)
        #expect(failed == 1)
        #expect(first.contains("GET http://127.0.0.1:") && first.contains("/users/1?token=<scrubbed>&page=1"), "\(first)")
        #expect(previousKept)
        #expect(command == "URLSTUBS_RECORD=\(mode.rawValue) swift test --filter fetchUser")
        let message = "\(error)"
        #expect(!message.contains("SECRET"), "\(message)")
        #expect(message.contains("the recording \(file.path) was not saved: 1 exchange failed at the network"), "\(message)")
        #expect(message.contains("The previous cassette was kept as it was; nothing of this run was written."), "\(message)")
        #expect(message.contains("record again with:\n    URLSTUBS_RECORD=\(mode.rawValue) swift test --filter fetchUser"), "\(message)")
        #expect((error as NSError).domain == StubError.errorDomain)
        #expect((error as NSError).code == 24)
        #expect(try Data(contentsOf: file) == good, "the cassette is the one the previous run saved")
        #expect(!FileManager.default.fileExists(atPath: PartialCassette.url(of: file).path), "nothing is left to fold in later")
        #expect(throws: StubError.self, "every later save says so too") { try recorder.save() }
        #expect(try Data(contentsOf: file) == good)
    }

    @Test func aFirstRecordingWithAFailedExchangeWritesNoCassette() async throws {
        let file = temporaryHAR("fetchUser")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .once, environment: [:], testName: "fetchUser()")
        #expect(await fetch(URLRequest(url: server.url("/json")), from: registry).statusCode == 200)
        #expect(await fetch(URLRequest(url: try Self.downURL()), from: registry).urlError?.code == .cannotConnectToHost)
        #expect(await fetch(URLRequest(url: try Self.downURL()), from: registry).urlError?.code == .cannotConnectToHost)
        let error = try #require(throws: StubError.self) { try recorder.save() }
        let message = "\(error)"
        #expect(message.contains("2 exchanges failed at the network"), "\(message)")
        #expect(message.contains("No cassette was written."), "\(message)")
        #expect(message.contains("URLSTUBS_RECORD=once swift test --filter fetchUser"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(!FileManager.default.fileExists(atPath: PartialCassette.url(of: file).path))
    }

    @Test func aRequestTheAppCancelsIsNoFailure() async throws {
        let file = temporaryHAR("fetchUser")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        // The server answers, and the request times out, only after 600 s: however late the
        // cancel comes on a loaded machine, it finds the request in flight.
        let slow = URLRequest(url: server.url("/slow?ms=600000"), timeoutInterval: 600)
        let cancelled = Task { try await session.data(for: slow) }
        try await Task.sleep(nanoseconds: 300_000_000)
        cancelled.cancel()
        _ = await cancelled.result
        #expect(await fetch(URLRequest(url: server.url("/json")), from: registry).statusCode == 200)
        // The cancelled passthrough reports its end on the registry's lane: give it time.
        try await Task.sleep(nanoseconds: 500_000_000)
        try await onItsOwnThread { try recorder.save() }
        #expect(try HAR.read(contentsOf: file).map(\.url.path) == ["/json"])
    }

    @Test func aDeadRunWhoseExchangeFailedIsNotFoldedIn() async throws {
        let file = temporaryHAR("fetchUser")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let good = try await recordGoodCassette(file)
        // A run in `all` mode that dies before its save: one exchange recorded, one failed.
        final class WeakBox: @unchecked Sendable { weak var recorder: HARRecorder? }
        let abandoned = WeakBox()
        do {
            let registry = StubRegistry()
            let recorder = try registry.record(to: file, mode: .all, environment: [:])
            abandoned.recorder = recorder
            #expect(await fetch(URLRequest(url: server.url("/text")), from: registry).statusCode == 200)
            #expect(await fetch(URLRequest(url: try Self.downURL()), from: registry).error != nil)
            #expect(recorder.recordedEntries.count == 1, "the writer has both")
            registry.removeAll()
        }
        try await waitUntil(timeout: 30) { abandoned.recorder == nil }
        #expect(abandoned.recorder == nil, "the recorder is gone, as with a run that died")
        let partial = PartialCassette.url(of: file)
        let left = String(decoding: try Data(contentsOf: partial), as: UTF8.self)
        #expect(left.contains("urlstubsNetworkFailure") && !left.contains("SECRET"), "\(left)")
        // The next recorder does not fold it in: that run's save would have refused.
        let next = StubRegistry()
        let replaying = try next.record(to: file, mode: .once, environment: [:])
        #expect(!replaying.isRecording)
        #expect(try Data(contentsOf: file) == good)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }

    @Test func aReplayingRegistrysNearMissReportNamesTheCassetteAndHowToRecordIt() async throws {
        let file = temporaryHAR("fetchUser")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        _ = try await recordGoodCassette(file)
        let registry = StubRegistry()
        _ = try registry.record(to: file, mode: .none, environment: [:], testName: "fetchUser()")
        let result = await fetch(URLRequest(url: server.url("/text")), from: registry)
        let report = try #require(result.stubError.map { "\($0)" })
        let lines = report.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("URLStubs: no stub matches GET \(server.url("/text"))") == true, "\(report)")
        #expect(
            lines.dropFirst().first == "Not in the cassette \(file.path) (1 entry), which this registry replays. "
                + "If the app now makes this request, record what the cassette lacks with:", "\(report)")
        #expect(
            report.contains(
                "    URLSTUBS_RECORD=newEpisodes swift test --filter fetchUser\nor record the cassette afresh with:\n"
                    + "    URLSTUBS_RECORD=all swift test --filter fetchUser\n"), "\(report)")
        let verification = registry.verify().description
        #expect(verification.contains("Not in the cassette \(file.path) (1 entry)"), "\(verification)")
    }
}
#endif
