import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsTestRunnerLink
@testable import URLStubsTesting
@testable import TestSupport

/// The test-runner link with both ends in this process (the app's end on a thread of its own,
/// answering a registry of the test's), and with one end spoken by hand: the handshake, the
/// commands, and every failure with its text.
@Suite("AppBackend link")
struct AppBackendLinkTests {
    // MARK: Working

    @Test func inertWithoutTheLaunchEnvironment() throws {
        let registry = StubRegistry(unmatchedRequests: .passthrough)
        let link = try TestRunnerLink.connectIfLaunchedByTest(into: registry, environment: ["HOME": "/tmp"])
        #expect(link == nil)
        #expect(registry.unmatchedRequestPolicy == .passthrough, "nothing changes")
        #expect(registry.stubs.isEmpty)
    }

    @Test func declaredStubsAnswerTheFirstRequestAndLiveOnesTheNext() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        try await backend.stub(.get("/launch"), name: "launch", response: RemoteResponse(string: "from the test"))
        try await backend.stub(RemoteMatcher(path: "/users"), response: RemoteResponse(fixture: "users.json"))
        let registry = StubRegistry()
        let link = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        #expect(link.isConnected)
        #expect(await fetch("https://app.test/launch", from: registry).body == "from the test")
        #expect(await fetch("https://app.test/users", from: registry).response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        try await backend.waitForApp()
        #expect(backend.isAppConnected)

