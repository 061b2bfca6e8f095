import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
import URLStubsServer

#if os(Linux) || os(macOS)
/// No open proxy through recording: a served registry that records (`record(to:)`) fetches
/// only from the upstream the test names. A request whose `Host` or absolute-form target names
/// another server, or a web page's cross-origin POST, is refused before the registry sees it:
/// nothing is fetched from that server and nothing of it reaches the cassette.
@Suite("Serving stubs: recording fetches from the named upstream only")
struct RecordingOverServerTests {
    /// A server standing for a host an attacker names: its answer carries a token and a cookie.
    private static func foreign() throws -> StubServer {
        let registry = StubRegistry()
        registry.stub(.any) { _ in
            StubResponse(string: "foreign token FOREIGN-SECRET", headers: ["Set-Cookie": "session=FOREIGN-COOKIE"])
        }
        return try registry.serve(allowedHosts: ["attacker.example"])
    }

    /// The upstream the test names: it answers under `/base`.
    private static func upstream() throws -> StubServer {
        let registry = StubRegistry()
        registry.stub(isPath("/base/real")) { request in StubResponse(string: "from upstream \(request.url?.query ?? "")") }
        return try registry.serve()
    }

    private static func exchange(_ request: String, port: UInt16) async throws -> RawConnection.Response {
        try await offThePool {
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            try connection.send(request)
            return try connection.readResponse(timeout: 30)
        }
    }

    @Test func foreignHostsAndCrossOriginPostsAreNeitherFetchedNorRecorded() async throws {
        let foreign = try Self.foreign()
        defer { foreign.stop() }
        let network = try Self.upstream()
        defer { network.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassette = folder.appendingPathComponent("served.har")
        let registry = StubRegistry()
        let recorder = try registry.record(to: cassette, mode: .all, environment: [:])
        let server = try registry.serve(upstream: network.url("/base"))
        defer { server.stop() }
        let own = "127.0.0.1:\(server.port)"
        let other = "127.0.0.1:\(foreign.port)"

        // A Host naming the other server (DNS rebinding, or a client told to use it as a proxy).
        let byHost = try await Self.exchange("GET /real HTTP/1.1\r\nHost: \(other)\r\n\r\n", port: server.port)
        #expect(byHost.status == 421, "\(byHost.text)")
        // The absolute form, with the server's own Host, and with a name the other server answers.
        for target in ["http://\(other)/real", "http://attacker.example:\(foreign.port)/real"] {
            let absolute = try await Self.exchange("GET \(target) HTTP/1.1\r\nHost: \(own)\r\n\r\n", port: server.port)
            #expect(absolute.status == 421, "\(target): \(absolute.text)")
        }
        // A page's cross-origin POST (a simple request: no preflight) carrying a secret.
        let body = "token=CROSS-ORIGIN-SECRET"
        let post = try await Self.exchange(
            "POST /real HTTP/1.1\r\nHost: \(own)\r\nOrigin: http://attacker.example\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)",
            port: server.port)
        #expect(post.status == 403, "\(post.text)")
        // The test's own request goes to the upstream it named, and is recorded.
        let polite = try await Self.exchange("GET /real?page=2 HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n", port: server.port)
        #expect(polite.status == 200)
        #expect(polite.text == "from upstream page=2")

        #expect(foreign.registry.journal.isEmpty, "fetched from the foreign server: \(foreign.registry.journal)")
        #expect(network.registry.journal.count == 1, "\(network.registry.journal)")
        #expect(registry.journal.count == 1, "only the polite request reached the recording registry: \(registry.journal)")
        try recorder.save()
        let entries = try HAR.read(contentsOf: cassette)
        #expect(entries.map { "\($0.method) \($0.url.path)?\($0.url.query ?? "") \($0.status)" } == ["GET /real?page=2 200"])
        let text = try String(contentsOf: cassette, encoding: .utf8)
        for leak in ["FOREIGN-SECRET", "FOREIGN-COOKIE", "CROSS-ORIGIN-SECRET", "attacker.example", other] {
            #expect(!text.contains(leak), "the cassette holds \(leak)")
        }
    }
}
#endif
