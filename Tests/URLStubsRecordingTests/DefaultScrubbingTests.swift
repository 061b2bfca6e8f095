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
/// Secure by default: the common credential carriers never reach a cassette or a report unless
/// a test opts out of one; a scrubbed cassette stays consistent (lengths, cookie names).
@Suite("Default scrubbing")
struct DefaultScrubbingTests {
    let server = TestServer.shared

    private static let names = [
        "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "key", "password", "secret", "client_secret",
    ]
    /// A JSON `"key"` is a feature flag's or a setting's name far more often than a secret: only
    /// queries and form bodies scrub `key` by default.
    private static let jsonNames = names.filter { $0 != "key" }
    private static let headers = ["X-Api-Key", "x-auth-token", "API-KEY"]

    /// A value of its own per carrier, with characters percent-encoding changes.
    private static func secret(_ carrier: String, in place: String) -> String { "\(place)-\(carrier)-s3cr+t/v=" }

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"))!
    }

    /// Every carrier in a query, a form body, a JSON body (nested) and headers, to `/echo`
    /// (which sends them all back in its body).
    private func requestsCarryingSecrets(path: String = "/echo") -> (requests: [URLRequest], secrets: [String]) {
        var secrets: [String] = []
        var query = URLComponents(url: server.url(path), resolvingAgainstBaseURL: false)!
        query.percentEncodedQuery =
            Self.names.map { "\($0)=\(Self.encoded(Self.secret($0, in: "query")))" }.joined(separator: "&") + "&page=1"
        var queryRequest = URLRequest(url: query.url!)
        for header in Self.headers { queryRequest.setValue(Self.secret(header.lowercased(), in: "header"), forHTTPHeaderField: header) }
        secrets += Self.names.map { Self.secret($0, in: "query") } + Self.headers.map { Self.secret($0.lowercased(), in: "header") }

        let form = Self.names.map { "\($0.uppercased())=\(Self.encoded(Self.secret($0, in: "form")))" }.joined(separator: "&") + "&page=1"
        let formRequest = request(
            server.url(path).absoluteString, method: "POST", body: Data(form.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"])
        secrets += Self.names.map { Self.secret($0, in: "form") }

        var inner: [String: Any] = [:]
        for name in Self.jsonNames { inner[name] = Self.secret(name, in: "json") }
        let json = try! JSONSerialization.data(withJSONObject: ["user": "ada", "deep": [["auth": inner]]])
        let jsonRequest = request(server.url(path).absoluteString, method: "POST", body: json, headers: ["Content-Type": "application/json"])
        secrets += Self.jsonNames.map { Self.secret($0, in: "json") }
        return ([queryRequest, formRequest, jsonRequest], secrets)
    }

    private func expectNoCopy(of secrets: [String], in text: String, _ place: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets {
            for copy in [secret, Self.encoded(secret), Data(secret.utf8).base64EncodedString()] {
                #expect(!text.contains(copy), "\(place) holds \(copy)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func everyDefaultCarrierStaysOutOfTheCassette() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (requests, secrets) = requestsCarryingSecrets()
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        for (index, request) in requests.enumerated() {
            // A base64 copy travels too: a careless client logging the token it sends.
            var carrying = request
            let place = ["query", "form", "json"][index]
            carrying.setValue(Data(Self.secret("token", in: place).utf8).base64EncodedString(), forHTTPHeaderField: "X-Trace")
            #expect(await fetch(carrying, from: registry).statusCode == 200)
        }
        try recorder.save()
        let cassette = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        expectNoCopy(of: secrets, in: cassette, "the cassette")
        #expect(cassette.contains("page=1"), "what is not secret stays")
        #expect(cassette.contains("<scrubbed>"))
        // Scrubbed alike, the live requests still replay from it.
        try await expectEachReplays(requests, from: file)
    }

    @Test func everyDefaultCarrierStaysOutOfReports() async throws {
        let (requests, secrets) = requestsCarryingSecrets(path: "/nowhere")
        let registry = StubRegistry()
        registry.stub(isPath("/nowhere") && hasHeaderNamed("X-Api-Key", value: "expected") && containsQueryParams(["token": "other"])) { _ in
            StubResponse(statusCode: 204)
        }
        var errors: [String] = []
        for request in requests {
            let result = await fetch(request, from: registry)
            errors.append(String(describing: try #require(result.error)))
        }
        let verification = registry.verify().description
        let journal = registry.journal.map(\.description).joined(separator: "\n")
        for (place, text) in [("the errors", errors.joined(separator: "\n")), ("verify()", verification), ("the journal", journal)] {
            expectNoCopy(of: secrets, in: text, place)
            #expect(text.contains("<scrubbed>"), "\(place):\n\(text)")
        }
    }

    @Test func optingOutOfOneRuleKeepsThatValue() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        let scrubbing = Scrubbing.default.removing(queryParameters: ["KEY"])
        let recorder = try registry.record(to: file, mode: .all, scrubbing: scrubbing, environment: [:])
        #expect(await fetch(URLRequest(url: server.url("/json?key=public-cache-key&token=private-token")), from: registry).statusCode == 200)
        try recorder.save()
        let entry = try #require(try HAR.read(contentsOf: file).first)
        let query = URLComponents(url: entry.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.first { $0.name == "key" }?.value == "public-cache-key")
        #expect(query.first { $0.name == "token" }?.value == "<scrubbed>")
        #expect(!scrubbing.queryParameters.contains("key"))
        #expect(Scrubbing.default.removing(queryParameters: ["TOKEN"]).jsonFields.contains("token"), "one rule only")
        #expect(Scrubbing.default.removing(headers: ["x-api-key"]).headers == Scrubbing.default.headers.subtracting(["x-api-key"]))
    }

    @Test func aScrubbedBodyHasItsStoredLengthAndAScrubbedCookieKeepsItsName() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        let live = await fetch(request(server.url("/secret").absoluteString, headers: ["Authorization": "Bearer abcd"]), from: registry)
        #expect(live.body.contains("server-secret-token"), "the app gets the real answer")
        try recorder.save()
        let entry = try #require(try HAR.read(contentsOf: file).first)
        #expect(!String(decoding: entry.responseBody, as: UTF8.self).contains("server-secret-token"))
        let length = entry.responseHeaders.first { $0.name.lowercased() == "content-length" }?.value
        #expect(length == String(entry.responseBody.count), "Content-Length \(length ?? "none") for \(entry.responseBody.count) bytes")
        let cookie = entry.responseHeaders.first { $0.name.lowercased() == "set-cookie" }?.value
        #expect(cookie == "sid=<scrubbed>; Path=/")
        // The archive's own fields agree.
        guard case .object(let root) = try JSONValue(data: Data(contentsOf: file)), case .object(let log)? = root["log"],
            case .array(let entries)? = log["entries"], case .object(let first)? = entries.first,
            case .object(let response)? = first["response"], case .object(let content)? = response["content"]
        else { Issue.record("not a HAR document"); return }
        #expect(content["size"] == .integer(entry.responseBody.count))
        #expect(response["bodySize"] == .integer(entry.responseBody.count))
        #expect(response["cookies"] == .array([.object(["name": .string("sid"), "value": .string("<scrubbed>")])]))
    }
}
#endif