        let cart = try await backend.stub(
            RemoteMatcher(method: "post", path: "/cart/:id", queryItems: ["dry": nil], jsonBody: ["sku": "tea"]),
            response: RemoteResponse(json: ["ok": true], statusCode: 201))
        let posted = await fetch(
            request("https://app.test/cart/7?dry=1", method: "POST", body: Data(#"{"sku":"tea","n":2}"#.utf8)), from: registry)
        #expect(posted.statusCode == 201)
        #expect(posted.body == #"{"ok":true}"#)
        #expect(try await backend.remove(cart))
        #expect(try await !backend.remove(cart), "already removed")
        #expect(
            await fetch(request("https://app.test/cart/7?dry=1", method: "POST", body: Data(#"{"sku":"tea"}"#.utf8)), from: registry).statusCode
                == nil)

        let journal = try await backend.journal()
        #expect(journal.first?.description.hasPrefix("GET https://app.test/launch -> 200 from \"launch\"") == true, "\(journal)")
        #expect(journal.contains { $0.method == "POST" && $0.body == #"{"sku":"tea","n":2}"# && $0.statusCode == 201 })
        let report = try await backend.verify()
        #expect(!report.isSuccess, "the last POST matched nothing")
        #expect(report.description.contains("POST https://app.test/cart/7?dry=1"), "\(report)")
        _ = link
    }

    @Test func stubsAddedWhileOfflineStayOfflineAndScenariosSwitch() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        try await backend.activate("sold-out")
        #expect(await fetch("https://app.test/api/cart", from: registry).statusCode == 409)
        try await backend.setOffline(true)
        try await backend.stub(.any, response: RemoteResponse(string: "online"))
        #expect(await fetch("https://app.test/api/cart", from: registry).urlError?.code == .notConnectedToInternet)
        try await backend.setOffline(false)
        #expect(await fetch("https://app.test/api/cart", from: registry).body == "online")
        try await backend.removeAll()
        #expect(await fetch("https://app.test/api/cart", from: registry).statusCode == 409, "the scenario is back on top")
        #expect(try await backend.deactivate("sold-out"))
        let unknown = await errorText { try await backend.activate("nope") }
        #expect(
            unknown.contains(#"could not activate the scenario "nope": URLStubs: unknown scenario "nope". Known scenarios: "sold-out"."#),
            "\(unknown)")
    }

    @Test func timingAndErrorsCrossAsDescribed() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        try await backend.stub(.get("/slow"), response: RemoteResponse(data: Data("abc".utf8)).requestTime(0.3))
        try await backend.stub(.get("/down"), response: RemoteResponse(error: URLError(.timedOut)))
        try await backend.stub(
            .get("/flaky"), response: RemoteResponse(string: "ok").networkProfile(NetworkProfile(failureRate: 1, failures: [.serverError], seed: 3)))
        let start = Date()
        #expect(await fetch("https://app.test/slow", from: registry).body == "abc")
        #expect(Date().timeIntervalSince(start) >= 0.25)
        #expect(await fetch("https://app.test/down", from: registry).urlError?.code == .timedOut)
        #expect(await fetch("https://app.test/flaky", from: registry).statusCode == 503)
    }

    @Test func heldRequestsAndLiveStreamsAreDrivenFromTheTest() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        let checkout = backend.makeGate(name: "checkout")
        try await backend.stub(.post("/checkout"), response: RemoteResponse(string: "paid").held(by: checkout))
        // Sent at once, not from an `async let`: the wait's 30 s count from now.
        let paid = SentRequest(request("https://app.test/checkout", method: "POST"), from: registry)
        let held = try await checkout.waitForRequest()
        #expect(held.description == "POST https://app.test/checkout", "a held request has no outcome yet")
        #expect(try await checkout.release(with: RemoteResponse(string: "changed", statusCode: 202)))
        #expect(await paid.result.statusCode == 202)
        #expect(try await !checkout.release(), "nothing is held now")

        let prices = backend.makeLiveStream(name: "prices")
        try await backend.stub(.get("/prices"), response: .stream(prices, headers: ["Content-Type": "text/event-stream"]))
        let streamed = SentRequest("https://app.test/prices", from: registry, using: .delegate)
        try await prices.waitForConnection()
        try await prices.send(event: ServerSentEvent(event: "price", data: "12"))
        try await prices.sendJSONLine(["teapot": 13])
        try await prices.finish()
        let result = await streamed.result
        #expect(result.response?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/event-stream") == true)
        #expect(result.body == "event: price\ndata: 12\n\n{\"teapot\":13}\n")
        let late = await errorText { try await prices.send("late") }
        #expect(late.contains("could not write to the live stream"), "\(late)")
    }

    @Test func waitForRequestsReportsWhatArrived() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        try await backend.stub(.any, response: RemoteResponse(statusCode: 204))
        async let waited = backend.waitForRequests(matching: .get("/analytics"), count: 2, timeout: 20)
        // Sent at once: awaited one by one, the last would leave only after two resumptions of
        // this task, each waiting for the cooperative pool (tens of seconds while the suite runs).
        let sent = ["analytics", "other", "analytics"].map { SentRequest("https://app.test/\($0)", from: registry) }
        #expect(try await waited.map(\.url) == ["https://app.test/analytics", "https://app.test/analytics"])
        for request in sent { #expect(await request.result.statusCode == 204) }
        let timeout = await errorText { try await backend.waitForRequests(matching: .get("/never"), timeout: 0.3) }
        #expect(timeout.contains("could not wait for 1 request(s) where method is GET and path is \"/never\""), "\(timeout)")
        #expect(timeout.contains("expected path \"/never\", got \"/analytics\""), "the near-miss report: \(timeout)")
    }

    @Test func theLinkKeepsWorkingWhenTheAppDropsIt() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        let environment = backend.launchEnvironment
        try await onItsOwnThread { _ = try TestRunnerLink.connectIfLaunchedByTest(into: registry, environment: environment) }
        try await Task.sleep(nanoseconds: 200_000_000)
        try await backend.stub(.get("/later"), response: RemoteResponse(string: "still linked"))
        #expect(await fetch("https://app.test/later", from: registry).body == "still linked")
    }

