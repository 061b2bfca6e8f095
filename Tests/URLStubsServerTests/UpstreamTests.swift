import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// No proxy by accident: over the server, a passthrough goes only to the upstream the test
/// names, never to the host a request names, never back to the server itself.
@Suite("Serving stubs: passthrough goes to the named upstream only")
struct UpstreamTests {
    /// A real server standing for the network: it answers `/real` with the Host it was sent.
    private static func upstream() throws -> StubServer {
        let registry = StubRegistry()
        registry.stub(isPath("/base/real")) { request in
            StubResponse(string: "from upstream \(request.url?.query ?? "") host \(request.headers["Host"] ?? "?")")
        }
        registry.stub(isPath("/real")) { _ in StubResponse(string: "from upstream, outside its base") }
        return try registry.serve()
    }

    private static func exchange(_ request: String, port: UInt16, timeout: TimeInterval = 20) async throws -> RawConnection.Response {
        try await offThePool {
            let connection = try RawConnection(port: port)
            try connection.send(request)
            return try connection.readResponse(timeout: timeout)
        }
    }

    /// The open proxy: a Host naming another server was fetched from it.
    @Test func aHostNamingAnotherServerIsNotFetched() async throws {
        let network = try Self.upstream()
        defer { network.stop() }
        let server = try StubRegistry(unmatchedRequests: .passthrough).serve()
        defer { server.stop() }
        let response = try await Self.exchange("GET /real HTTP/1.1\r\nHost: 127.0.0.1:\(network.port)\r\n\r\n", port: server.port)
        #expect(response.status == 421)
        let absolute = try await Self.exchange(
            "GET http://127.0.0.1:\(network.port)/real HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n", port: server.port)
        #expect(absolute.status == 421)
        #expect(network.registry.journal.isEmpty)
    }

    /// Without an upstream, an unmatched request of a `.passthrough` registry gets the near-miss
    /// report at once, where it used to be passed to the server itself, hop after hop.
    @Test func withoutAnUpstreamAPassthroughIsTheNearMiss404() async throws {
        let registry = StubRegistry(unmatchedRequests: .passthrough)
        registry.stub(isPath("/through")) { _ in .passthrough() }
        let server = try registry.serve()
        defer { server.stop() }
        for path in ["/missing", "/through"] {
            let response = try await Self.exchange(
                "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n", port: server.port, timeout: 60)
            #expect(response.status == 404, "\(path): \(response.text)")
            #expect(response.value("URLStubs-Error") == "unmatchedRequest")
            #expect(response.text.contains("upstream"), "the report says how to name one: \(response.text)")
        }
        #expect(registry.journal.count == 2, "one entry per request: no request came back to the server")
    }

    @Test func aPassthroughGoesToTheUpstreamWithTheRequestsPathAndQuery() async throws {
        let network = try Self.upstream()
        defer { network.stop() }
        let registry = StubRegistry(unmatchedRequests: .passthrough)
        let server = try registry.serve(upstream: network.url("/base"))
        defer { server.stop() }
        let response = try await Self.exchange("GET /real?page=2 HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n", port: server.port)
        #expect(response.status == 200)
        #expect(response.text == "from upstream page=2 host 127.0.0.1:\(network.port)")
        #expect(network.registry.journal.count == 1)
        // A request naming another host is still refused; the upstream is the only way out.
        let other = try await Self.exchange(
            "GET http://example.com/real HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n", port: server.port)
        #expect(other.status == 421)
        #expect(network.registry.journal.count == 1)
    }

    /// Two servers, each the other's upstream: a request not stubbed anywhere ends after one hop.
    @Test func serversThatAreEachOthersUpstreamDoNotLoop() async throws {
        let first = StubRegistry(unmatchedRequests: .passthrough)
        let second = StubRegistry(unmatchedRequests: .passthrough)
        var pair: (StubServer, StubServer)?
        for _ in 0..<5 where pair == nil {
            // The second server's port, known before it starts: a free one, taken again at once.
            let probe = try StubRegistry().serve()
            let port = probe.port
            probe.stop()
            let firstServer = try first.serve(upstream: URL(string: "http://127.0.0.1:\(port)")!)
            if let secondServer = try? second.serve(port: port, upstream: firstServer.baseURL) {
                pair = (firstServer, secondServer)
            } else {
                firstServer.stop()
            }
        }
        let (firstServer, secondServer) = try #require(pair)
        defer {
            firstServer.stop()
            secondServer.stop()
        }
        let response = try await Self.exchange(
            "GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1:\(firstServer.port)\r\n\r\n", port: firstServer.port, timeout: 30)
        #expect(response.status == 404)
        #expect(first.journal.count == 1)
        #expect(second.journal.count == 1)
    }

    @Test func anUpstreamThatIsTheServerItselfIsRefused() async throws {
        let registry = StubRegistry(unmatchedRequests: .passthrough)
        let probe = try registry.serve()
        let port = probe.port
        probe.stop()
        let error = #expect(throws: StubServerError.self) {
            try registry.serve(port: port, upstream: URL(string: "http://localhost:\(port)/api")!)
        }
        #expect(error?.description.contains("the server itself") == true, "\(String(describing: error))")
    }
}
#endif
