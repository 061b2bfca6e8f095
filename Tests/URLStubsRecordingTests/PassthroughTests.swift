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
/// Against a real HTTP server on 127.0.0.1 (Tests/Server/stub_server.py), never a mock.
@Suite("Passthrough, patches and recording")
struct PassthroughTests {
    let server = TestServer.shared

    private func json(_ result: FetchResult) throws -> JSONValue { try JSONValue(data: #require(result.data)) }

    @Test(arguments: FetchAPI.allCases)
    func passthroughReturnsTheServersExactBytes(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/json")) { _ in .passthrough() }
        let (direct, _) = try await server.plainSession.data(from: server.url("/json"))
        let result = await fetch(URLRequest(url: server.url("/json")), from: registry, using: api)
        #expect(result.data == direct)
        #expect(result.statusCode == 200)
        #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(registry.journal.count == 1)
    }

    @Test func passthroughSendsMethodHeadersAndBodyAndIsNeverInterceptedAgain() async throws {
        let registry = StubRegistry()
        let log = EventLog()
        registry.stub(isPath("/echo")) { _ in .passthrough() }
        registry.onActivation { request, _, _ in log.append(request.url!.path) }
        let path = "/echo"
        let tag = UUID().uuidString
        let before = try await server.count(path, tag: tag)
        let result = await fetch(
            request(
                server.url(path).absoluteString + "?q=1&tag=\(tag)", method: "PUT", body: Data("hello".utf8),
                headers: ["X-Custom": "yes"]), from: registry)
        let echo = try json(result)
        guard case .object(let members) = echo, case .object(let headers)? = members["headers"] else {
            Issue.record("unexpected echo \(echo)")
            return
        }
        #expect(members["method"] == .string("PUT"))
        #expect(members["body"] == .string("hello"))
        #expect(members["query"] == .string("q=1&tag=\(tag)"))
        #expect(headers["x-custom"] == .string("yes"))
        #expect(try await server.count(path, tag: tag) == before + 1, "the server saw the request exactly once")
        #expect(log.events == ["/echo"], "the stub answered once: no loop")
    }

    @Test(arguments: FetchAPI.allCases)
    func passedThroughRequestsJournalTheRealStatus(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(.any, name: "to the server") { _ in .passthrough() }
        let result = await fetch(URLRequest(url: server.url("/no-such-page")), from: registry, using: api)
        #expect(result.statusCode == 404)
        try await waitUntil { registry.journal.first?.statusCode != nil }
        #expect(registry.journal.first?.statusCode == 404)
    }

    @Test func unmatchedRequestsOfAPassThroughRegistryReachTheServer() async throws {
        let registry = StubRegistry(unmatchedRequests: .passthrough)
        registry.stub(isPath("/nothing-here")) { _ in StubResponse(data: Data()) }
        let result = await fetch(URLRequest(url: server.url("/json")), from: registry)
        #expect(result.body.contains("teapot"))
        #expect(registry.journal.first?.isUnmatched == true)
    }

    @Test func realRedirectsAndCookiesComeThrough() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in .passthrough() }
        let redirected = await fetch(URLRequest(url: server.url("/redirect")), from: registry)
        #expect(redirected.body.contains("teapot"))
        let configuration = URLSessionConfiguration.ephemeral
        let session = registry.makeSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        _ = await fetchWithCompletionHandler(URLRequest(url: server.url("/cookies")), session: session)
        let names = configuration.httpCookieStorage?.cookies(for: server.url("/"))?.map(\.name).sorted()
        #expect(names == ["a", "b"])
    }

