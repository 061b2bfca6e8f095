import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// A one-line stub answers over the wire, to clients nobody here wrote.
@Suite("Serving stubs: the core")
struct ServingCoreTests {
    /// corelibs' (or Apple's) own HTTP loading, in a session without the stub protocol.
    @Test func aPlainURLSessionGetsTheStub() async throws {
        let registry = StubRegistry()
        let server = try registry.serve()
        registry.stub(.get, server.url("/hello").absoluteString, headers: ["X-Stub": "yes"], data: Data("hello over the wire".utf8))
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (data, response) = try await session.data(from: server.url("/hello"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "X-Stub") == "yes")
        #expect(String(decoding: data, as: UTF8.self) == "hello over the wire")
        #expect(registry.journal.count == 1)
    }

    @Test(.enabled(if: ExternalClients.curl != nil, "curl is not installed here: install curl to run this test"))
    func curlGetsTheStub() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/hello")) { _ in StubResponse(string: "hello, curl") }
        let server = try registry.serve()
        defer { server.stop() }
        let run = try await ExternalClients.runCurl([server.url("/hello").absoluteString])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output == "hello, curl")
    }

    @Test func pythonsHTTPClientGetsTheStub() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/hello")) { _ in StubResponse(string: "hello, python", statusCode: 201) }
        let server = try registry.serve()
        defer { server.stop() }
        let script = """
            import http.client, sys
            connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=20)
            connection.request("GET", "/hello")
            response = connection.getresponse()
            sys.stdout.write("%d %s" % (response.status, response.read().decode()))
            """
        let run = try await ExternalClients.runPython(script, [String(server.port)])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output == "201 hello, python")
    }
}
#endif
