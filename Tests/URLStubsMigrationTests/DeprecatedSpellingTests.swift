import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsMigration
import URLStubsRecording
import URLStubsScenarios
import URLStubsStreaming
@testable import TestSupport

/// Every deprecated spelling still compiles and does what the spelling that replaced it does.
/// (Tests marked deprecated may call deprecated API without a warning.)
@Suite("Deprecated spellings still compile and forward")
struct DeprecatedSpellingTests {
    private static func stubRequest(_ url: String, method: String = "GET", body: Data? = nil) -> StubRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        return StubRequest(request, body: body)
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test(arguments: FetchAPI.allCases)
    func setCookieHeadersAreTheSetCookieFieldsOfHeaders(api: FetchAPI) async {
        var response = StubResponse(string: "in", headers: ["Set-Cookie": "old=1", "Vary": "Accept"])
        response.setCookieHeaders = ["session=s1; Path=/", "theme=dark; Path=/"]
        #expect(response.headers.values(for: "Set-Cookie") == ["session=s1; Path=/", "theme=dark; Path=/"])
        #expect(response.setCookieHeaders == ["session=s1; Path=/", "theme=dark; Path=/"])
        #expect(response.headers["Vary"] == "Accept")
        let registry = StubRegistry()
        let stubbed = response
        registry.stub(isPath("/login")) { _ in stubbed }
        let configuration = URLSessionConfiguration.ephemeral
        _ = await fetch(request("https://api.test/login"), from: registry, using: api, configuration: configuration)
        let cookies = configuration.httpCookieStorage?.cookies(for: URL(string: "https://api.test/")!) ?? []
        #expect(Set(cookies.map(\.name)) == ["session", "theme"])
    }

