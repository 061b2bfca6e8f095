import Foundation
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// Pacing is real timed writes: measured by a client on the wire (bounds are generous: the
/// machine is shared).
@Suite("Serving stubs: pacing on the wire")
struct PacingOnTheWireTests {
    /// A 40 KB body at 80 KB/s takes about half a second to arrive, in several pieces.
    @Test func aDownloadSpeedIsRealTimedWrites() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/slow")) { _ in StubResponse(data: Data(repeating: 0x43, count: 40_000)).downloadSpeed(.kilobytesPerSecond(80)) }
        let server = try registry.serve()
        defer { server.stop() }
        let (seconds, bodyBytes) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let start = Date()
            let response = try connection.readResponse(timeout: 20)
            return (Date().timeIntervalSince(start), response.body.count)
        }
        #expect(bodyBytes == 40_000)
        #expect(seconds >= 0.35 && seconds < 10, "the body took \(seconds) s")
    }

    /// A request time holds the head back that long.
    @Test func aRequestTimeDelaysTheHead() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/wait")) { _ in StubResponse(string: "waited").requestTime(0.5, responseTime: 0) }
        let server = try registry.serve()
        defer { server.stop() }
        let (seconds, text) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /wait HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let start = Date()
            let response = try connection.readResponse(timeout: 20)
            return (Date().timeIntervalSince(start), response.text)
        }
        #expect(text == "waited")
        #expect(seconds >= 0.45 && seconds < 10, "the head came after \(seconds) s")
    }
}
#endif
