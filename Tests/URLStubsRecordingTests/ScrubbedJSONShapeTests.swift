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
/// Response bodies are scrubbed too, and keep their shape: a replayed response still decodes
/// into the app's models, and no secret reaches the cassette.
@Suite("Scrubbed JSON keeps its shape")
struct ScrubbedJSONShapeTests {
    let server = TestServer.shared

    /// The app's model of `/account`: strict types, as `Decodable` models are.
    struct Account: Decodable, Equatable {
        struct Flag: Decodable, Equatable {
            let key: String
            let enabled: Bool
        }
        struct Session: Decodable, Equatable {
            struct Token: Decodable, Equatable {
                let value: String
                let expiresIn: Int
            }
            let token: Token
            let refreshToken: [String]
            let password: String?
            let secret: Bool
            let apiKey: Int

            enum CodingKeys: String, CodingKey {
                case token, password, secret
                case refreshToken = "refresh_token"
                case apiKey = "api_key"
            }
        }
        let flags: [Flag]
        let session: Session
        let cacheSeconds: Int
    }

    private static let secrets = ["tok-abcdef-123456", "rt-one-aaaa", "rt-two-bbbb", "87654321"]

    @Test(arguments: [FetchAPI.completionHandler, .asyncData])
    func aReplayedResponseStillDecodesAndHoldsNoSecret(api: FetchAPI) async throws {
        let file = temporaryHAR("account")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let recording = StubRegistry()
        let recorder = try recording.record(to: file, mode: .all, environment: [:])
        let live = await fetch(URLRequest(url: server.url("/account")), from: recording, using: api)
        let real = try JSONDecoder().decode(Account.self, from: try #require(live.data))
        #expect(real.session.token.value == "tok-abcdef-123456", "the app gets the real answer")
        try recorder.save()

        let cassette = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        for secret in Self.secrets {
            #expect(!cassette.contains(secret), "the cassette holds \(secret)")
        }
        let stored = try #require(try HAR.read(contentsOf: file).first)
        guard case .object(let body) = try JSONValue(data: stored.responseBody), case .object(let session)? = body["session"] else {
            Issue.record("not the account document: \(String(decoding: stored.responseBody, as: UTF8.self))")
            return
        }
        #expect(session["token"] == .object(["value": .string("<scrubbed>"), "expiresIn": .integer(0)]), "an object keeps its members")
        #expect(session["refresh_token"] == .array([.string("<scrubbed>"), .string("<scrubbed>")]), "an array keeps its length")
        #expect(session["password"] == .null, "null stays null")
        #expect(session["secret"] == .bool(true), "a boolean stays")
        #expect(session["api_key"] == .integer(0), "a number stays a number")
        #expect(body["cacheSeconds"] == .integer(3600), "a number equal to a scrubbed one elsewhere stays")

        let replaying = StubRegistry()
        _ = try replaying.record(to: file, mode: .none, environment: [:])
        let replayed = await fetch(URLRequest(url: server.url("/account")), from: replaying, using: api)
        let account = try JSONDecoder().decode(Account.self, from: try #require(replayed.data, "\(String(describing: replayed.error))"))
        #expect(account.flags == [.init(key: "dark_mode", enabled: true), .init(key: "beta", enabled: false)], "a JSON \"key\" is no secret")
        #expect(account.session.token == .init(value: "<scrubbed>", expiresIn: 0))
        #expect(account.session.refreshToken == ["<scrubbed>", "<scrubbed>"])
        #expect(account.session.password == nil && account.session.secret && account.session.apiKey == 0)
    }

    /// A request body is scrubbed the same way, and the live request still replays from it,
    /// also when all it scrubbed is numbers (which leave no placeholder to say so).
    @Test func aScrubbedRequestBodyStillReplays() async throws {
        let file = temporaryHAR("account")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let body = Data(#"{"user":"ada","credentials":{"pin":4711,"recovery":[1234,5678]},"token":98765432,"remember":true}"#.utf8)
        let login = request(server.url("/echo").absoluteString, method: "POST", body: body, headers: ["Content-Type": "application/json"])
        let recording = StubRegistry()
        let recorder = try recording.record(
            to: file, mode: .all, scrubbing: .default.adding(jsonFields: ["credentials"]), environment: [:])
        #expect(await fetch(login, from: recording).statusCode == 200)
        try recorder.save()
        let cassette = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(!cassette.contains("98765432"), "\(cassette)")
        let stored = try #require(try HAR.read(contentsOf: file).first?.requestBody)
        #expect(
            try JSONValue(data: stored)
                == .object([
                    "user": .string("ada"), "credentials": .object(["pin": .integer(0), "recovery": .array([.integer(0), .integer(0)])]),
                    "token": .integer(0), "remember": .bool(true),
                ]))
        let replaying = StubRegistry()
        _ = try replaying.record(to: file, mode: .none, scrubbing: .default.adding(jsonFields: ["credentials"]), environment: [:])
        let replayed = await fetch(login, from: replaying)
        #expect(replayed.statusCode == 200, "\(String(describing: replayed.error))")
        let other = request(
            server.url("/echo").absoluteString, method: "POST", body: Data(#"{"user":"bob","token":1}"#.utf8),
            headers: ["Content-Type": "application/json"])
        #expect(await fetch(other, from: replaying).statusCode == nil, "another body is another request")
    }

    /// The articles' opt-out for a public `?key=`: the URL keeps it, and so does a body that
    /// echoes it, while a real secret beside it is still scrubbed.
    @Test func optingOutOfTheKeyQueryParameterKeepsItInTheURLAndTheBody() async throws {
        let file = temporaryHAR("account")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let search = URLRequest(url: server.url("/echo?key=PUBLICCACHEKEY&token=tok-private-999"))
        let scrubbing = Scrubbing.default.removing(queryParameters: ["key"])
        let recording = StubRegistry()
        let recorder = try recording.record(to: file, mode: .all, scrubbing: scrubbing, environment: [:])
        #expect(await fetch(search, from: recording).body.contains("PUBLICCACHEKEY"))
        try recorder.save()
        #expect(!String(decoding: try Data(contentsOf: file), as: UTF8.self).contains("tok-private-999"))
        let replaying = StubRegistry()
        _ = try replaying.record(to: file, mode: .none, scrubbing: scrubbing, environment: [:])
        let replayed = await fetch(search, from: replaying)
        #expect(replayed.body.contains("key=PUBLICCACHEKEY"), "\(replayed.body)")
        #expect(!replayed.body.contains("tok-private-999"), "\(replayed.body)")
    }
}
#endif
