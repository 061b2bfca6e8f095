import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// `stop()` returns once every connection has ended and its exchange is in the journal, so a
/// `verify()` right after it sees everything.
@Suite("Serving stubs: stopping")
struct StopTests {
    @Test func stopReturnsWithEveryExchangeJournaled() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/busy")) { _ in
            Thread.sleep(forTimeInterval: 3)
            return StubResponse(string: "late")
        }
        registry.stub(isPath("/held")) { _ in .neverResponding() }
        let server = try registry.serve()
        let connections = try await offThePool {
            try ["/busy", "/held"].map { path in
                let connection = try RawConnection(port: server.port)
                try connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                return connection
            }
        }
        let deadline = Date().addingTimeInterval(10)
        while registry.journal.count < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(200))
        let started = Date()
        server.stop()
        let took = Date().timeIntervalSince(started)
        let entries = registry.journal
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.statusCode != nil || $0.errorDescription != nil }, "still open after stop(): \(entries)")
        #expect(took < 10, "stop() took \(took) s")
        for connection in connections { connection.close() }
    }
}
#endif
