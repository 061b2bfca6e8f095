import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport
import LoopbackTestServer

/// What a declaration says beyond one fixed answer: answers in turn, fixtures found by name,
/// bodies from a named stream, and the real network at another base.
@Suite("Declared sequences, fixtures, streams and proxies")
struct DeclaredSequencesAndSourcesTests {
    static func request(_ path: String) -> URLRequest { URLRequest(url: URL(string: "https://api.test\(path)")!) }

    @Test(arguments: FetchAPI.allCases)
    func followingResponsesAnswerInTurnAndTheLastRepeats(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let text = """
            {"request": {"path": "/job"}, "response": {"status": 202, "body": {"text": "queued"}},
             "followingResponses": [{"status": 202, "body": {"text": "running"}}, {"body": {"text": "done"}}]}
            """
        try registry.stub(StubDeclaration.read(from: Data(text.utf8), source: "job.json"))
        var answers: [String] = []
        for _ in 0..<4 { answers.append(await fetch(Self.request("/job"), from: registry, using: api).body) }
        #expect(answers == ["queued", "running", "done", "done"])
    }

    @Test func aSequenceWithTimesStopsMatchingAfterItsLast() async throws {
        let registry = StubRegistry()
        try registry.stub(
            StubDeclaration(
                request: RequestPattern(path: .equalTo("/once-each")), response: ResponseDefinition(body: .text("1")),
                followingResponses: [ResponseDefinition(body: .text("2"))], times: 2))
        #expect(await fetch(Self.request("/once-each"), from: registry).body == "1")
        #expect(await fetch(Self.request("/once-each"), from: registry).body == "2")
        guard case .unmatchedRequest? = await fetch(Self.request("/once-each"), from: registry).stubError else {
            Issue.record("a third request was answered")
            return
        }
    }

    @Test func aSequenceMadeInCodeReadsAsADeclaration() throws {
        let registry = StubRegistry()
        let stub = registry.stub(isPath("/pages"), responses: [StubResponse(string: "first"), StubResponse(statusCode: 404)], afterLast: .exhaust)
        let declaration = try #require(stub.declaration)
        #expect(declaration.response.body == .text("first"))
        #expect(declaration.followingResponses == [ResponseDefinition(status: 404, headers: StubResponse(statusCode: 404).headers)])
        #expect(declaration.times == 2)
    }

    @Test(arguments: FetchAPI.allCases)
    func aFixtureIsFoundByNameAndReadByItsExtension(api: FetchAPI) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("users"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"id":1}"#.utf8).write(to: folder.appendingPathComponent("users/1.json"))
        try Data("HTTP/1.1 418 I'm a teapot\r\nX-Kind: message\r\n\r\nshort and stout".utf8).write(to: folder.appendingPathComponent("tea.response"))
        let registry = StubRegistry()
        try registry.stub(
            [
                StubDeclaration(request: RequestPattern(path: .equalTo("/users/1")), response: ResponseDefinition(body: .fixture("users/1.json"))),
                StubDeclaration(request: RequestPattern(path: .equalTo("/tea")), response: ResponseDefinition(body: .fixture("tea.response"))),
            ], relativeTo: folder)
        let user = await fetch(Self.request("/users/1"), from: registry, using: api)
        #expect(user.body == #"{"id":1}"#)
        #expect(user.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let tea = await fetch(Self.request("/tea"), from: registry, using: api)
        #expect(tea.statusCode == 418)
        #expect(tea.body == "short and stout")
    }

    @Test func aMissingFixtureFailsTheRegistrationNamingTheClosestFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("user.json"))
        let registry = StubRegistry()
        let text = #"{"name": "profile", "request": {"path": "/me"}, "response": {"body": {"fixture": "usr.json"}}}"#
        do {
            try registry.stub(StubDeclaration.read(from: Data(text.utf8), source: "me.json"), relativeTo: folder)
            Issue.record("a missing fixture was accepted")
        } catch {
            let message = "\(error)"
            #expect(message.contains("at $.response.body.fixture"), "\(message)")
            #expect(message.contains("user.json"), "\(message)")
        }
        #expect(registry.stubs.isEmpty)
    }

    @Test(arguments: FetchAPI.allCases)
    func aStreamBodyPlaysTheAttachedSourceOrSaysWhatToAttach(api: FetchAPI) async throws {
        let registry = StubRegistry()
        try registry.stub(
            StubDeclaration(request: RequestPattern(path: .equalTo("/feed")), response: ResponseDefinition(body: .stream("feed"))))
        let unattached = await fetch(Self.request("/feed"), from: registry, using: api)
        #expect(
            "\(unattached.error.map { "\($0)" } ?? "")".contains(#"no stream named "feed" is attached"#), "\(String(describing: unattached.error))")
        registry.attachStream(named: "feed") { _, _, _ in
            .scripted([(pause: 0, write: .data(Data("one ".utf8))), (pause: 0.01, write: .data(Data("two".utf8)))])
        }
        #expect(await fetch(Self.request("/feed"), from: registry, using: api).body == "one two")
    }

    @Test(arguments: FetchAPI.allCases)
    func aProxyPassesTheRequestToItsBase(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let base = "http://127.0.0.1:\(TestServer.shared.port)"
        try registry.stub(
            StubDeclaration(request: RequestPattern(path: .equalTo("/echo")), response: ResponseDefinition(failure: .proxy(baseURL: base))))
        var request = URLRequest(url: URL(string: "https://api.test/echo?x=1")!)
        request.httpMethod = "POST"
        request.httpBody = Data("sent".utf8)
        let result = await fetch(request, from: registry, using: api)
        let echo = try #require(try JSONSerialization.jsonObject(with: result.data ?? Data()) as? [String: Any])
        #expect(echo["path"] as? String == "/echo")
        #expect(echo["query"] as? String == "x=1")
        #expect(echo["method"] as? String == "POST")
        #expect(echo["body"] as? String == "sent")
        #expect((echo["headers"] as? [String: String])?["host"] == "127.0.0.1:\(TestServer.shared.port)")
    }

    @Test func aProxiedURLKeepsTheBasePathAndTheRequestsPathAndQuery() {
        let url = URL(string: "https://api.test/users/1?q=a%20b")!
        #expect(ExchangePlayer.proxied(url, to: URL(string: "https://staging.test/v2/")!).absoluteString == "https://staging.test/v2/users/1?q=a%20b")
        #expect(ExchangePlayer.proxied(url, to: URL(string: "http://127.0.0.1:8080")!).absoluteString == "http://127.0.0.1:8080/users/1?q=a%20b")
    }

    @Test func aProxyBaseThatIsNotABaseURLIsRefused() {
        for base in ["ftp://files.test", "not a url", "https://api.test/?q=1"] {
            let declaration = StubDeclaration(response: ResponseDefinition(failure: .proxy(baseURL: base)))
            #expect(throws: StubError.self, "\(base)") { try declaration.validate() }
        }
    }
}
