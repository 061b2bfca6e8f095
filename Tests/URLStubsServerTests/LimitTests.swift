import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// Safe by default: every limit answers clearly and closes, and a silent client cannot hold
/// the server.
@Suite("Serving stubs: limits")
struct LimitTests {
    private static func server(_ configure: (inout StubServer.Limits) -> Void = { _ in }) throws -> StubServer {
        let registry = StubRegistry()
        registry.stub(isPath("/ok")) { request in StubResponse(string: "ok \(request.body?.count ?? 0)") }
        var limits = StubServer.Limits()
        configure(&limits)
        return try registry.serve(limits: limits)
    }

    /// Sends `request` on a new connection: the answer and how the connection ended after it.
    private static func exchange(_ request: String, port: UInt16) async throws -> (RawConnection.Response, RawConnection.End) {
        try await offThePool {
            let connection = try RawConnection(port: port)
            try connection.send(request)
            let response = try connection.readResponse()
            return (response, connection.readToEnd(timeout: 5).end)
        }
    }

    @Test func anOversizedHeadIsA431AndTheConnectionCloses() async throws {
        let server = try Self.server { $0.maximumHeaderBytes = 1024 }
        defer { server.stop() }
        let (response, end) = try await Self.exchange(
            "GET /ok HTTP/1.1\r\nHost: localhost\r\nX-Big: \(String(repeating: "b", count: 2000))\r\n\r\n", port: server.port)
        #expect(response.status == 431)
        #expect(response.text.contains("larger than the server's limit of 1024 bytes"), "\(response.text)")
        #expect(end == .closed)
        #expect(server.registry.journal.isEmpty)
    }

    @Test func anOversizedRequestLineIsA414() async throws {
        let server = try Self.server { $0.maximumHeaderBytes = 1024 }
        defer { server.stop() }
        let (response, _) = try await Self.exchange("GET /\(String(repeating: "p", count: 3000)) HTTP/1.1\r\n", port: server.port)
        #expect(response.status == 414)
    }

    @Test func anOversizedBodyIsA413AsSoonAsItsLengthIsKnown() async throws {
        let server = try Self.server { $0.maximumBodyBytes = 1000 }
        defer { server.stop() }
        // Only the head is sent: the answer does not wait for the body.
        let (response, end) = try await Self.exchange("POST /ok HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1001\r\n\r\n", port: server.port)
        #expect(response.status == 413)
        #expect(response.text.contains("1001 bytes is larger than the server's limit of 1000 bytes"), "\(response.text)")
        #expect(end == .closed)
    }

    @Test func aChunkedBodyPastTheLimitIsA413() async throws {
        let server = try Self.server { $0.maximumBodyBytes = 1000 }
        defer { server.stop() }
        let chunk = String(repeating: "c", count: 600)
        let (response, _) = try await Self.exchange(
            "POST /ok HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n",
            port: server.port)
        #expect(response.status == 413)
    }

    /// A client waiting on `Expect: 100-continue` gets the 413 instead of 100, and need not send.
    @Test func aClientExpectingContinueGetsThe413Instead() async throws {
        let server = try Self.server { $0.maximumBodyBytes = 1000 }
        defer { server.stop() }
        let (response, _) = try await Self.exchange(
            "PUT /ok HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n", port: server.port)
        #expect(response.status == 413)
    }

    /// A body at the limit is fine.
    @Test func aBodyAtTheLimitIsAnswered() async throws {
        let server = try Self.server { $0.maximumBodyBytes = 1000 }
        defer { server.stop() }
        let (response, _) = try await Self.exchange(
            "POST /ok HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n\(String(repeating: "x", count: 1000))",
            port: server.port)
        #expect(response.status == 200)
        #expect(response.text == "ok 1000")
    }

    @Test func bytesThatAreNotARequestAreA400() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let (response, end) = try await Self.exchange("HELLO THERE\r\n\r\n", port: server.port)
        #expect(response.status == 400)
        #expect(response.text.contains("METHOD SP target SP HTTP-version"), "\(response.text)")
        #expect(end == .closed)
    }

    /// One connection past the limit is answered 503 and closed; the others still work.
    @Test func aConnectionPastTheLimitIsA503() async throws {
        let server = try Self.server { $0.maximumConnections = 2 }
        defer { server.stop() }
        let (refused, stillServed) = try await offThePool {
            let first = try RawConnection(port: server.port)
            let second = try RawConnection(port: server.port)
            try first.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n")
            try second.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n")
            _ = try first.readResponse()
            _ = try second.readResponse()
            let third = try RawConnection(port: server.port)
            let refused = try third.readResponse()
            try first.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n")
            return (refused, try first.readResponse().text)
        }
        #expect(refused.status == 503)
        #expect(refused.text.contains("Raise StubServer.Limits.maximumConnections"), "\(refused.text)")
        #expect(stillServed == "ok 0")
    }

    /// A client that connects and sends nothing loses its connection after the read timeout.
    @Test func aSilentClientIsClosedAfterTheReadTimeout() async throws {
        let server = try Self.server { $0.readTimeout = 0.5 }
        defer { server.stop() }
        let (bytes, end, seconds) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            let start = Date()
            let (bytes, end) = connection.readToEnd(timeout: 10)
            return (bytes, end, Date().timeIntervalSince(start))
        }
        #expect(bytes.isEmpty)
        #expect(end == .closed)
        #expect(seconds >= 0.4 && seconds < 8, "closed after \(seconds) s")
        // The server forgets it once it read the client's end too.
        let deadline = Date().addingTimeInterval(5)
        while server.openConnections > 0, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(server.openConnections == 0)
    }

    /// A request begun and never finished gets 408, then the end.
    @Test func aRequestLeftHalfSentIsA408() async throws {
        let server = try Self.server { $0.readTimeout = 0.5 }
        defer { server.stop() }
        let (response, end) = try await Self.exchange("POST /ok HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\nabc", port: server.port)
        #expect(response.status == 408)
        #expect(end == .closed)
    }

    /// The read timeout does not cut a response that takes longer than it.
    @Test func theReadTimeoutDoesNotCutASlowAnswer() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/slow")) { _ in StubResponse(string: "late").requestTime(2.5, responseTime: 0) }
        var limits = StubServer.Limits()
        limits.readTimeout = 1
        let server = try registry.serve(limits: limits)
        defer { server.stop() }
        let (response, _) = try await Self.exchange("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n", port: server.port)
        #expect(response.text == "late", "\(registry.journal)")
    }

    /// Only loopback addresses are bound: the base URL is 127.0.0.1, and ::1 answers when asked.
    @Test func itListensOnLoopbackOnly() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/six")) { request in StubResponse(string: request.url?.host ?? "-") }
        let server = try registry.serve(alsoOnIPv6: true)
        defer { server.stop() }
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        let run = try await ExternalClients.runPython(
            """
            import http.client, sys
            connection = http.client.HTTPConnection("::1", int(sys.argv[1]), timeout=20)
            connection.request("GET", "/six")
            sys.stdout.write(connection.getresponse().read().decode())
            """, [String(server.port)])
        #expect(run.output == "::1" || run.output == "[::1]", "\(run.output)")
    }

    /// A fixed port that is taken: an error that says so and what to do.
    @Test func aTakenPortIsAClearError() throws {
        let first = try StubRegistry().serve()
        defer { first.stop() }
        #expect {
            _ = try StubRegistry().serve(port: first.port)
        } throws: { error in
            "\(error)".contains("could not bind 127.0.0.1:\(first.port): Address already in use. Pass port: 0")
        }
    }
}
#endif
