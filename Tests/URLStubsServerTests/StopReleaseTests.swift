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
        let weakRegistry = WeakRegistry()
        var held: RawConnection?
        let stopped: Date
        do {
            let registry = StubRegistry()
            weakRegistry.registry = registry
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
            stopped = Date()
        }
        // Watched on a thread of its own: this task's resumption after a sleep waits for the
        // cooperative pool, which can be tens of seconds behind while the suite runs.
        let took = try await offThePool { () -> TimeInterval in
            while weakRegistry.registry != nil, Date().timeIntervalSince(stopped) < 10 { Thread.sleep(forTimeInterval: 0.001) }
            return Date().timeIntervalSince(stopped)
        }
        // The server used to keep such a connection, and the registry, for 2 s after its close.
        #expect(weakRegistry.registry == nil && took < 1, "the registry was still alive \(took) s after stop()")
        held?.close()
    }
}

/// A registry the test does not keep alive, read from the thread that watches for its end.
private final class WeakRegistry: @unchecked Sendable {
    // @unchecked: a weak reference is read and cleared atomically by the runtime.
    weak var registry: StubRegistry?
}
#endif
