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

#if os(Linux) || os(macOS)
extension StopTests {
    /// A request whose response closure is still running when the server stops: `stop()`
    /// waits for it, so the journal read right after it has the request, ended.
    @Test func stopWaitsForAResponseBeingBuilt() async throws {
        let registry = StubRegistry()
        let started = DispatchSemaphore(value: 0)
        registry.stub(isPath("/busy")) { _ in
            started.signal()
            Thread.sleep(forTimeInterval: 2.5)
            return StubResponse(string: "late")
        }
        let server = try registry.serve()
        let (connection, entries) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /busy HTTP/1.1\r\nHost: localhost\r\n\r\n")
            _ = started.wait(timeout: .now() + 20)
            server.stop()
            return (connection, registry.journal)
        }
        #expect(entries.count == 1, "journal right after stop(): \(entries)")
        #expect(entries.allSatisfy { $0.errorDescription == "URLError(-999)" }, "\(entries)")
        connection.close()
    }
}
#endif