    @Test func aRelaunchedAppGetsWhatWasDeclaredSoFar() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let first = try #require(try await connectApp(backend.launchEnvironment, registry: StubRegistry()))
        let removed = try await backend.stub(.get("/gone"), response: RemoteResponse(string: "gone"))
        try await backend.stub(.get("/kept"), response: RemoteResponse(string: "kept"))
        try await backend.remove(removed)
        try await backend.activate("sold-out")
        try await onItsOwnThread { first.disconnect() }  // it waits for the link's thread
        while backend.isAppConnected { try await Task.sleep(nanoseconds: 20_000_000) }
        try await backend.stub(.get("/while-away"), response: RemoteResponse(string: "queued"))

        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        try await backend.waitForApp()
        #expect(await fetch("https://app.test/kept", from: registry).body == "kept")
        #expect(await fetch("https://app.test/while-away", from: registry).body == "queued")
        #expect(await fetch("https://app.test/api/cart", from: registry).statusCode == 409)
        #expect(await fetch("https://app.test/gone", from: registry).statusCode == nil, "removed before the relaunch")
    }

    /// The benchmark's figure through `AppBackend` itself, with a bound a shared machine keeps
    /// under a sanitizer (about 0.5 ms in a plain debug build, 50 ms under AddressSanitizer).
    @Test func aStubReachesTheAppsNextRequestInMilliseconds() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        var delays: [Double] = []
        for index in 0..<40 {
            // The app asks on a thread of its own until the new stub answers, stamped where the
            // answer arrives: timed around this task's `await`s, the figure would be the
            // cooperative pool's backlog (tens of seconds while the suite runs), not the link's.
            let answered = StartedOnItsOwnThread { Self.firstAnswer("\(index)", from: "https://app.test/item", session: session) }
            let start = Date()  // the command leaves in this slice, before the call suspends
            try await backend.stub(.get("/item"), response: RemoteResponse(string: "\(index)"))
            let arrival = try #require(try await answered.value, "the app never got \(index)")
            delays.append(arrival.timeIntervalSince(start) * 1000)
            #expect(await fetch("https://app.test/item", from: registry).body == "\(index)", "the call returned once the app had it")
        }
        let median = delays.sorted()[delays.count / 2]
        #expect(median < 500, "median \(median) ms over \(delays.map { Int($0) })")
    }

    /// When the first request to `url` answered `body`, asking again at once after each other
    /// answer; `nil` after 60 s without it.
    private static func firstAnswer(_ body: String, from url: String, session: URLSession) -> Date? {
        let giveUp = Date().addingTimeInterval(60)
        while Date() < giveUp {
            let answered = DispatchSemaphore(value: 0)
            let arrival = Locked<Date?>(nil)
            session.dataTask(with: request(url)) { data, _, error in
                if error == nil, data.map({ String(decoding: $0, as: UTF8.self) }) == body { arrival.withLock { $0 = Date() } }
                answered.signal()
            }.resume()
            answered.wait()
            if let date = arrival.withLock({ $0 }) { return date }
        }
        return nil
    }

    // MARK: Mistakes, found at the call

    @Test func stubsThatCannotBeSentFailAtTheCall() async throws {
        let backend = try AppBackend(connectTimeout: 0.2)
        defer { backend.close() }
        let text = await errorText {
            try await backend.stub(RemoteMatcher(path: "users", jsonBody: Date()), response: RemoteResponse(json: NSObject(), statusCode: 42))
        }
        #expect(text.contains("this matcher or response cannot be sent to the app"))
        #expect(text.contains("matcher: jsonBody is not JSON"))
        #expect(text.contains(#"matcher: path "users" must start with "/""#))
        #expect(text.contains("response: the JSON body is not JSON"))
        #expect(text.contains("response: status 42 is not an HTTP status (100...599)"))
        let wait = await errorText { try await backend.waitForRequests(matching: RemoteMatcher(jsonBody: Date()), timeout: 0.2) }
        #expect(wait.contains("this matcher or response cannot be sent to the app: matcher: jsonBody is not JSON"), "\(wait)")
        let release = await errorText { try await backend.makeGate(name: "g").release(with: RemoteResponse(json: NSObject())) }
        #expect(release.contains("the JSON body is not JSON"), "\(release)")
    }

    @Test func matchersAndResponsesEncodeAsTheyCrossTheLink() throws {
        let matcher = RemoteMatcher(method: "POST", path: "/orders/:id", headers: ["Authorization": nil], jsonBody: ["sku": "tea"])
        let json = try JSONEncoder().encode(matcher)
        #expect(try DeclarationForms.pattern(from: JSONDecoder().decode(JSONValue.self, from: json), source: "the test") == matcher.pattern)
        #expect(try JSONDecoder().decode(RemoteMatcher.self, from: json) == matcher)
        let response = RemoteResponse(json: ["id": 7], statusCode: 201).requestTime(0.5)
        #expect(try JSONDecoder().decode(RemoteResponse.self, from: JSONEncoder().encode(response)) == response)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(RemoteMatcher(jsonBody: Date())) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(RemoteResponse(json: NSObject())) }
    }

    @Test func aMissingFixtureIsReportedWithTheClosestNames() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        try await backend.stub(.get("/early"), response: RemoteResponse(fixture: "user.json"))
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        let early = await errorText { try await backend.waitForApp() }
        #expect(early.contains("could not apply what the test declared before it connected: addStub:"), "\(early)")
        #expect(early.contains("users.json"), "the closest name: \(early)")
        let live = await errorText { try await backend.stub(.get("/late"), response: RemoteResponse(fixture: "users.jsn")) }
        #expect(live.contains("could not add the stub method is GET and path is \"/late\""), "\(live)")
        #expect(live.contains("users.json"))
    }

    // MARK: Failures of either side

    @Test func theAppsRequestsFailWhenTheTestSideGoesAway() async throws {
        let backend = try AppBackend()
        let registry = StubRegistry()
        let link = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        let gate = backend.makeGate(name: "held")
        try await backend.stub(.get("/held"), response: RemoteResponse(string: "never").held(by: gate))
        let held = SentRequest("https://app.test/held", from: registry)
        try await gate.waitForRequest()
        backend.close()
        let heldResult = await held.result
        #expect(heldResult.error.map { "\($0)" }?.contains("the test runner disconnected") == true, "\(String(describing: heldResult.error))")
        let next = await fetch("https://app.test/anything", from: registry)
        #expect(next.urlError?.code == .cannotConnectToHost)
        #expect(next.error?.localizedDescription.contains("URLStubs: the test runner disconnected") == true, "\(String(describing: next.error))")
        #expect(!link.isConnected)
    }

    @Test func theTestsCallsFailFastWhenTheAppGoesAway() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let link = try #require(try await connectApp(backend.launchEnvironment, registry: StubRegistry()))
        try await backend.waitForApp()
        // Timed on a thread of its own, from the app's leaving to the backend's noticing it:
        // this task resumes from an `await` only when the cooperative pool gets to it, which
        // can be tens of seconds late while the suite runs.
        let noticed = try await onItsOwnThread { () -> TimeInterval in
            link.disconnect()  // it waits for the link's thread
            let start = Date()
            while backend.isAppConnected, Date().timeIntervalSince(start) < 10 { Thread.sleep(forTimeInterval: 0.001) }
            return Date().timeIntervalSince(start)
        }
        #expect(noticed < 5, "the backend noticed after \(noticed) s")
        // Once noticed, a call fails at once: it says the app disconnected, not that it did not
        // answer within its 10 s or never connected within the connect timeout.
        let text = await errorText { _ = try await backend.journal() }
        #expect(text.contains("the app disconnected from this AppBackend"), "\(text)")
        let stub = await errorText { try await backend.stub(.any, response: RemoteResponse(statusCode: 200)) }
        #expect(stub.isEmpty, "declarations wait for a relaunched app")
    }

    @Test func anAppThatNeverConnectsFailsTheCallNamingTheEnvironment() async throws {
        let backend = try AppBackend(connectTimeout: 0.3)
        defer { backend.close() }
        let start = Date()
        let text = await errorText { _ = try await backend.journal() }
        #expect(text.contains("no app connected to this AppBackend within 0.30 s"), "\(text)")
        #expect(text.contains("\(TestRunnerLink.addressVariable)=127.0.0.1:"))
        #expect(text.contains("backend.launchEnvironment merged into XCUIApplication.launchEnvironment"))
        // The message says the 0.3 s wait was the one that ended it; this only rules out a hang
        // (an instrumented run on a loaded 2-core machine took 7 s to get there, and full runs
        // beside a sanitizer run at load averages of 15-20 took 25-45 s).
        #expect(Date().timeIntervalSince(start) < 90)
    }

    @Test func aWrongTokenIsRefusedOnBothSides() async throws {
        let backend = try AppBackend(connectTimeout: 1)
        defer { backend.close() }
        var environment = backend.launchEnvironment
        environment[TestRunnerLink.tokenVariable] = "stale"
        let registry = StubRegistry()
        let app = await errorText { _ = try await connectApp(environment, registry: registry) }
        #expect(app.contains("the test runner refused this app: wrong token (\(TestRunnerLink.tokenVariable))"), "\(app)")
        let request = await fetch("https://app.test/", from: registry)
        #expect(request.error?.localizedDescription.contains("wrong token") == true, "nothing escapes unstubbed")
        let test = await errorText { _ = try await backend.journal() }
        #expect(test.contains("refused a connection at"), "\(test)")
        #expect(test.contains("wrong token"))
    }

    @Test func aSecondAppIsRefused() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let first = try await connectApp(backend.launchEnvironment, registry: StubRegistry())
        let second = await errorText { _ = try await connectApp(backend.launchEnvironment, registry: StubRegistry()) }
        #expect(second.contains("is already connected to this AppBackend. One AppBackend drives one app"), "\(second)")
        #expect(first?.isConnected == true)
    }

    @Test func aProtocolVersionMismatchIsRefusedOnBothSides() async throws {
        // An app speaking another version, to a real AppBackend.
        let backend = try AppBackend(connectTimeout: 1)
        defer { backend.close() }
        let port = try #require(UInt16(backend.launchEnvironment[TestRunnerLink.addressVariable]?.split(separator: ":").last ?? ""))
        let token = backend.launchEnvironment[TestRunnerLink.tokenVariable] ?? ""
        let refusal = try await onItsOwnThread {
            let app = RawLinkPeer(try LoopbackSocket.connect(port: port))
            try app.send(json: #"{"type":"hello","protocolVersion":99,"token":"\#(token)"}"#)
            return try app.receive()
        }
        #expect(refusal["type"] == "refused")
        #expect(refusal["message"]?.contains("protocol version mismatch: the app speaks version 99") == true, "\(refusal)")
        let test = await errorText { _ = try await backend.journal() }
        #expect(test.contains("protocol version mismatch"), "\(test)")

        // A test runner speaking another version, to the app.
        let runner = try FakeTestRunner()
        let registry = StubRegistry()
        let app = startApp(runner.environment, registry: registry)
        let hello = try await onItsOwnThread {
            let peer = try runner.accept()
            let hello = try peer.receive()
            try peer.send(json: #"{"type":"welcome","protocolVersion":99,"setupCount":0}"#)
            return hello
        }
        #expect(hello["protocolVersion"] == "\(WireMessage.protocolVersion)")
        #expect(hello["token"] == "fake-token")
        let text = await errorText { _ = try await app.value }
        #expect(
            text.contains("this app speaks version \(WireMessage.protocolVersion) of the test-runner link, the test runner version 99"),
            "\(text)")
        #expect(await fetch("https://app.test/", from: registry).error?.localizedDescription.contains("protocol version mismatch") == true)
    }

    @Test func malformedAndUnknownCommandsAreAnsweredNamingTheField() async throws {
        let runner = try FakeTestRunner()
        let registry = StubRegistry()
        let link = startApp(runner.environment, registry: registry)
        let replies = try await onItsOwnThread { () -> [String] in
            let peer = try runner.accept()
            _ = try peer.receive()
            try peer.send(json: #"{"type":"welcome","protocolVersion":\#(WireMessage.protocolVersion),"setupCount":1}"#)
            try peer.send(json: #"{"type":"setOffline"}"#)
            let ready = try peer.receive()
            var replies = [ready["message"] ?? ""]
            let commands = [
                #"{"type":"explode","id":1}"#,
                #"{"type":"addStub","id":2}"#,
                #"{"type":"addStub","id":3,"stubID":"s","declaration":{"request":{"method":5},"response":{"status":200}}}"#,
                #"{"type":"addStub","id":4,"stubID":"s","declaration":{"request":{},"response":{"status":200,"body":{"video":"x"}}}}"#,
                #"{"type":"welcome","id":5}"#,
                #"not json"#,
                #"{"type":"journal","id":6}"#,
            ]
            for command in commands {
                try peer.send(json: command)
                let reply = try peer.receive()
                replies.append("\(reply["type"] ?? "") \(reply["id"] ?? "-") \(reply["message"] ?? "")")
            }
            return replies
        }
        _ = try await link.value
        #expect(replies[0] == #"setOffline: a "setOffline" message needs the field "offline""#)
        #expect(replies[1].hasPrefix(#"failed 1 unknown message type "explode" in the field "type" (known: hello, welcome"#), "\(replies[1])")
        #expect(replies[2] == #"failed 2 a "addStub" message needs the field "declaration""#)
        #expect(replies[3] == #"failed 3 URLStubs: the stub "s", at $.request.method: expected a string, found the number 5"#)
        #expect(
            replies[4].hasPrefix(
                #"failed 4 URLStubs: the stub "s", at $.response.body.video: unknown member "video"; expected one of "text", "base64", "json", "file""#
            ),
            "\(replies[4])")
        #expect(replies[5] == #"failed 5 "welcome" is not a command the app runs (in the field "type")"#)
        #expect(replies[6].hasPrefix("failed - malformed message: not a JSON object"), "\(replies[6])")
        #expect(replies[7] == "done 6 ")
    }

    @Test func aMalformedHelloIsRefused() async throws {
        let backend = try AppBackend(connectTimeout: 1)
        defer { backend.close() }
        let port = try #require(UInt16(backend.launchEnvironment[TestRunnerLink.addressVariable]?.split(separator: ":").last ?? ""))
        let refusal = try await onItsOwnThread {
            let app = RawLinkPeer(try LoopbackSocket.connect(port: port))
            try app.send(json: #"{"type":"hello","protocolVersion":"one"}"#)
            return try app.receive()
        }
        #expect(refusal["message"] == #"malformed hello: malformed message: field "protocolVersion" must be a number"#)

        // Something else than an app: a browser or a port scanner.
        let http = try await onItsOwnThread {
            let client = try LoopbackSocket.connect(port: port)
            try client.write(Data("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            return try RawLinkPeer(client).receive()
        }
        #expect(http["message"]?.contains("announced 1195725856 bytes, more than the 1024 bytes a hello may have") == true, "\(http)")
        let text = await errorText { _ = try await backend.journal() }
        #expect(text.contains("does not speak the URLStubs test-runner protocol"), "\(text)")
    }

    /// The app's side names its timeout apart from the test's: no case of the link's error is
    /// `noAnswer`, the name 0.1's `AppBackendError` gave the test's side, so a 0.1
    /// `catch AppBackendError.noAnswer(let command, let timeout)` stops compiling instead of
    /// matching only the app's side and never the test's.
    @Test func theAppsTimeoutIsNotNamedAsTheTestsWas() async throws {
        let silent = try FakeTestRunner()
        let silence = startApp(silent.environment, registry: StubRegistry(), timeout: 0.5)
        let peer = try await onItsOwnThread { try silent.accept() }
        do {
            _ = try await silence.value
            Issue.record("expected the app's side to time out")
        } catch let error as TestRunnerLinkError {
            #expect(Mirror(reflecting: error).children.first?.label == "testRunnerDidNotAnswer", "\(error)")
        }
        _ = peer
    }

    @Test func launchFailuresNameWhatToCheck() async throws {
        // Accepts, then says nothing.
        let silent = try FakeTestRunner()
        let registry = StubRegistry()
        let silence = startApp(silent.environment, registry: registry, timeout: 0.5)
        let peer = try await onItsOwnThread { try silent.accept() }
        let text = await errorText { _ = try await silence.value }
        #expect(text.contains("the test runner at 127.0.0.1:\(silent.port) sent no stubs within 0.50 s"), "\(text)")
        #expect(text.contains("Check that \(TestRunnerLink.addressVariable) names this test's AppBackend"))
        #expect(await fetch("https://app.test/", from: registry).error?.localizedDescription.contains("sent no stubs") == true)
        _ = peer

        // Nobody listens.
        let closed = try AppBackend()
        let environment = closed.launchEnvironment
        closed.close()
        try await Task.sleep(nanoseconds: 400_000_000)
        let refused = await errorText { _ = try await connectApp(environment, registry: StubRegistry()) }
        #expect(refused.contains("could not connect to the test runner at \(environment[TestRunnerLink.addressVariable] ?? "")"), "\(refused)")

        let remote = await errorText { _ = try await connectApp([TestRunnerLink.addressVariable: "10.0.0.2:80"], registry: StubRegistry()) }
        #expect(
            remote.contains(
                "\(TestRunnerLink.addressVariable) is \"10.0.0.2:80\": expected 127.0.0.1:<port> (the link listens on loopback only)"))
        let noToken = await errorText { _ = try await connectApp([TestRunnerLink.addressVariable: "127.0.0.1:80"], registry: StubRegistry()) }
        #expect(noToken.contains("\(TestRunnerLink.addressVariable) is set but \(TestRunnerLink.tokenVariable) is missing"))
    }
}
