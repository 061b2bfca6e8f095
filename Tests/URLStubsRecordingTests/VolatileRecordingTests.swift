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
/// Recording and replay ignore the same volatile fields, against the real server on 127.0.0.1.
@Suite("Volatile fields in recordings")
struct VolatileRecordingTests {
    let server = TestServer.shared

    private let volatile = VolatileFields(queryParameters: ["ts"], headers: ["X-Request-ID"], jsonPaths: ["$.sentAt", "$..nonce"])

    /// The same search each run, with a new timestamp, request id and nonce.
    private func search(tag: String, run: Int) -> URLRequest {
        request(
            server.url("/echo").absoluteString + "?tag=\(tag)&ts=\(run)", method: "POST",
            body: Data(#"{"q":"tea","sentAt":\#(run),"meta":{"nonce":"n\#(run)"}}"#.utf8),
            headers: ["Content-Type": "application/json", "X-Request-ID": UUID().uuidString])
    }

    @Test func newEpisodesReplaysARequestDifferingOnlyInVolatileFields() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-volatile-\(UUID().uuidString)/search.har")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let tag = UUID().uuidString
        let first = StubRegistry()
        let recorder = try first.record(to: file, mode: .once, volatileFields: volatile, environment: [:])
        let live = await fetch(search(tag: tag, run: 1), from: first)
        try recorder.save()
        for run in 2...3 {
            let registry = StubRegistry()
            let episodes = try registry.record(to: file, mode: .newEpisodes, volatileFields: volatile, environment: [:])
            let replayed = await fetch(search(tag: tag, run: run), from: registry)
            try episodes.save()
            #expect(replayed.data == live.data, "run \(run) is answered from the recording")
        }
        #expect(try await server.count("/echo", tag: tag) == 1, "only the first run reached the server")
        #expect(try HAR.read(contentsOf: file).count == 1, "no duplicate entry")
        // A real difference (another search) is a new episode.
        let registry = StubRegistry()
        let episodes = try registry.record(to: file, mode: .newEpisodes, volatileFields: volatile, environment: [:])
        var other = search(tag: tag, run: 4)
        other.httpBody = Data(#"{"q":"coffee","sentAt":4}"#.utf8)
        _ = await fetch(other, from: registry)
        try episodes.save()
        #expect(try HAR.read(contentsOf: file).count == 2)
        #expect(try await server.count("/echo", tag: tag) == 2)
    }

    @Test func newEpisodesRecordsARequestOnceInOneRunAndReplaysItThen() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-volatile-\(UUID().uuidString)/search.har")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let tag = UUID().uuidString
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .newEpisodes, volatileFields: volatile, environment: [:])
        let first = await fetch(search(tag: tag, run: 1), from: registry)
        #expect(first.statusCode == 200)
        for run in 2...3 {
            let again = await fetch(search(tag: tag, run: run), from: registry)
            #expect(again.data == first.data, "run \(run) is answered from the exchange just recorded")
        }
        #expect(try await server.count("/echo", tag: tag) == 1, "only the first request reached the server")
        // A real difference (another search) is still a new episode.
        var other = search(tag: tag, run: 4)
        other.httpBody = Data(#"{"q":"coffee","sentAt":4}"#.utf8)
        #expect(await fetch(other, from: registry).statusCode == 200)
        try recorder.save()
        #expect(try await server.count("/echo", tag: tag) == 2)
        #expect(try HAR.read(contentsOf: file).count == 2, "one entry per request, none twice")
        #expect(registry.verify().isSuccess, "entries recorded in this run are never unused: \(registry.verify())")
        // The next run replays both and adds nothing.
        let next = StubRegistry()
        let episodes = try next.record(to: file, mode: .newEpisodes, volatileFields: volatile, environment: [:])
        #expect(await fetch(search(tag: tag, run: 5), from: next).data == first.data)
        try episodes.save()
        #expect(try HAR.read(contentsOf: file).count == 2)
        #expect(try await server.count("/echo", tag: tag) == 2)
    }

    @Test func newEpisodesRecordsOnceTwoSuchRequestsInFlightTogether() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-volatile-\(UUID().uuidString)/slow.har")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let tag = UUID().uuidString
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .newEpisodes, volatileFields: volatile, environment: [:])
        async let first = fetch(URLRequest(url: server.url("/slow?ms=400&tag=\(tag)&ts=1")), from: registry)
        async let second = fetch(URLRequest(url: server.url("/slow?ms=400&tag=\(tag)&ts=2")), from: registry)
        let results = await [first, second]
        #expect(results.map(\.body) == ["slow", "slow"])
        try recorder.save()
        // Both may have reached the server before either came back; only one is recorded.
        #expect((1...2).contains(try await server.count("/slow", tag: tag)))
        #expect(try HAR.read(contentsOf: file).count == 1)
    }

    @Test func onceKeepsEveryExchangeAndReplaysThemInTurn() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-volatile-\(UUID().uuidString)/poll.har")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let tag = UUID().uuidString
        let recording = StubRegistry()
        let recorder = try recording.record(to: file, mode: .once, volatileFields: volatile, environment: [:])
        // A poll: the same request, answered differently each time (here, the echoed timestamp).
        let live = [await fetch(search(tag: tag, run: 1), from: recording), await fetch(search(tag: tag, run: 2), from: recording)]
        try recorder.save()
        #expect(try HAR.read(contentsOf: file).count == 2)
        #expect(try await server.count("/echo", tag: tag) == 2)
        let replaying = StubRegistry()
        _ = try replaying.record(to: file, mode: .none, volatileFields: volatile, environment: [:])
        let replayed = [await fetch(search(tag: tag, run: 7), from: replaying), await fetch(search(tag: tag, run: 8), from: replaying)]
        #expect(replayed.map(\.data) == live.map(\.data), "answered in the order recorded")
    }

    @Test func withoutVolatileFieldsEachRunIsANewEpisode() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-volatile-\(UUID().uuidString)/search.har")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let tag = UUID().uuidString
        for run in 1...2 {
            let registry = StubRegistry()
            let recorder = try registry.record(to: file, mode: .newEpisodes, environment: [:])
            _ = await fetch(search(tag: tag, run: run), from: registry)
            try recorder.save()
        }
        #expect(try HAR.read(contentsOf: file).count == 2, "the timestamp alone made the second run new")
    }
}
#endif
