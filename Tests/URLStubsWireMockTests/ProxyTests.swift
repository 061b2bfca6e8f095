import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TestSupport
import URLStubs
import URLStubsServer
@testable import URLStubsWireMock

#if os(Linux) || os(macOS)
/// `proxyBaseUrl`: the request goes to that base, its path and query appended, in process and
/// over loopback; over loopback never to the server itself.
@Suite("WireMock proxyBaseUrl")
struct ProxyTests {
    /// A real backend: another registry served over loopback, echoing what it was asked.
    static func backend() throws -> (StubRegistry, StubServer) {
        let registry = StubRegistry()
        registry.stub(pathStartsWith("/api")) { request in
            StubResponse(string: "backend saw \(request.method) \(request.url?.path ?? "")?\(request.url?.query ?? "")", statusCode: 202)
        }
        return (registry, try registry.serve())
    }

    static func proxying(to base: URL) throws -> WireMockMapping {
        try mapping(
            #"{"request": {"urlPathPattern": "/api/.*"}, "response": {"proxyBaseUrl": "\#(base.absoluteString.trimmingCharacters(in: ["/"]))"}}"#)
    }

    @Test func aProxyMappingForwardsInProcessAndOverLoopback() async throws {
        let (backendRegistry, backend) = try Self.backend()
        defer { backend.stop() }
        let registry = StubRegistry()
        try registry.stub(Self.proxying(to: backend.baseURL).declaration())
        let local = await fetch(request("https://api.test/api/users?page=2"), from: registry)
        #expect(local.statusCode == 202)
        #expect(local.body == "backend saw GET /api/users?page=2")
        let server = try registry.serveWireMock()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (data, response) = try await session.data(from: server.url("/api/orders?id=7"))
        #expect((response as? HTTPURLResponse)?.statusCode == 202)
        #expect(String(decoding: data, as: UTF8.self) == "backend saw GET /api/orders?id=7")
        #expect(backendRegistry.journal.count == 2)
        // Read back as WireMock's mapping, the proxy stays a proxy.
        #expect(
            try WireMockMapping(declaration: registry.declarations[0]).response.proxyBaseUrl
                == backend.baseURL.absoluteString.trimmingCharacters(in: ["/"]))
    }

    @Test func overLoopbackAProxyToTheServerItselfIsRefused() async throws {
        let registry = StubRegistry()
        let server = try registry.serveWireMock()
        defer { server.stop() }
        try registry.stub(Self.proxying(to: server.baseURL).declaration())
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (data, response) = try await session.data(from: server.url("/api/loop"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 500)
        #expect(String(decoding: data, as: UTF8.self).contains("this server itself"))
        #expect(registry.journal.count == 1, "the request was not sent to the server again")
    }

    @Test func proxyOptionsURLStubsCannotServeAreRefusedAtLoad() throws {
        let mapping = try mapping(
            #"{"request": {}, "response": {"proxyBaseUrl": "http://example.com", "additionalProxyRequestHeaders": {"X": "1"}}}"#)
        #expect(throws: FixtureError.self) { try mapping.declaration() }
    }
}
#endif
