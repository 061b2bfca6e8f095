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
/// Secrets never reach a log or a recording, against the real server on 127.0.0.1.
@Suite("Secrets in reports and recordings")
struct SecretScrubbingTests {
    let server = TestServer.shared

    /// The values a request below carries, each in a place a report prints.
    private let secrets = ["header-secret-value", "cookie-secret-value", "query-secret-value", "body-secret-value", "proxy-secret-value"]

    private func requestCarryingSecrets(_ path: String) -> URLRequest {
        request(
            server.url(path).absoluteString + "?api_key=query-secret-value&page=1", method: "POST",
            body: Data(#"{"user":"ada","password":"body-secret-value"}"#.utf8),
            headers: [
                "Authorization": "Bearer header-secret-value", "Cookie": "sid=cookie-secret-value",
                "Proxy-Authorization": "Basic proxy-secret-value", "Content-Type": "application/json",
            ])
    }

    @Test func nearMissReportsVerifyAndTheJournalPrintNoSecret() async throws {
        let registry = StubRegistry()
        registry.scrubbing = .default.adding(queryParameters: ["api_key"], jsonFields: ["password"])
        registry.stub(
            isPath("/echo") && hasHeaderNamed("Authorization", value: "Bearer expected-token")
                && containsQueryParams(["api_key": "other"]), name: "echo"
        ) { _ in .passthrough() }
        let result = await fetch(requestCarryingSecrets("/echo"), from: registry)
        let thrown = String(describing: try #require(result.error))
        let verification = registry.verify().description
        let journal = registry.journal.map(\.description).joined(separator: "\n")
        for (name, text) in [("error", thrown), ("verify()", verification), ("journal", journal)] {
            for secret in secrets {
                #expect(!text.contains(secret), "\(name) leaked \(secret):\n\(text)")
            }
            #expect(text.contains("<scrubbed>"), "\(name):\n\(text)")
        }
        #expect(thrown.contains("page=1"), "what is not secret stays readable:\n\(thrown)")
        #expect(verification.contains("\"echo\""))
    }

    @Test func credentialHeadersAreHiddenWithoutAnyRule() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/json") && hasHeaderNamed("Cookie", value: "sid=expected")) { _ in .passthrough() }
        let result = await fetch(
            request(server.url("/json").absoluteString, headers: ["Cookie": "sid=cookie-secret-value"]),
            from: registry)
        let thrown = String(describing: try #require(result.error))
        #expect(!thrown.contains("cookie-secret-value"), "\(thrown)")
        #expect(!registry.verify().description.contains("cookie-secret-value"))
    }

    @Test func recordingScrubsEncodedCopiesBasicCredentialsAndShortSecrets() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let scrubbing = Scrubbing.default.adding(queryParameters: ["api_key", "k"])
        let apiKey = "SECRET+KEY/B64="
        var components = URLComponents(url: server.url("/echo"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = "api_key=SECRET%2BKEY%2FB64%3D&k=ab1&page=1"
        var secretRequest = URLRequest(url: components.url!)
        let basic = Data("ada:basic-password".utf8).base64EncodedString()
        secretRequest.setValue("Basic \(basic)", forHTTPHeaderField: "Authorization")
        // Copies a careless client or server spreads around: base64 of the key, the Basic password.
        secretRequest.setValue(Data(apiKey.utf8).base64EncodedString(), forHTTPHeaderField: "X-Trace")
        secretRequest.setValue("basic-password", forHTTPHeaderField: "X-Debug")
        secretRequest.setValue("ab1", forHTTPHeaderField: "X-Short")
        let live = StubRegistry()
        let recorder = try live.record(to: file, mode: .once, scrubbing: scrubbing, environment: [:])
        let liveResult = await fetch(secretRequest, from: live)
        #expect(liveResult.body.contains("SECRET%2BKEY%2FB64%3D"), "the server echoes the encoded key: \(liveResult.body)")
        try recorder.save()
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        for secret in [apiKey, "SECRET%2BKEY%2FB64%3D", Data(apiKey.utf8).base64EncodedString(), basic, "basic-password", "\"ab1", "=ab1"] {
            #expect(!text.contains(secret), "the recording leaked \(secret)")
        }
        #expect(text.contains("page=1"), "short values that are no secret stay")
        let replay = StubRegistry()
        _ = try replay.record(to: file, mode: .none, scrubbing: scrubbing, environment: [:])
        let replayed = await fetch(secretRequest, from: replay)
        #expect(replayed.statusCode == 200, "\(String(describing: replayed.error))")
    }
}
#endif