    /// A login that redirects and sets a cookie on the way: each hop goes through the stub
    /// path, so the cookie reaches the caller's store and goes out with the next hop.
    @Test(arguments: FetchAPI.allCases)
    func realRedirectsAreFollowedHopByHopWithTheirCookies(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in .passthrough() }
        let hops = EventLog()
        registry.onRedirect { request, next, _, response in
            hops.append("\(request.url!.path) -> \(next.url!.path) (\(response.statusCode))")
        }
        let result = await fetch(URLRequest(url: server.url("/login")), from: registry, using: api)
        #expect(result.body == "cookie: session=s1")
        #expect(result.response?.url?.path == "/home")
        #expect(hops.events == ["/login -> /home (302)"])
        #expect(registry.journal.map { $0.request.url!.path } == ["/login", "/home"])
    }

    @Test func pacingStillAppliesToPassedThroughBodies() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse.passthrough().requestTime(0.2, responseTime: 0.3) }
        let start = Date()
        let result = await fetch(URLRequest(url: server.url("/json")), from: registry, using: .delegate)
        #expect(result.body.contains("teapot"))
        #expect(Date().timeIntervalSince(start) >= 0.45)
    }

    // MARK: Patches

    @Test func mergePatchChangesExactlyWhatItSays() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/json")) { _ in
            .passthrough(.jsonMergePatch(["user": ["age": 37, "legacyId": NSNull(), "plan": "premium"], "currency": "EUR"]))
        }
        let result = await fetch(URLRequest(url: server.url("/json")), from: registry)
        let expected = try JSONValue(any: [
            "user": ["name": "Ada", "age": 37, "plan": "premium"],
            "items": [["id": 1, "price": 10, "name": "teapot"], ["id": 2, "price": 20, "name": "kettle"]],
            "currency": "EUR",
        ])
        #expect(try json(result) == expected)
        #expect(result.response?.expectedContentLength == Int64(result.data?.count ?? -1), "Content-Length follows the new body")
    }

    @Test func patchesKeepIntegersThatADoubleWouldRound() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/big")) { _ in .passthrough(.jsonMergePatch(["name": "patched"])) }
        let result = await fetch(URLRequest(url: server.url("/big")), from: registry)
        let text = result.body
        #expect(text.contains(#""id":9007199254740993"#), "\(text)")
        #expect(text.contains(#""owner":-9007199254740995"#), "\(text)")
        #expect(text.contains(#""ratio":0.1"#), "\(text)")
        #expect(text.contains(#""name":"patched""#), "\(text)")
    }

    @Test func mergePatchReplacesArraysWhole() {
        let document = try! JSONValue(any: ["items": [["id": 1], ["id": 2]]])
        #expect(document.mergePatch(try! JSONValue(any: ["items": [["id": 9]]])) == (try! JSONValue(any: ["items": [["id": 9]]])))
        #expect(document.mergePatch(.null) == .null)
        #expect(JSONValue.string("x").mergePatch(try! JSONValue(any: ["a": 1])) == (try! JSONValue(any: ["a": 1])))
    }

    @Test func templatePatchAppliesToEveryArrayElement() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/json")) { _ in
            .passthrough(.jsonTemplatePatch(["items": [["price": 0, "name": NSNull()]], "user": ["name": "Grace"]]))
        }
        let result = await fetch(URLRequest(url: server.url("/json")), from: registry)
        let expected = try JSONValue(any: [
            "user": ["name": "Grace", "age": 36, "legacyId": "u-1"],
            "items": [["id": 1, "price": 0], ["id": 2, "price": 0]],
            "currency": "USD",
        ])
        #expect(try json(result) == expected)
    }

    @Test func statusHeaderAndClosureTransforms() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/json")) { _ in
            .passthrough(
                .statusCode(503), .headers(["X-Added": "1", "Content-Type": "application/problem+json"]),
                ResponseTransform("uppercase") { response, body in (response, Data(String(decoding: body, as: UTF8.self).uppercased().utf8)) })
        }
        let result = await fetch(URLRequest(url: server.url("/json")), from: registry)
        #expect(result.statusCode == 503)
        #expect(result.response?.value(forHTTPHeaderField: "X-Added") == "1")
        #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
        #expect(result.body.contains("TEAPOT"))
    }

    @Test(arguments: FetchAPI.allCases)
    func jsonPatchOnANonJSONBodyFailsClearly(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/text")) { _ in .passthrough(.jsonMergePatch(["a": 1])) }
        let result = await fetch(URLRequest(url: server.url("/text")), from: registry, using: api)
        guard case .bodyIsNotJSON(let url, let contentType, let preview)? = result.error.flatMap(StubError.from) else {
            Issue.record("expected bodyIsNotJSON, got \(String(describing: result.error))")
            return
        }
        #expect(url.hasSuffix("/text"))
        #expect(contentType == "text/plain")
        #expect(preview.contains("plain words"))
    }

    // MARK: Recording

    @Test func onceRecordsThenReplaysWithoutTheNetwork() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        // Run 1: no file, so it records.
        let first = StubRegistry()
        let recorder = try first.record(to: file, mode: .once, environment: [:])
        #expect(recorder.isRecording)
        let tag = UUID().uuidString
        let live = await fetch(URLRequest(url: server.url("/json?tag=\(tag)")), from: first)
        try recorder.save()
        #expect(FileManager.default.fileExists(atPath: file.path))
        let countAfterRecording = try await server.count("/json", tag: tag)
        #expect(countAfterRecording == 1)
        // Run 2: the file exists, so it replays.
        let second = StubRegistry()
        let replayer = try second.record(to: file, mode: .once, environment: [:])
        #expect(!replayer.isRecording)
        let replay = await fetch(URLRequest(url: server.url("/json?tag=\(tag)")), from: second)
        #expect(replay.data == live.data)
        #expect(replay.statusCode == live.statusCode)
        #expect(try await server.count("/json", tag: tag) == countAfterRecording, "the replay never reached the server")
    }

    @Test func noneReplaysOnlyAndFailsUnknownRequests() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let missing = StubError.library(
            RecordingFailure.recordingMissing(
                path: file.path, reason: "as the test says",
                command: "URLSTUBS_RECORD=once swift test --filter noneReplaysOnlyAndFailsUnknownRequests"))
        #expect(throws: missing) { try StubRegistry().record(to: file, mode: .none, environment: [:]) }
        let recording = StubRegistry()
        let recorder = try recording.record(to: file, mode: .all, environment: [:])
        _ = await fetch(URLRequest(url: server.url("/json")), from: recording)
        try recorder.save()
        let replaying = StubRegistry(unmatchedRequests: .passthrough)
        _ = try replaying.record(to: file, mode: .none, environment: [:])
        #expect(replaying.unmatchedRequestPolicy == .fail)
        #expect(await fetch(URLRequest(url: server.url("/json")), from: replaying).body.contains("teapot"))
        let unknown = await fetch(URLRequest(url: server.url("/text")), from: replaying)
        #expect(unknown.urlError?.code == .resourceUnavailable)
    }

    @Test func newEpisodesReplaysKnownAndRecordsNew() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let tag = UUID().uuidString
        let first = StubRegistry()
        let recorder = try first.record(to: file, mode: .all, environment: [:])
        _ = await fetch(URLRequest(url: server.url("/json?tag=\(tag)")), from: first)
        try recorder.save()
        let second = StubRegistry()
        let episodes = try second.record(to: file, mode: .newEpisodes, environment: [:])
        _ = await fetch(URLRequest(url: server.url("/json?tag=\(tag)")), from: second)
        _ = await fetch(URLRequest(url: server.url("/text?tag=\(tag)")), from: second)
        try episodes.save()
        #expect(try await server.count("/json", tag: tag) == 1, "known requests are replayed")
        #expect(try await server.count("/text", tag: tag) == 1, "new requests are recorded")
        let urls = try HAR.read(contentsOf: file).map { $0.url.path }
        #expect(urls == ["/json", "/text"])
    }

    @Test func allReRecordsEveryTime() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let tag = UUID().uuidString
        for run in 1...2 {
            let registry = StubRegistry()
            let recorder = try registry.record(to: file, mode: .all, environment: [:])
            _ = await fetch(URLRequest(url: server.url("/echo?tag=\(tag)")), from: registry)
            #expect(try await server.count("/echo", tag: tag) == run, "every run reaches the server")
            try recorder.save()
            #expect(try HAR.read(contentsOf: file).count == 1, "the file is replaced, not appended to")
        }
    }

    /// A POST carrying five secrets: in a header, a custom header, a cookie, the query and the
    /// JSON body.
    private func requestCarryingSecrets(to path: String) -> URLRequest {
        request(
            server.url(path).absoluteString + "?api_key=query-secret&page=1", method: "POST",
            body: Data(#"{"user":"ada","password":"body-secret"}"#.utf8),
            headers: ["Authorization": "Bearer header-secret", "X-Api-Key": "key-secret", "Cookie": "sid=cookie-secret"])
    }

    @Test func secretsAServerEchoesAreScrubbedToo() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let scrubbing = Scrubbing.default.adding(headers: ["X-Api-Key"], queryParameters: ["api_key"], jsonFields: ["password"])
        // /echo sends back the method, query, headers and body it received, as JSON.
        let secretRequest = requestCarryingSecrets(to: "/echo")
        let live = StubRegistry()
        let recorder = try live.record(to: file, mode: .once, scrubbing: scrubbing, environment: [:])
        let liveResult = await fetch(secretRequest, from: live)
        #expect(liveResult.body.contains("header-secret"), "the live run sees the echo")
        try recorder.save()
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        for secret in ["header-secret", "key-secret", "cookie-secret", "query-secret", "body-secret"] {
            #expect(!text.contains(secret), "the recording leaked \(secret)")
        }
        let replay = StubRegistry()
        _ = try replay.record(to: file, mode: .none, scrubbing: scrubbing, environment: [:])
        let replayed = await fetch(secretRequest, from: replay)
        #expect(replayed.statusCode == 200, "\(String(describing: replayed.error))")
        #expect(replayed.body.contains("ada"))
        #expect(!replayed.body.contains("header-secret"))
    }

    @Test func aRecordingNeverSavedIsFoldedInByTheNextRecorder() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        do {
            let live = StubRegistry()
            let recorder = try live.record(to: file, mode: .once, environment: [:])
            _ = await fetch(URLRequest(url: server.url("/json")), from: live)
            _ = await fetch(URLRequest(url: server.url("/text")), from: live)
            #expect(recorder.recordedEntries.count == 2)
            live.removeAll()
            // No save(): the cassette is not written, the exchanges wait beside it.
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // The recorder holds the cassette until it is gone, which the loading system's last
        // references to its registry may delay a little.
        let next = StubRegistry()
        var attempt: HARRecorder?
        let deadline = Date().addingTimeInterval(10)
        while attempt == nil {
            do {
                attempt = try next.record(to: file, mode: .once, environment: [:])
            } catch StubError.library(RecordingFailure.cassetteInUse) where Date() < deadline {
                try await Task.sleep(nanoseconds: 20_000_000)
            }
        }
        let replaying = try #require(attempt)
        #expect(!replaying.isRecording, "the folded exchanges are the recording")
        #expect(try HAR.read(contentsOf: file).map(\.url.path) == ["/json", "/text"])
        #expect(await fetch(URLRequest(url: server.url("/text")), from: next).body == "plain words, not JSON")
    }

    @Test func recordingsHoldNoSecretsAndStillReplay() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let scrubbing = Scrubbing.default.adding(headers: ["X-Api-Key"], queryParameters: ["api_key"], jsonFields: ["token", "password"])
        let secretRequest = requestCarryingSecrets(to: "/secret")
        let live = StubRegistry()
        let recorder = try live.record(to: file, mode: .once, scrubbing: scrubbing, environment: [:])
        let liveResult = await fetch(secretRequest, from: live)
        #expect(liveResult.body.contains("server-secret-token"), "the live run sees the real response")
        try recorder.save()
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        for secret in ["header-secret", "key-secret", "cookie-secret", "query-secret", "body-secret", "server-secret-token", "server-session"] {
            #expect(!text.contains(secret), "the recording leaked \(secret)")
        }
        #expect(text.contains("<scrubbed>"))
        let replay = StubRegistry()
        _ = try replay.record(to: file, mode: .none, scrubbing: scrubbing, environment: [:])
        let replayed = await fetch(secretRequest, from: replay)
        #expect(replayed.statusCode == liveResult.statusCode)
        #expect(replayed.body.contains("\"user\":\"ada\""))
        #expect(replayed.body.contains("<scrubbed>"))
    }
}
#endif
