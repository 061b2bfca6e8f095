import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// Who may talk to the server: a request must name the server itself (or a host the test
/// allowed), and a web page may reach it only from an origin the test named. A refused request
/// never reaches a stub.
@Suite("Serving stubs: who may talk to it")
struct AccessTests {
    private static func registryWithOneUseFixture() -> (StubRegistry, StubDescriptor) {
        let registry = StubRegistry()
        let stub = registry.stub(isPath("/fixture"), times: 1) { _ in StubResponse(string: "the fixture") }
        return (registry, stub)
    }

    private static func exchange(_ request: String, port: UInt16) async throws -> RawConnection.Response {
        try await offThePool {
            let connection = try RawConnection(port: port)
            try connection.send(request)
            return try connection.readResponse()
        }
    }

    /// DNS rebinding: a page on `rebind.attacker.example` whose name now resolves to 127.0.0.1.
    @Test(.enabled(if: ExternalClients.curl != nil, "curl is not installed here: install curl to run this test"))
    func aRequestNamingAnotherHostIsRefusedAndUsesNoStub() async throws {
        let (registry, stub) = Self.registryWithOneUseFixture()
        let server = try registry.serve()
        defer { server.stop() }
        let url = server.url("/fixture").absoluteString
        for host in ["rebind.attacker.example:\(server.port)", "0x7f000001:\(server.port)", "127.0.0.2:\(server.port)", "localhost.:1"] {
            let run = try await ExternalClients.runCurl(["--include", "--header", "Host: \(host)", url])
            #expect(run.output.hasPrefix("HTTP/1.1 421 "), "\(host): \(run.output)")
            #expect(run.output.contains("URLStubs-Error: hostNotAllowed"), "\(run.output)")
            #expect(run.output.contains("allowedHosts"), "the refusal says how to allow a host: \(run.output)")
            #expect(!run.output.contains("the fixture"))
        }
        #expect(stub.activationCount == 0)
        #expect(registry.journal.isEmpty)
        let own = try await ExternalClients.runCurl([url])
        #expect(own.output == "the fixture")
    }

    @Test func theServersOwnNamesAreServed() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/fixture")) { request in StubResponse(string: request.url?.host ?? "?") }
        let server = try registry.serve()
        defer { server.stop() }
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "LocalHost:\(server.port)", "[::1]:\(server.port)", "localhost"] {
            let response = try await Self.exchange("GET /fixture HTTP/1.1\r\nHost: \(host)\r\n\r\n", port: server.port)
            #expect(response.status == 200, "\(host): \(response.text)")
        }
    }

    @Test func aHostTheTestAllowsIsServed() async throws {
        let (registry, stub) = Self.registryWithOneUseFixture()
        let server = try registry.serve(allowedHosts: ["api.test"])
        defer { server.stop() }
        let response = try await Self.exchange("GET /fixture HTTP/1.1\r\nHost: API.test:\(server.port)\r\n\r\n", port: server.port)
        #expect(response.status == 200)
        #expect(response.text == "the fixture")
        #expect(stub.activationCount == 1)
        let other = try await Self.exchange("GET /fixture HTTP/1.1\r\nHost: api.test.evil:\(server.port)\r\n\r\n", port: server.port)
        #expect(other.status == 421)
    }

    /// A target in absolute form names its host in the target: the same rule applies.
    @Test func anAbsoluteTargetNamingAnotherHostIsRefused() async throws {
        let (registry, stub) = Self.registryWithOneUseFixture()
        let server = try registry.serve()
        defer { server.stop() }
        let refused = try await Self.exchange(
            "GET http://other.example/fixture HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n", port: server.port)
        #expect(refused.status == 421)
        #expect(stub.activationCount == 0)
        let served = try await Self.exchange(
            "GET http://127.0.0.1:\(server.port)/fixture HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n", port: server.port)
        #expect(served.status == 200)
    }

    /// A simple cross-origin GET from a page in the developer's browser.
    @Test func aRequestFromAnotherOriginIsRefusedAndUsesNoStub() async throws {
        let (registry, stub) = Self.registryWithOneUseFixture()
        let server = try registry.serve()
        defer { server.stop() }
        for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
            let refused = try await Self.exchange(
                "GET /fixture HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: \(origin)\r\n\r\n", port: server.port)
            #expect(refused.status == 403, "\(origin)")
            #expect(refused.value("URLStubs-Error") == "originNotAllowed")
            #expect(refused.text.contains("allowedOrigins"), "\(refused.text)")
            #expect(refused.value("Access-Control-Allow-Origin") == nil)
        }
        #expect(stub.activationCount == 0)
        #expect(registry.journal.isEmpty)
        // A page the server itself served is of its own origin.
        let sameOrigin = try await Self.exchange(
            "GET /fixture HTTP/1.1\r\nHost: localhost:\(server.port)\r\nOrigin: http://localhost:\(server.port)\r\n\r\n", port: server.port)
        #expect(sameOrigin.status == 200)
        #expect(sameOrigin.value("Access-Control-Allow-Origin") == nil)
    }

    @Test func corsAnswersOnlyTheOriginsTheTestNames() async throws {
        let (registry, stub) = Self.registryWithOneUseFixture()
        let server = try registry.serve(allowedOrigins: ["http://app.test:3000"])
        defer { server.stop() }
        let preflight = try await Self.exchange(
            "OPTIONS /fixture HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: http://app.test:3000\r\n"
                + "Access-Control-Request-Method: PUT\r\nAccess-Control-Request-Headers: x-token, content-type\r\n\r\n", port: server.port)
        #expect(preflight.status == 204)
        #expect(preflight.value("Access-Control-Allow-Origin") == "http://app.test:3000")
        #expect(preflight.value("Access-Control-Allow-Methods")?.contains("PUT") == true)
        #expect(preflight.value("Access-Control-Allow-Headers") == "x-token, content-type")
        #expect(preflight.value("Vary")?.contains("Origin") == true)
        #expect(registry.journal.isEmpty, "a preflight is the server's to answer")
        let get = try await Self.exchange(
            "GET /fixture HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: http://app.test:3000\r\n\r\n", port: server.port)
        #expect(get.status == 200)
        #expect(get.value("Access-Control-Allow-Origin") == "http://app.test:3000")
        #expect(get.value("Access-Control-Allow-Credentials") == "true")
        #expect(stub.activationCount == 1)
        let other = try await Self.exchange(
            "OPTIONS /fixture HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: http://app.test:3001\r\n"
                + "Access-Control-Request-Method: GET\r\n\r\n", port: server.port)
        #expect(other.status == 403)
    }

    @Test func corsIsOffByDefault() async throws {
        let (registry, _) = Self.registryWithOneUseFixture()
        let server = try registry.serve()
        defer { server.stop() }
        let preflight = try await Self.exchange(
            "OPTIONS /fixture HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: http://app.test:3000\r\n"
                + "Access-Control-Request-Method: PUT\r\n\r\n", port: server.port)
        #expect(preflight.status == 403)
        #expect(preflight.value("Access-Control-Allow-Origin") == nil)
    }
}
#endif
