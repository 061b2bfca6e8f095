import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// What each way a stub fails looks like on the wire.
@Suite("Serving stubs: faults on the wire")
struct FaultTests {
    /// No stub matches: a 404 whose body is the near-miss report, with a field naming it.
    @Test func anUnmatchedRequestIsA404WithTheNearMissReport() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/users"), name: "users") { _ in StubResponse(string: "[]") }
        let server = try registry.serve()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (data, response) = try await session.data(from: server.url("/user"))
        let http = try #require(response as? HTTPURLResponse)
        let report = String(decoding: data, as: UTF8.self)
        #expect(http.statusCode == 404)
        #expect(http.value(forHTTPHeaderField: "URLStubs-Error") == "unmatchedRequest")
        #expect(report.contains("/user") && report.contains("\"users\""), "\(report)")
        #expect(registry.journal.first?.isUnmatched == true)
    }

    /// A stub's own mistake (its file is missing, a `FixtureError`): a 500 that explains it,
    /// naming the file and the error's kind, but no path on the disk.
    @Test func aStubsMistakeIsA500ThatExplainsIt() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/file")) { _ in StubResponse(bodyFileAt: URL(fileURLWithPath: "/nonexistent/urlstubs-missing.json")) }
        let server = try registry.serve()
        defer { server.stop() }
        let response = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /file HTTP/1.1\r\nHost: localhost\r\n\r\n")
            return try connection.readResponse()
        }
        #expect(response.status == 500)
        #expect(response.value("URLStubs-Error") == "notFound")
        #expect(response.text.contains("no file named \"urlstubs-missing.json\""), "\(response.text)")
        // Any client reads this answer: the folder searched is for the test's own report.
        #expect(!response.text.contains("/nonexistent"), "\(response.text)")
    }

    /// A simulated network failure before the head: the connection is reset, no byte sent.
    @Test func aSimulatedFailureBeforeTheHeadResetsTheConnection() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/offline")) { _ in StubResponse(error: URLError(.notConnectedToInternet)) }
        let server = try registry.serve()
        defer { server.stop() }
        let (bytes, end) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /offline HTTP/1.1\r\nHost: localhost\r\n\r\n")
            return connection.readToEnd()
        }
        #expect(bytes.isEmpty)
        #expect(end == .reset)
        #expect(registry.journal.first?.errorDescription?.contains("-1009") == true, "\(registry.journal)")
    }

    /// `failing(afterBytes:)`: the head and that many bytes, then a reset.
    @Test func failingAfterBytesSendsThemThenResets() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/cut")) { _ in StubResponse(data: Data(repeating: 0x41, count: 1000)).failing(afterBytes: 100) }
        let server = try registry.serve()
        defer { server.stop() }
        let (bytes, end) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /cut HTTP/1.1\r\nHost: localhost\r\n\r\n")
            return connection.readToEnd()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let body = text.components(separatedBy: "\r\n\r\n").last ?? ""
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.contains("Content-Length: 1000"), "\(text)")
        #expect(body == String(repeating: "A", count: 100))
        #expect(end == .reset)
    }

    /// curl reports the reset as the error it is.
    @Test(.enabled(if: ExternalClients.curl != nil, "curl is not installed here: install curl to run this test"))
    func curlSeesTheResetAsAReceiveFailure() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/cut")) { _ in StubResponse(data: Data(repeating: 0x41, count: 1000)).failing(afterBytes: 100) }
        let server = try registry.serve()
        defer { server.stop() }
        let run = try await ExternalClients.runCurl(["--output", "/dev/null", server.url("/cut").absoluteString])
        #expect(run.status == 56, "curl: \(run.status) \(run.output)")
        #expect(run.output.lowercased().contains("reset"), "\(run.output)")
    }

    /// `truncated(afterBytes:)`: the full Content-Length, a short body, then an orderly end.
    @Test func truncatedSendsAShortBodyThenCloses() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/short")) { _ in StubResponse(data: Data(repeating: 0x42, count: 1000)).truncated(afterBytes: 100) }
        let server = try registry.serve()
        defer { server.stop() }
        let run = try await ExternalClients.runPython(
            """
            import http.client, sys
            connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=20)
            connection.request("GET", "/short")
            response = connection.getresponse()
            try:
                response.read()
                print("read whole")
            except http.client.IncompleteRead as error:
                print("%s %d of %d" % (response.getheader("Content-Length"), len(error.partial), len(error.partial) + error.expected))
            """, [String(server.port)])
        #expect(run.output == "1000 100 of 1000\n", "\(run.output)")
    }

    /// `neverResponding()`: not a byte comes; the client's own timeout ends the request, and
    /// the journal says it was cancelled. A client's end (FIN) may be a half-close, after which
    /// it still reads: the server learns it left once the read timeout passes with nothing sent.
    @Test func neverRespondingIsSilenceUntilTheClientLeaves() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/never")) { _ in .neverResponding() }
        var limits = StubServer.Limits()
        limits.readTimeout = 1
        let server = try registry.serve(limits: limits)
        defer { server.stop() }
        let (bytes, end) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /never HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let result = connection.readToEnd(timeout: 1)
            connection.close()
            return result
        }
        #expect(bytes.isEmpty)
        #expect(end == .silent)
        let deadline = Date().addingTimeInterval(10)
        while registry.journal.first?.errorDescription == nil, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(registry.journal.first?.errorDescription?.contains("-999") == true, "\(registry.journal)")
        #expect(registry.journal.first?.statusCode == nil)
    }
}
#endif
