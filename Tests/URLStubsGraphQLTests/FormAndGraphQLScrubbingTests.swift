import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import LoopbackTestServer
@testable import TestSupport
import URLStubsRecording
import URLStubsGraphQL
import URLStubsMultipart

// The server is a child process (TestServer): these tests run where Process exists.
#if os(macOS) || os(Linux)
/// Multipart form fields named on the scrub list and GraphQL arguments written inline
/// (`login(password: "…")`) never reach a cassette or a report, nor a suggested stub.
@Suite("Secrets in multipart forms and GraphQL documents")
struct FormAndGraphQLScrubbingTests {
    let server = TestServer.shared

    /// A form with two listed fields (one short), a listed file part, and what is not secret.
    private func multipartRequest(_ path: String) -> URLRequest {
        var form = MultipartForm()
        form.add("user", "ada")
        form.add("password", "multipart-password-secret")
        form.add("TOKEN", "pin")
        form.add("secret", filename: "key.txt", contentType: "text/plain", Data("multipart-file-secret".utf8))
        form.add("avatar", filename: "me.txt", contentType: "text/plain", Data("not a secret".utf8))
        return request(server.url(path).absoluteString, method: "POST", body: form.data, headers: ["Content-Type": form.contentType])
    }

    private static let document =
        #"mutation { login(user: "ada", password: "graphql-password-secret", api_key: 4321, input: {token: "graphql-token-secret", client_secret: ["graphql-list-secret"]}) { ok } }"#

    /// An anonymous mutation with its secrets written inline, as a POST and as a GET.
    private func graphQLRequests(_ path: String) throws -> [URLRequest] {
        let body = try JSONSerialization.data(withJSONObject: ["query": Self.document])
        let post = request(server.url(path).absoluteString, method: "POST", body: body, headers: ["Content-Type": "application/json"])
        var components = URLComponents(url: server.url(path), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "query", value: Self.document)]
        return [post, URLRequest(url: components.url!)]
    }

    private static let secrets = [
        "multipart-password-secret", "multipart-file-secret", "graphql-password-secret", "graphql-token-secret", "graphql-list-secret", "4321",
    ]

    private func expectNoSecret(in text: String, _ place: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in Self.secrets {
            for copy in [secret, secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!, Data(secret.utf8).base64EncodedString()] {
                #expect(!text.contains(copy), "\(place) holds \(copy):\n\(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aRecordingHoldsNoListedFieldOrInlineArgumentAndStillReplays() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let requests = [multipartRequest("/echo")] + (try graphQLRequests("/echo"))
        let cassette = try await recordCassette(of: requests, into: file)
        expectNoSecret(in: cassette, "the cassette")
        let entries = try HAR.read(contentsOf: file)
        let form = String(decoding: try #require(entries.first?.requestBody), as: UTF8.self)
        #expect(form.contains("\r\n\r\nada\r\n"), "what is not secret stays:\n\(form)")
        #expect(form.contains("\r\n\r\nnot a secret\r\n"), "\(form)")
        #expect(!form.contains("\r\n\r\npin\r\n"), "a short value is scrubbed where it stands:\n\(form)")
        #expect(form.contains("\r\n\r\n<scrubbed>\r\n"), "\(form)")
        #expect(cassette.contains(#"user: \"ada\""#), "\(cassette)")
        // Scrubbed alike, the live requests still replay from it.
        try await expectEachReplays(requests, from: file)
    }

    @Test func reportsAndTheSuggestedStubHoldNoListedFieldOrInlineArgument() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/graphql") && hasMultipartPart(named: "password", text: "expected"), name: "upload") { _ in
            StubResponse(statusCode: 204)
        }
        registry.stub(isPath("/graphql") && isGraphQLQuery(containing: "query { me"), name: "me") { _ in StubResponse(statusCode: 204) }
        var errors: [String] = []
        for request in [multipartRequest("/graphql")] + (try graphQLRequests("/graphql")) {
            let result = await fetch(request, from: registry)
            errors.append(String(describing: try #require(result.error)))
        }
        let verification = registry.verify().description
        let journal = registry.journal.map(\.description).joined(separator: "\n")
        for (place, text) in [("the near-miss reports", errors.joined(separator: "\n")), ("verify()", verification), ("the journal", journal)] {
            expectNoSecret(in: text, place)
        }
        // The suggested stub stops before the first secret, so pasted it matches.
        let graphQLReport = errors[1]
        #expect(graphQLReport.contains(#"isGraphQLQuery(containing: "mutation { login ( user : \"ada\"")"#), "\(graphQLReport)")
    }
}
#endif
