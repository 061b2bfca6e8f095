import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs

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
