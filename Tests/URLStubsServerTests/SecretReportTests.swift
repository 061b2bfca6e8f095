import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// Reports that keep secrets: what a stub expects in a credential field is scrubbed like what a
/// request carries, and an answer over the wire names no path on the developer's disk.
@Suite("Serving stubs: reports keep secrets")
struct SecretReportTests {
    private static func exchange(_ request: String, port: UInt16) async throws -> RawConnection.Response {
        try await offThePool {
            let connection = try RawConnection(port: port)
            try connection.send(request)
            return try connection.readResponse()
        }
    }

    private static func registryExpectingSecrets() -> StubRegistry {
        let registry = StubRegistry()
        registry.stub(isPath("/admin") && hasHeaderNamed("Authorization", value: "Bearer STUB-SECRET-ADMIN-TOKEN"), times: 1) { _ in
            StubResponse(string: "admin")
        }
        registry.stub(isPath("/search") && containsQueryParams(["api_key": "STUB-SECRET-KEY", "q": nil])) { _ in
            StubResponse(string: "found")
        }
        registry.stub(isPath("/login") && hasJSONBody(["user": "ada", "password": "STUB-SECRET-PASSWORD"])) { _ in
            StubResponse(string: "in")
        }
        registry.stub(isPath("/form") && hasFormBody(["user": "ada", "password": "STUB-SECRET-FORM"])) { _ in StubResponse(string: "in") }
        return registry
    }

    @Test func theNearMiss404HidesWhatStubsExpect() async throws {
        let registry = Self.registryExpectingSecrets()
        let server = try registry.serve()
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        let requests = [
            "GET /admin HTTP/1.1\r\n\(host)Authorization: Bearer guess\r\n\r\n",
            "GET /search?q=x&api_key=guess HTTP/1.1\r\n\(host)\r\n",
            "POST /login HTTP/1.1\r\n\(host)Content-Type: application/json\r\nContent-Length: 34\r\n\r\n{\"user\":\"ada\",\"password\":\"guess\"}\n",
            "POST /form HTTP/1.1\r\n\(host)Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 23\r\n\r\nuser=ada&password=guess",
        ]
        for request in requests {
            let response = try await Self.exchange(request, port: server.port)
            #expect(response.status == 404)
            #expect(!response.text.contains("STUB-SECRET"), "\(response.text)")
            #expect(response.text.contains("<scrubbed>"), "\(response.text)")
        }
        let report = registry.verify().description
        #expect(!report.contains("STUB-SECRET"), "\(report)")
    }

    /// An unused stub is described by its matchers in `verify()`.
    @Test func verifyHidesWhatAnUnusedStubExpects() {
        let registry = StubRegistry()
        registry.stub(hasHeaderNamed("X-Api-Key", value: "STUB-SECRET-KEY-1234") && isPath("/k")) { _ in StubResponse(string: "k") }
            .expect(.once)
        let report = registry.verify().description
        #expect(report.contains("was expected"), "\(report)")
        #expect(!report.contains("STUB-SECRET"), "\(report)")
    }

    /// A stub's missing file: the 500 says which file and why, but not where on the disk it
    /// was looked for, nor which files are nearby.
    @Test func a500NamesNoAbsolutePathOrNearbyFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-secret-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("users-private.json"))
        let registry = StubRegistry()
        registry.stub(isPath("/file")) { _ in StubResponse(bodyFileAt: folder.appendingPathComponent("users.json")) }
        registry.stub(isPath("/fixture")) { _ in try StubResponse(fixture: Fixture.url("users.json", inDirectory: folder)) }
        let server = try registry.serve()
        defer { server.stop() }
        for path in ["/file", "/fixture"] {
            let response = try await Self.exchange("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n", port: server.port)
            #expect(response.status == 500)
            #expect(response.value("URLStubs-Error") == "notFound")
            #expect(response.text.contains("\"users.json\""), "\(response.text)")
            #expect(!response.text.contains("urlstubs-secret-folder"), "\(response.text)")
            #expect(!response.text.contains("users-private"), "\(response.text)")
        }
        // The test itself still learns where.
        #expect(registry.journal.first?.errorDescription?.contains("urlstubs-secret-folder") == true)
    }

    /// `*` is the target of `OPTIONS *` only (RFC 9112 §3.2.4), never `/`.
    @Test func anAsteriskTargetIsNotTheRoot() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/")) { _ in StubResponse(string: "root") }
        let server = try registry.serve()
        defer { server.stop() }
        let get = try await Self.exchange("GET * HTTP/1.1\r\nHost: localhost\r\n\r\n", port: server.port)
        #expect(get.status == 400)
        #expect(get.text.contains("OPTIONS"), "\(get.text)")
        let options = try await Self.exchange("OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n", port: server.port)
        #expect(options.status == 204)
        #expect(options.value("Allow") != nil)
        #expect(registry.journal.isEmpty)
    }
}
#endif
