import Foundation
import Testing
import URLStubs
import URLStubsServer
import URLStubsStreaming

#if os(Linux) || os(macOS)
/// What the test drives while a response is open: a held response and a live stream, over the
/// wire.
@Suite("Serving stubs: held responses and live streams")
struct HeldAndLiveTests {
    /// The request waits at the gate; its answer leaves when the test releases it.
    @Test func aHeldResponseLeavesWhenTheTestReleasesIt() async throws {
        let registry = StubRegistry()
        let gate = ResponseGate()
        registry.stub(isPath("/checkout")) { _ in StubResponse(string: "placed", statusCode: 201) }.held(by: gate)
        let server = try registry.serve()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send("POST /checkout HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}")
        let held = try await gate.waitForRequest(timeout: 10)
        #expect(held.bodyString == "{}")
        let (silence, _) = try await offThePool { connection.readToEnd(timeout: 0.3) }
        #expect(silence.isEmpty)
        #expect(gate.release())
        let response = try await offThePool { try connection.readResponse() }
        #expect(response.status == 201 && response.text == "placed")
    }

    /// Each write to a live stream reaches the client as it is sent, chunked.
    @Test func aLiveStreamsWritesArriveAsTheyAreSent() async throws {
        let registry = StubRegistry()
        let stream = LiveStream(name: "prices")
        registry.stub(isPath("/prices")) { _ in .stream(stream, headers: ["Content-Type": "text/event-stream"]) }
        let server = try registry.serve()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /prices HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
        _ = try await stream.waitForConnection(timeout: 10)
        try stream.send(event: ServerSentEvent(data: "42"))
        let first = try await offThePool { () throws -> String in
            // The head, then the first event's chunk, before the stream ends.
            let head = try connection.readUntil("\r\n\r\n")
            let chunk = try connection.readUntil("\n\n\r\n")
            return head + chunk
        }
        #expect(first.contains("Transfer-Encoding: chunked") && first.contains("text/event-stream"), "\(first)")
        #expect(first.contains("data: 42\n\n"), "\(first)")
        try stream.finish()
        let rest = try await offThePool { try connection.readUntil("0\r\n\r\n") }
        #expect(rest.hasSuffix("0\r\n\r\n"))
    }
}
#endif
