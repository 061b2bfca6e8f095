import Foundation
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
@Suite("Serving stubs: many connections")
struct ConcurrencyTests {
    /// 500 connections open at once, each with a request in flight: every one gets its own
    /// answer while all are held.
    @Test func fiveHundredConcurrentConnectionsAreAllAnswered() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/n")) { request in StubResponse(string: request.url?.query ?? "") }
        let server = try registry.serve()
        defer { server.stop() }
        let (answers, heldAtOnce) = try await offThePool {
            let connections = try (0..<500).map { _ in try RawConnection(port: server.port) }
            for (index, connection) in connections.enumerated() {
                try connection.send("GET /n?\(index) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            }
            let answers = try connections.map { try $0.readResponse(timeout: 30).text }
            let held = server.openConnections
            for connection in connections { connection.close() }
            return (answers, held)
        }
        #expect(answers == (0..<500).map(String.init))
        #expect(heldAtOnce == 500)
        #expect(registry.journal.count == 500)
    }
}
#endif
