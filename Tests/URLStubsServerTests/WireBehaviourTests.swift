import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// HTTP/1.1 as real clients speak it: keep-alive, pipelining, request bodies, HEAD, redirects
/// and cookies.
@Suite("Serving stubs: wire behaviour")
struct WireBehaviourTests {
    /// Python's http.client sends three requests over one connection: three answers, one
    /// connection.
    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/n")) { request in StubResponse(string: request.url?.query ?? "") }
        let server = try registry.serve()
        defer { server.stop() }
        let script = """
            import http.client, sys
            connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=20)
            sockets, answers = set(), []
            for n in range(3):
                connection.request("GET", "/n?%d" % n)
                answers.append(connection.getresponse().read().decode())
                sockets.add(id(connection.sock))
            sys.stdout.write("%s %d" % (",".join(answers), len(sockets)))
            """
        let run = try await ExternalClients.runPython(script, [String(server.port)])
        #expect(run.output == "0,1,2 1", "\(run.output)")
    }

    /// Three requests written at once, before any answer: three answers, in order, although
    /// the first one takes longest.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/slow")) { _ in StubResponse(string: "slow").requestTime(0.3, responseTime: 0) }
        registry.stub(isPath("/fast")) { _ in StubResponse(string: "fast") }
        registry.stub(isPath("/head")) { _ in StubResponse(string: "not sent to HEAD") }
        let server = try registry.serve()
        defer { server.stop() }
        let answers = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\nHEAD /head HTTP/1.1\r\nHost: localhost\r\n\r\nGET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n"
            )
            let first = try connection.readResponse()
            let second = try connection.readResponse(forHEAD: true)
            let third = try connection.readResponse()
            return [first.text, "\(second.status) \(second.value("content-length") ?? "-") \(second.body.count)", third.text]
        }
        #expect(answers == ["slow", "200 16 0", "fast"])
    }

    /// A chunked upload (curl streams stdin chunked) reaches the stub de-chunked.
    @Test(.enabled(if: ExternalClients.curl != nil, "curl is not installed here: install curl to run this test"))
    func aChunkedUploadReachesTheStubWhole() async throws {
        let registry = StubRegistry()
        registry.stub(isMethod(.post) && isPath("/upload")) { request in
            StubResponse(string: "\(request.body?.count ?? -1) \(request.value(forHTTPHeaderField: "Transfer-Encoding") ?? "-")")
        }
        let server = try registry.serve()
        defer { server.stop() }
        let run = try await ExternalClients.runPython(
            """
            import http.client, sys
            connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=20)
            connection.request("POST", "/upload", body=(b"x" * 1000 for _ in range(300)), encode_chunked=True)
            sys.stdout.write(connection.getresponse().read().decode())
            """, [String(server.port)])
        #expect(run.output == "300000 chunked", "\(run.output)")
    }

    /// `Expect: 100-continue`: the server answers 100 before the client sends its body, then
    /// the stub's answer.
    @Test func expectContinueGetsAHundredBeforeTheBody() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/put")) { request in StubResponse(string: "got \(request.body?.count ?? 0)") }
        let server = try registry.serve()
        defer { server.stop() }
        let (interim, final) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("PUT /put HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let interim = try connection.readResponse(timeout: 5)
            try connection.send("hello")
            return (interim.status, try connection.readResponse().text)
        }
        #expect(interim == 100)
        #expect(final == "got 5")
    }

    /// curl sends a large upload with `Expect: 100-continue` and streams it: the stub gets
    /// every byte.
    @Test(.enabled(if: ExternalClients.curl != nil, "curl is not installed here: install curl to run this test"))
    func aLargeUploadWithinTheLimitArrivesWhole() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/big")) { request in
            let body = request.body ?? Data()
            return StubResponse(string: "\(body.count) \(body.allSatisfy { $0 == 0x61 }) \(request.value(forHTTPHeaderField: "Expect") ?? "-")")
        }
        let server = try registry.serve()
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-server-upload-\(UUID().uuidString)")
        try Data(repeating: 0x61, count: 8 * 1024 * 1024).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await ExternalClients.runCurl([
            "--data-binary", "@\(file.path)", "-H", "Expect: 100-continue", server.url("/big").absoluteString,
        ])
        #expect(run.output == "8388608 true 100-continue", "\(run.output)")
    }

    /// A redirect is a real 3xx that the client follows itself: two requests in the journal.
    @Test func aRedirectIsARealThreeHundredThatTheClientFollows() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/old")) { _ in StubResponse(statusCode: 302, headers: ["Location": "/new"]) }
        registry.stub(isPath("/new")) { _ in StubResponse(string: "moved here") }
        let server = try registry.serve()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (data, response) = try await session.data(from: server.url("/old"))
        #expect(String(decoding: data, as: UTF8.self) == "moved here")
        #expect(response.url?.path == "/new")
        #expect(registry.journal.map { $0.request.url?.path } == ["/old", "/new"])
        #expect(registry.journal.map(\.statusCode) == [302, 200])
    }

    /// Cookies are real Set-Cookie fields: the client's own cookie store keeps them and sends
    /// them back.
    @Test func cookiesAreRealSetCookieFieldsTheClientSendsBack() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/login")) { _ in
            StubResponse(statusCode: 204, headers: ["Set-Cookie": "session=abc; Path=/", "Set-Cookie": "theme=dark; Path=/"])
        }
        registry.stub(isPath("/me")) { request in StubResponse(string: request.value(forHTTPHeaderField: "Cookie") ?? "none") }
        let server = try registry.serve()
        defer { server.stop() }
        let raw = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /login HTTP/1.1\r\nHost: localhost\r\n\r\n")
            return try connection.readResponse().headers.filter { $0.name == "set-cookie" }.map(\.value)
        }
        #expect(raw.count == 2)
        #expect(raw.first?.hasPrefix("session=abc") == true)
        let configuration = URLSessionConfiguration.ephemeral
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        _ = try await session.data(from: server.url("/login"))
        let (data, _) = try await session.data(from: server.url("/me"))
        let sent = String(decoding: data, as: UTF8.self)
        #expect(sent.contains("session=abc") && sent.contains("theme=dark"), "\(sent)")
    }

    /// A field sent twice is one value joined with ", " (a URLRequest keeps one per name).
    @Test func repeatedRequestFieldsAreJoined() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/h")) { request in
            StubResponse(string: "\(request.value(forHTTPHeaderField: "X-Tag") ?? "-")|\(request.value(forHTTPHeaderField: "Cookie") ?? "-")")
        }
        let server = try registry.serve()
        defer { server.stop() }
        let text = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /h HTTP/1.1\r\nHost: localhost\r\nX-Tag: one\r\nCookie: a=1\r\nx-tag: two\r\nCookie: b=2\r\n\r\n")
            return try connection.readResponse().text
        }
        #expect(text == "one, two|a=1; b=2")
    }

    /// HTTP/1.0 without keep-alive: the answer, then the end of the connection.
    @Test func anHTTP10ClientGetsItsAnswerThenTheEnd() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/old-client")) { _ in StubResponse(string: "for 1.0") }
        let server = try registry.serve()
        defer { server.stop() }
        let (bytes, end) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /old-client HTTP/1.0\r\n\r\n")
            return connection.readToEnd()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.hasSuffix("\r\n\r\nfor 1.0") && text.contains("Connection: close"), "\(text)")
        #expect(end == .closed)
    }
}
#endif
