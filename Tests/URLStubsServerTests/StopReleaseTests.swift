import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// Once `stop()` has returned, nothing of the server keeps the registry (and with it every
/// stub, fixture and journal body) alive: a test that stops its server and ends leaves nothing
/// behind, even when it is the last one before the process exits.
@Suite("Serving stubs: what stop() lets go")
struct StopReleaseTests {
    /// A connection the server closed after its answer (the client asked for `Connection:
    /// close`) waits a moment for the client's own close; that wait must not hold the registry.
    @Test(arguments: [false, true])
    func theRegistryIsReleasedAfterAConnectionTheServerClosed(clientCloses: Bool) async throws {
        weak var weakRegistry: StubRegistry?
        var held: RawConnection?
        do {
            let registry = StubRegistry()
            weakRegistry = registry
            registry.stub(isPath("/once"), responses: [StubResponse(string: "answered")])
            let server = try registry.serve()
            let connection = try RawConnection(port: server.port)
            let (answer, end) = try await offThePool {
                try connection.send("GET /once HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                return connection.readToEnd()
            }
            #expect(String(decoding: answer, as: UTF8.self).hasSuffix("answered"), "\(end)")
            if clientCloses { connection.close() } else { held = connection }
            server.stop()
        }
        let stopped = Date()
        while weakRegistry != nil, Date().timeIntervalSince(stopped) < 10 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let took = Date().timeIntervalSince(stopped)
        // The server used to keep such a connection, and the registry, for 2 s after its close.
        #expect(weakRegistry == nil && took < 1, "the registry was still alive \(took) s after stop()")
        held?.close()
    }
}
#endif
