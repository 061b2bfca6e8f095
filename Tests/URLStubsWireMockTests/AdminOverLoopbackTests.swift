import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer
@testable import URLStubsWireMock

/// WireMock's admin API bound to the loopback server: a client posts a mapping over HTTP, then
/// the mapping answers over HTTP, and the server's access rules guard the admin API too.
@Suite("WireMock admin over loopback")
struct AdminOverLoopbackTests {
    static func send(_ method: String, _ url: URL, body: String? = nil, headers: [String: String] = [:]) async throws -> (Int, String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func aMappingPostedOverHTTPAnswersOverHTTP() async throws {
        let registry = StubRegistry()
        let server = try registry.serveWireMock(token: "s3cret")
        defer { server.stop() }
        let mapping = #"{"request": {"method": "GET", "url": "/greeting"}, "response": {"status": 200, "body": "hello from a mapping"}}"#
        let (refused, _) = try await Self.send("POST", server.url("/__admin/mappings"), body: mapping)
        #expect(refused == 401, "without the token the admin API refuses")
        let (created, _) = try await Self.send(
            "POST", server.url("/__admin/mappings"), body: mapping, headers: ["Authorization": "Token s3cret", "Content-Type": "application/json"])
        #expect(created == 201)
        let (status, body) = try await Self.send("GET", server.url("/greeting"))
        #expect(status == 200)
        #expect(body == "hello from a mapping")
        let (listed, list) = try await Self.send("GET", server.url("/__admin/mappings"), headers: ["Authorization": "Bearer s3cret"])
        #expect(listed == 200)
        #expect(list.contains("/greeting"))
    }

    @Test func aPlainServerHasNoAdminAPI() async throws {
        let registry = StubRegistry()
        let server = try registry.serve()
        defer { server.stop() }
        let (status, _) = try await Self.send("GET", server.url("/__admin/mappings"))
        #expect(status == 404, "off unless asked for: the path is the stubs' (none match)")
    }

    @Test func theAdminAPIRefusesAForeignHostLikeEveryStub() async throws {
        let registry = StubRegistry()
        let server = try registry.serveWireMock()
        defer { server.stop() }
        let (status, _) = try await Self.send(
            "GET", server.url("/__admin/mappings"), headers: ["Host": "rebind.attacker.example:\(server.baseURL.port ?? 0)"])
        #expect(status == 421)
    }

    // Bad input over the wire gets WireMock's statuses (422 for a body that is not JSON, 413
    // for one past the limit), and the server goes on serving the admin API and the stubs.
    @Test func badAdminRequestsAreAnsweredAndTheServerKeepsServing() async throws {
        let registry = StubRegistry()
        var limits = StubServer.Limits()
        limits.maximumBodyBytes = 1024
        let server = try registry.serveWireMock(limits: limits)
        defer { server.stop() }
        let (notJSON, error) = try await Self.send("POST", server.url("/__admin/mappings"), body: "{not json")
        #expect(notJSON == 422)
        #expect(error.contains("Error parsing JSON"), "\(error)")
        let (tooLarge, _) = try await Self.send("POST", server.url("/__admin/mappings"), body: String(repeating: " ", count: 4096))
        #expect(tooLarge == 413)
        let mapping = #"{"request": {"urlPath": "/still"}, "response": {"body": "serving"}}"#
        let (created, _) = try await Self.send("POST", server.url("/__admin/mappings"), body: mapping)
        #expect(created == 201)
        let (status, body) = try await Self.send("GET", server.url("/still"))
        #expect(status == 200)
        #expect(body == "serving")
    }
}