    // MARK: OHHTTPStubs' vocabulary

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func ohhttpstubsMatchersForwardToIsMethodAndHasJSONBody() {
        let cases: [(RequestMatcher, String)] = [
            (isMethodGET(), "GET"), (isMethodPOST(), "POST"), (isMethodPUT(), "PUT"),
            (isMethodPATCH(), "PATCH"), (isMethodDELETE(), "DELETE"), (isMethodHEAD(), "HEAD"),
        ]
        for (matcher, method) in cases {
            #expect(matcher.matches(Self.stubRequest("https://a.test/", method: method)), "\(method)")
            #expect(!matcher.matches(Self.stubRequest("https://a.test/", method: "OPTIONS")), "\(method)")
            #expect(matcher.description == isMethod(StubRequest.Method(rawValue: method)).description)
        }
        let json = Self.stubRequest("https://a.test/", method: "POST", body: Data(#"{"a":1}"#.utf8))
        #expect(hasJsonBody(["a": 1]).matches(json))
        #expect(!hasJsonBody(["a": 2]).matches(json))
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test(arguments: FetchAPI.allCases)
    func ohhttpstubsStubConditionAnswersThroughASession(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(condition: isPath("/old")) { _ in StubResponse(string: "old spelling") }
        let result = await fetch("https://api.test/old", from: registry, using: api)
        #expect(result.body == "old spelling")
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func ohhttpstubsResponseTimeIsATimeOrANegativeSpeed() {
        let spread = StubResponse(data: Data()).responseTime(2)
        #expect(spread.pacing.responseTime == StubResponse(data: Data()).requestTime(0, responseTime: 2).pacing.responseTime)
        let speed = StubResponse(data: Data()).responseTime(-400)
        #expect(speed.pacing.responseTime == StubResponse(data: Data()).downloadSpeed(.threeG).pacing.responseTime)
    }

    // MARK: Earlier URLStubs spellings

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func isMethodWithAStringVariableAndPathPatternForward() {
        let name = "post"
        #expect(isMethod(name).matches(Self.stubRequest("https://a.test/", method: "POST")))
        #expect(isMethod("POST").description == isMethod(.post).description, "a literal is a StubRequest.Method")
        let pattern = pathPattern("/users/:id")
        #expect(pattern.evaluate(Self.stubRequest("https://a.test/users/42")).captures == ["id": "42"])
        #expect(!pattern.matches(Self.stubRequest("https://a.test/users")))
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test(arguments: [
        ("/users/:id/posts/:post", "/users/42/posts/7"), ("/users/:id/posts/:post", "/users/42/posts"), ("/files/**", "/files/a/b/c"),
        ("/a/*/c", "/a/b/d"), ("users/:id", "/users/1"), ("/a/:id/b/:id", "/a/1/b/2"), ("/a/b*", "/a/b"),
    ])
    func urlPatternIsThePathPatternOfIsPath(pattern: String, path: String) {
        let old = Result { try URLPattern(pattern) }
        let new = Result { try PathPattern(pattern) }
        switch (old, new) {
        case (.success(let old), .success(let new)):
            #expect(old.match(path) == new.match(path) && old.description == new.description)
        case (.failure(let old as URLPatternError), .failure(let new as PathPatternError)):
            #expect(old.pattern == new.pattern && old.column == new.column && old.message == new.message)
            #expect(old.description == new.description && old.errorDescription == new.description)
        default:
            Issue.record("URLPattern(\(pattern)) gave \(old), PathPattern gave \(new)")
        }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func settableResponseFieldsSayWhatTheModifiersSay() {
        var failing = StubResponse(data: Data())
        failing.error = URLError(.notConnectedToInternet)
        #expect((failing.action.error as? URLError)?.code == .notConnectedToInternet)
        #expect((StubResponse(error: URLError(.notConnectedToInternet)).action.error as? URLError)?.code == .notConnectedToInternet)
        failing.failureAfterBytes = 10
        #expect(failing.action.byteLimit == 10 && (failing.error as? URLError)?.code == .notConnectedToInternet)

        var truncated = StubResponse(data: Data(count: 100))
        truncated.truncatedAfterBytes = 5
        #expect(truncated.action.byteLimit == StubResponse(data: Data(count: 100)).truncated(afterBytes: 5).action.byteLimit)
        #expect(truncated.action.error == nil)

        var silent = StubResponse(data: Data())
        silent.neverResponds = true
        #expect(silent.neverResponds && StubResponse.neverResponding().neverResponds)

        var network = StubResponse(data: Data())
        network.passthrough = Passthrough(transforms: [.statusCode(503)])
        #expect(network.action.passesThrough && StubResponse.passthrough(.statusCode(503)).action.passesThrough)
        #expect(network.passthrough?.transforms.map(\.description) == ["status 503"])

        var paced = StubResponse(data: Data())
        paced.requestTime = 0.5
        paced.responseTime = 2
        #expect(paced.requestTime == 0.5 && paced.responseTime == 2)
        #expect(paced.pacing.requestTime == StubResponse(data: Data()).requestTime(0.5, responseTime: 2).pacing.requestTime)
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func passThroughInTwoWordsIsThePassthroughPolicy() {
        #expect(UnmatchedRequestPolicy.passThrough == .passthrough)
        #expect(StubRegistry(unmatchedRequests: .passThrough).unmatchedRequestPolicy == .passthrough)
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func verificationReportFieldsAgreeWithProblems() async {
        let registry = StubRegistry()
        registry.stub(isPath("/used")) { _ in StubResponse(statusCode: 204) }.expect(.never)
        registry.stub(isPath("/unused")) { _ in StubResponse(statusCode: 204) }.expect(.once)
        registry.expectUnmatched(isPath("/gone"), .once)
        _ = await fetch("https://api.test/used", from: registry)
        _ = await fetch("https://api.test/surprise", from: registry)
        _ = await fetch("https://api.test/surprise", from: registry)
        let report = registry.verify()
        #expect(report.unmetExpectations.map(\.stub.location) == report.problems.filter { $0.kind == .unmetExpectation }.map(\.location))
        #expect(report.unmetExpectations.map(\.description) == report.problems.filter { $0.kind == .unmetExpectation }.map(\.summary))
        let invalid = StubRegistry()
        invalid.stub(pathMatches("([")) { _ in StubResponse(statusCode: 204) }
        #expect(invalid.verify().invalidStubs.count == 1 && invalid.verify().problems.filter { $0.kind == .invalidStub }.count == 1)
        #expect(report.unmetUnmatchedExpectations.map(\.actual) == [0])
        #expect(report.unexpectedRequests.map(\.request.url?.path) == ["/surprise"])
        #expect(report.unexpectedRequests.map { report.count(of: $0) } == [2])
        #expect(report.uncountedUnexpectedRequests == 0)
        #expect(report.unusedRecordedEntries.isEmpty)
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func fixtureFilesReadByTheirOldInitializers() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deprecated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = folder.appendingPathComponent("created.response")
        try Data("HTTP/1.1 201 Created\r\nX-Old: yes\r\n\r\nmade".utf8).write(to: message)
        let events = folder.appendingPathComponent("feed.sse")
        try Data("data: a\n\n".utf8).write(to: events)

        let old = try StubResponse(httpMessageAt: message)
        let new = try StubResponse(fixture: message)
        #expect(old.statusCode == 201 && new.statusCode == 201 && old.body.data == new.body.data)
        #expect(old.value(forHeader: "X-Old") == new.value(forHeader: "X-Old"))
        #expect(throws: StubError.fileNotFound(path: folder.appendingPathComponent("missing.response").path)) {
            try StubResponse(httpMessageAt: folder.appendingPathComponent("missing.response"))
        }

        let registry = StubRegistry()
        registry.stub(isPath("/old")) { _ in try StubResponse(eventStreamAt: events) }
        registry.stub(isPath("/ticks")) { _ in .eventStream([ServerSentEvent(data: "1"), ServerSentEvent(data: "2")], interval: 0.05) }
        #expect(await fetch("https://api.test/old", from: registry).body == "data: a\n\n")
        #expect(await fetch("https://api.test/ticks", from: registry).body == "data: 1\n\ndata: 2\n\n")
        #expect(throws: StubError.fileNotFound(path: "/nonexistent/feed.sse")) {
            try StubResponse(eventStreamAt: URL(fileURLWithPath: "/nonexistent/feed.sse"))
        }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func stubBodyFactoriesForwardToTheResponseInitializers() async {
        #expect(StubResponse(body: .data(Data("x".utf8))).body.data == StubResponse(data: Data("x".utf8)).body.data)
        #expect(StubResponse(body: .empty).body.data == Data())
        let url = URL(fileURLWithPath: "/tmp/x")
        if case .file(let old) = StubBody.file(url).source, case .file(let new) = StubResponse(fileAt: url).body.source {
            #expect(old == new)
        } else {
            Issue.record("StubBody.file must be a file body")
        }
        #expect(StubBody.live(LiveStream()).isStreamed && StubBody.script([.text("a")]).isStreamed)
        let registry = StubRegistry()
        registry.stub(isPath("/old")) { _ in
            StubResponse(body: .stream(length: 3) { InputStream(data: Data("abc".utf8)) }, statusCode: 201, headers: ["X-Old": "1"])
        }
        registry.stub(isPath("/new")) { _ in
            StubResponse.stream(length: 3, statusCode: 201, headers: ["X-Old": "1"]) { InputStream(data: Data("abc".utf8)) }
        }
        let old = await fetch("https://api.test/old", from: registry)
        let new = await fetch("https://api.test/new", from: registry)
        #expect(old.body == "abc" && old.body == new.body)
        #expect(old.response?.statusCode == 201 && new.response?.statusCode == 201)
        #expect(old.response?.value(forHTTPHeaderField: "Content-Length") == "3" && old.response?.value(forHTTPHeaderField: "X-Old") == "1")
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func helpersThatBecameInternalStillAnswer() {
        let response = HTTPURLResponse(url: URL(string: "https://a.test/")!, statusCode: 200, httpVersion: nil, headerFields: ["A": "1"])!
        #expect(response.replacing(statusCode: 418).statusCode == 418)
        #expect(response.replacingHeaders(["A": nil, "B": "2"]).allHeaderFields["B"] as? String == "2")
        #expect(response.replacingHeaders(["A": nil]).allHeaderFields["A"] == nil)
        let document: JSONValue = .object(["a": .integer(1), "b": .integer(2)])
        #expect(document.mergePatched(with: .object(["b": .null])) == .object(["a": .integer(1)]))
        #expect(
            JSONValue.object(["items": .array([.object(["p": .integer(1)]), .object(["p": .integer(2)])])])
                .templatePatched(with: .object(["items": .array([.object(["p": .integer(0)])])]))
                == .object(["items": .array([.object(["p": .integer(0)]), .object(["p": .integer(0)])])]))
        #expect(Fixture.contentType(forExtension: "json") == "application/json")
        #expect(DownloadSpeed.threeG.bytesPerSecond == 400_000)
        #expect(StubRegistry().unmatchedReport(for: Self.stubRequest("https://a.test/x")).contains("The registry has no stubs."))
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func journalEntryIsBodyCutSaysWhetherTheBodyWasCut() async {
        let registry = StubRegistry()
        registry.journalBodyLimit = 4
        registry.stub(.any) { _ in StubResponse(statusCode: 204) }
        _ = await fetch(request("https://api.test/a", method: "POST", body: Data("0123456789".utf8)), from: registry)
        _ = await fetch(request("https://api.test/b", method: "POST", body: Data("01".utf8)), from: registry)
        #expect(registry.journal.map(\.isBodyCut) == [true, false])
    }

    // MARK: One error for a file that cannot be used

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func theFixtureErrorTypesOfEarlierReleasesStillCatchAndRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deprecated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"id":1}"#.utf8).write(to: folder.appendingPathComponent("user.json"))

        do {
            _ = try StubResponse(fixture: folder.appendingPathComponent("usr.json"))
            Issue.record("a missing fixture throws")
        } catch let error as FixtureNotFoundError {
            #expect(error.kind == .notFound && error.name == "usr.json" && error.name == error.source)
            #expect(error.searchedPath == folder.path && error.suggestions == ["user.json"])
        }
        do {
            _ = try StubResponse(httpMessage: Data("HTTP/1.1 200 OK\r\nContent-Type application/json\r\n\r\n".utf8), source: "x.response")
            Issue.record("a malformed message throws")
        } catch let error as HTTPMessageError {
            #expect(error.kind == .malformed && error.source == "x.response" && error.line == 2)
            #expect(error.description == #"x.response:2: expected a header line "Name: value", found "Content-Type application/json""#)
        }
        do {
            _ = try HAR.read(Data("{}".utf8), source: "empty.har")
            Issue.record("an archive without log throws")
        } catch let error as HARError {
            #expect(error.path == "$.log" && error.path == error.jsonPath)
            #expect(error.description == "empty.har: $.log: expected a value (it is missing)")
        }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func verificationFailureIsTheThrownReport() throws {
        let registry = StubRegistry()
        registry.stub(isPath("/never"), name: "never") { _ in StubResponse(statusCode: 204) }.expect(.once)
        do {
            try registry.verifyOrThrow()
            Issue.record("an unmet expectation throws")
        } catch let failure as VerificationFailure {
            #expect(failure.report.description == registry.verify().description)
            #expect(failure.report.problems.map(\.kind) == [.unmetExpectation])
            #expect(failure.localizedDescription == failure.report.description)
        } catch {
            Issue.record("verifyOrThrow() threw \(error)")
        }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func aFixtureInADirectoryIsTheFixtureAtItsURL() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deprecated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("v2"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("v2/user.json")
        try Data(#"{"id":1}"#.utf8).write(to: file)

        let old = try StubResponse(fixture: "v2/user.json", inDirectory: folder, statusCode: 201)
        let new = try StubResponse(fixture: file, statusCode: 201)
        #expect(old.statusCode == new.statusCode && old.headers == new.headers && old.headers["Content-Type"] == "application/json")
        if case .file(let oldURL) = old.body.source, case .file(let newURL) = new.body.source {
            #expect(oldURL.standardizedFileURL == newURL.standardizedFileURL)
        } else {
            Issue.record("both read the file as the body")
        }
        #expect(throws: FixtureError.self) { try StubResponse(fixture: "v2/usr.json", inDirectory: folder) }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func aRecorderStillSaysItsFileAndScrubbing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deprecated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassette = folder.appendingPathComponent("replayed.har")
        try HAR.write([]).write(to: cassette)
        let registry = StubRegistry()
        let recorder = try registry.record(
            to: cassette, mode: .none, scrubbing: .default.adding(headers: ["X-Secret"]), environment: [:])
        #expect(recorder.file == cassette)
        #expect(recorder.scrubbing.headers == registry.scrubbing.headers && recorder.scrubbing.headers.contains("x-secret"))
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func aJSONValueStillGivesItsFoundationObject() throws {
        let value = JSONValue.object(["a": .integer(1), "b": .array([.string("x"), .null])])
        let object = value.anyValue as? [String: Any]
        #expect(object?["a"] as? Int == 1)
        #expect((object?["b"] as? [Any])?.first as? String == "x")
        #expect(try JSONValue(any: value.anyValue) == value)
        // What the deprecation message suggests instead gives the same, scalars included.
        for each in [value, .string("x"), .integer(3), .null, .bool(true)] {
            let suggested = try JSONSerialization.jsonObject(with: each.serialized(), options: .fragmentsAllowed)
            #expect(try JSONValue(any: suggested) == each)
        }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func jsonValueHelpersStillAnswer() throws {
        #expect(JSONValue.integer(3).doubleValue == 3 && JSONValue.number(0.5).doubleValue == 0.5)
        #expect(JSONValue.string("3").doubleValue == nil)
        let expected = try JSONValue(data: Data(#"{"user":{"name":"abc","tags":[1,2]}}"#.utf8))
        let actual = try JSONValue(data: Data(#"{"user":{"name":"abd","tags":[1,2]},"extra":true}"#.utf8))
        #expect(expected.differences(from: actual) == [#"$.user.name: expected "abc", got "abd""#, "$.extra: unexpected true"])
        #expect(expected.differences(from: expected).isEmpty && expected != actual)
        #expect(expected.differences(from: actual, path: "$.body") == expected.differenceLines(from: actual, path: "$.body"))
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func aScenarioStillCountsItsStubsAndACountStillJudgesActivations() {
        let scenario = Scenario("two") { stubs in
            stubs.stub(isPath("/a")) { _ in StubResponse(statusCode: 204) }
            stubs.stub(isPath("/b")) { _ in StubResponse(statusCode: 204) }
        }
        let registry = StubRegistry()
        registry.activate(scenario)
        #expect(scenario.stubCount == 2 && registry.stubs.count == scenario.stubCount)
        let judged: [(ExpectedCount, Int, Bool)] = [
            (.once, 1, true), (.once, 2, false), (.never, 0, true), (.atLeastOnce, 0, false), (.atLeast(2), 3, true),
            (.atMost(1), 2, false), (.between(1...3), 3, true), (.between(1...3), 4, false),
        ]
        for (count, activations, satisfied) in judged {
            #expect(count.isSatisfied(by: activations) == satisfied && count.accepts(activations) == satisfied, "\(count) \(activations)")
        }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func aStubStillSaysItsExpectationAndWhetherItIsUsedUp() async {
        let registry = StubRegistry()
        let limited = registry.stub(isPath("/once"), times: 1) { _ in StubResponse(statusCode: 204) }
        let open = registry.stub(isPath("/any")) { _ in StubResponse(statusCode: 204) }.expect(.atLeast(2))
        #expect(open.expectation == .atLeast(2) && limited.expectation == nil)
        #expect(!limited.isExhausted && !open.isExhausted)
        _ = await fetch("https://api.test/once", from: registry)
        _ = await fetch("https://api.test/any", from: registry)
        #expect(limited.isExhausted && limited.isExhausted == limited.isUsedUp && !open.isExhausted)
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func aHAREntryStillComesFromARequestAndAResponse() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.test/users?page=2")))
        request.httpMethod = "post"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"q":1}"#.utf8)
        let response = try #require(
            HTTPURLResponse(url: request.url!, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/plain"]))
        let started = Date(timeIntervalSince1970: 1_000)
        let old = HAREntry(request: request, response: response, responseBody: Data("made".utf8), startedDateTime: started, time: 12)
        let new = HAREntry(
            startedDateTime: started, time: 12, method: "POST", url: request.url!,
            requestHeaders: ["Content-Type": "application/json"], requestBody: request.httpBody,
            requestMimeType: "application/json", status: 201, statusText: HTTPURLResponse.localizedString(forStatusCode: 201),
            responseHeaders: ["Content-Type": "text/plain"], responseBody: Data("made".utf8),
            responseMimeType: "text/plain")
        #expect(old == new)
    }
}
