import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// The declarations route, driven by curl and by a plain `URLSession`: declarations posted
/// answer at once, are listed, and go with `DELETE`; bad input names its JSON path.
@Suite("Serving stubs: the declarations route")
struct DeclarationsRouteTests {
    static let declaration = #"{"name": "me", "request": {"path": "/me"}, "response": {"body": {"json": {"name": "Ada"}}}}"#

    @Test func curlPostsListsAndDeletesDeclarations() async throws {
        guard ExternalClients.curlIsInstalled() else { return }
        let registry = StubRegistry()
        registry.stub(isPath("/code")) { _ in StubResponse(string: "made in code") }
        let server = try registry.serveDeclarations(token: "s3cret")
        defer { server.stop() }
        let route = server.url("/__urlstubs/declarations").absoluteString
        let auth = ["-H", "Authorization: Bearer s3cret"]
        let denied = try await ExternalClients.runCurl(["-w", "%{http_code}", "-o", "/dev/null", route])
        #expect(denied.output == "401")
        let posted = try await ExternalClients.runCurl(
            auth + ["-w", "\n%{http_code}", "-H", "Content-Type: application/json", "--data-binary", Self.declaration, route])
        #expect(posted.output.hasSuffix("\n201"), "\(posted.output)")
        let me = try await ExternalClients.runCurl([server.url("/me").absoluteString])
        #expect(me.output == #"{"name":"Ada"}"#)
        let listed = try await ExternalClients.runCurl(auth + [route])
        let list = try JSONDecoder().decode([StubDeclaration].self, from: Data(listed.output.utf8))
        #expect(list.map(\.name) == ["me"])
        let deleted = try await ExternalClients.runCurl(auth + ["-X", "DELETE", route])
        #expect(deleted.output == #"{"removed":1}"#)
        #expect(registry.declarations.isEmpty)
        #expect(registry.stubs.count == 1, "the stub made in code stays")
    }

    @Test func urlSessionGetsTheReadersErrorForBadInput() async throws {
        let registry = StubRegistry()
        let server = try registry.serveDeclarations()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        var request = URLRequest(url: server.url("/__urlstubs/declarations"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"[{"request": {"path": "/a"}, "response": {"status": 200}}, {"request": {"pathh": "/b"}, "response": {}}]"#.utf8)
        let (data, response) = try await session.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 400)
        let message = try JSONDecoder().decode([String: String].self, from: data)["error"] ?? ""
        #expect(message.contains("$[1].request"), "\(message)")
        #expect(message.contains("pathh"), "\(message)")
        #expect(registry.stubs.isEmpty, "a list with a bad declaration registers none")

        request.httpBody = Data(#"{"request": {"path": "/secret"}, "response": {"body": {"file": "/etc/passwd"}}}"#.utf8)
        let (refused, refusedResponse) = try await session.data(for: request)
        #expect((refusedResponse as? HTTPURLResponse)?.statusCode == 400)
        #expect(String(decoding: refused, as: UTF8.self).contains("may not read a file"))

        request.httpBody = Data(Self.declaration.utf8)
        let (_, created) = try await session.data(for: request)
        #expect((created as? HTTPURLResponse)?.statusCode == 201)
        let (listed, _) = try await session.data(from: server.url("/__urlstubs/declarations"))
        #expect(try JSONDecoder().decode([StubDeclaration].self, from: listed).count == 1)
    }

    @Test func theRouteIsOffUnlessAskedForAndKeepsTheHostRules() async throws {
        let registry = StubRegistry()
        let plain = try registry.serve()
        defer { plain.stop() }
        let session = URLSession(configuration: .ephemeral)
        let (_, response) = try await session.data(from: plain.url("/__urlstubs/declarations"))
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        let server = try registry.serveDeclarations()
        defer { server.stop() }
        let status = try await offThePool { () -> Int in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /__urlstubs/declarations HTTP/1.1\r\nHost: rebind.attacker.example\r\n\r\n")
            return try connection.readResponse(timeout: 10).status
        }
        #expect(status == 421)
    }
}
#endif
