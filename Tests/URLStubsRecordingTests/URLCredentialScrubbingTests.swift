import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import LoopbackTestServer
@testable import TestSupport
import URLStubsRecording

// The server is a child process (TestServer): these tests run where Process exists.
#if os(macOS) || os(Linux)
/// Credentials in a URL (`https://user:password@host/…`) never reach a cassette, the journal, a
/// near-miss report or `verify()`: the user and the password both become the placeholder.
@Suite("Credentials in URLs")
struct URLCredentialScrubbingTests {
    let server = TestServer.shared

    /// `http://<user>:<password>@127.0.0.1:<port><path>`.
    private func url(_ path: String, user: String, password: String?) -> URL {
        var components = URLComponents(url: server.url(path), resolvingAgainstBaseURL: false)!
        components.user = user
        components.password = password
        return components.url!
    }

    @Test func aRecordingHoldsNeitherTheUserNorThePasswordAndStillReplays() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let requests = [
            URLRequest(url: url("/echo", user: "ada-account", password: "url-password-secret")),
            // A short password, and a token carried as the user with no password (git hosts).
            URLRequest(url: url("/text", user: "bob", password: "pw")),
            URLRequest(url: url("/echo", user: "ghp-url-token-as-user", password: nil)),
        ]
        let cassette = try await recordCassette(of: requests, into: file)
        // Also as the Basic credential a client may send, echoed back by the server.
        let basic = ["ada-account:url-password-secret", "ghp-url-token-as-user:"].map { Data($0.utf8).base64EncodedString() }
        for secret in ["url-password-secret", "ada-account", "ghp-url-token-as-user", "bob:", ":pw@"] + basic {
            #expect(!cassette.contains(secret), "the cassette holds \(secret):\n\(cassette)")
        }
        let urls = try HAR.read(contentsOf: file).map { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)! }
        #expect(urls.map(\.user) == ["<scrubbed>", "<scrubbed>", "<scrubbed>"], "\(urls)")
        #expect(urls.map(\.password) == ["<scrubbed>", "<scrubbed>", nil], "\(urls)")
        #expect(urls.map(\.path) == ["/echo", "/text", "/echo"])
        // Scrubbed alike, the live requests still replay from it.
        try await expectEachReplays(requests, from: file)
    }

    @Test func theJournalNearMissReportsAndVerifyPrintNoCredential() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/elsewhere"), name: "elsewhere") { _ in StubResponse(statusCode: 204) }
        var errors: [String] = []
        for request in [
            URLRequest(url: url("/json", user: "ada-account", password: "url-password-secret")),
            URLRequest(url: url("/text", user: "bob", password: "pw")),
        ] {
            let result = await fetch(request, from: registry)
            errors.append(String(describing: try #require(result.error)))
        }
        let verification = registry.verify().description
        let journal = registry.journal.map(\.description).joined(separator: "\n")
        for (place, text) in [("the near-miss reports", errors.joined(separator: "\n")), ("verify()", verification), ("the journal", journal)] {
            for secret in ["url-password-secret", "ada-account", "bob:", ":pw@"] {
                #expect(!text.contains(secret), "\(place) print \(secret):\n\(text)")
            }
            #expect(text.contains("http://<scrubbed>:<scrubbed>@127.0.0.1:"), "\(place):\n\(text)")
            #expect(text.contains("/json"), "\(place) still name the request:\n\(text)")
        }
    }

    @Test func aPolicyWithoutAuthorizationKeepsURLCredentials() async throws {
        let registry = StubRegistry()
        registry.scrubbing = .default.removing(headers: ["Authorization"])
        let result = await fetch(URLRequest(url: url("/json", user: "ada", password: "kept-password")), from: registry)
        let report = String(describing: try #require(result.error))
        #expect(report.contains("ada:kept-password@"), "\(report)")
    }
}
#endif
