import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// What the article "Serving stubs over HTTP" says the server takes and refuses, on the wire.
@Suite("Serving stubs: versions and framing the article describes")
struct ProtocolVersionTests {
    private static func answer(_ request: String) async throws -> RawConnection.Response {
        let registry = StubRegistry()
        registry.stub(isPath("/ok")) { _ in StubResponse(string: "ok") }
        let server = try registry.serve()
        defer { server.stop() }
        return try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send(request)
            return try connection.readResponse()
        }
    }

    @Test func laterVersionsAndTheHTTP2PrefaceAre505() async throws {
        for request in [
            "GET /ok HTTP/2.0\r\nHost: localhost\r\n\r\n", "GET /ok HTTP/3.0\r\nHost: localhost\r\n\r\n",
            "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        ] {
            #expect(try await Self.answer(request).status == 505, "\(request.debugDescription)")
        }
    }

    @Test func anUnknownTransferCodingIs501() async throws {
        let response = try await Self.answer("POST /ok HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n")
        #expect(response.status == 501)
    }

    @Test func http10WithoutHostAndBareLineFeedsAreServed() async throws {
        let old = try await Self.answer("GET /ok HTTP/1.0\r\n\r\n")
        #expect(old.status == 200 && old.text == "ok")
        let bareLF = try await Self.answer("GET /ok HTTP/1.1\nHost: localhost\n\n")
        #expect(bareLF.status == 200 && bareLF.text == "ok")
    }

    @Test func http11WithoutHostIs400() async throws {
        let response = try await Self.answer("GET /ok HTTP/1.1\r\n\r\n")
        #expect(response.status == 400)
        #expect(response.text.contains("without a Host header"), "\(response.text)")
    }
}
#endif
