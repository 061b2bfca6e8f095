import Foundation
import URLStubs
import URLStubsScenarios
import URLStubsTestRunnerLink

/// The fake backend of an app a UI test launched, driven live from the test process: add and
/// remove stubs, switch the app's scenarios, take it offline, hold a request, feed a live
/// stream, read its journal and verify it, while the app runs. Stubs cross to the app as the
/// engine's `StubDeclaration`s, in their JSON form.
///
/// ```swift
/// let backend = try AppBackend()
/// try await backend.stub(.get("/api/cart"), response: RemoteResponse(fixture: "cart.json"))   // before launch
/// app.launchEnvironment.merge(backend.launchEnvironment) { $1 }
/// app.launch()                                   // the app's launch requests get cart.json
/// let checkout = backend.makeGate(name: "checkout")
/// try await backend.stub(.post("/api/orders"), response: RemoteResponse(json: ["id": 7]).held(by: checkout))
/// app.buttons["Pay"].tap()
/// try await checkout.waitForRequest()
/// XCTAssert(app.activityIndicators["Paying"].exists)
/// try await checkout.release()
/// ```
///
/// The app calls `TestRunnerLink.connectIfLaunchedByTest(into:scenarios:fixtures:timeout:environment:)`
/// at launch. The backend listens on 127.0.0.1 on a port the system picks, so parallel test
/// runners and simulator clones never clash, and lets in only an app that presents its random
/// token, one at a time.
///
/// Stubs, scenarios and the offline switch declared before the app connects are sent when it
/// connects, before its launch goes on; declared later, they reach the running app, and when the
/// call returns the app's next request sees them. Everything declared is sent again to an app
/// relaunched with the same launch environment. Calls that need the app (journal, waits,
/// gates, streams, verify) wait for it to connect (``connectTimeout``), and fail at once with
/// `TestRunnerLinkError.appDisconnected(reason:notes:)` once it has gone away.
public final class AppBackend: @unchecked Sendable {
    /// Merge into `XCUIApplication.launchEnvironment` before `launch()`:
    /// `URLSTUBS_TEST_RUNNER` (this backend's address) and `URLSTUBS_TEST_RUNNER_TOKEN`.
    public let launchEnvironment: [String: String]
    /// How long calls that need the app wait for it to connect, in seconds.
    public let connectTimeout: TimeInterval

    private let listener: BackendListener
    private let counter = Counter()

    /// Listens for the app.
    /// - Parameters:
    ///   - unmatchedRequests: What the app does with a request no stub matches; by default it
    ///     fails with the near-miss report (a UI test that reaches the real network is a bug).
    ///   - connectTimeout: How long calls that need the app wait for it to connect.
    /// - Throws: When no loopback port can be opened.
    public init(unmatchedRequests: UnmatchedRequestPolicy = .fail, connectTimeout: TimeInterval = 10) throws {
        listener = try BackendListener(unmatchedRequests: unmatchedRequests)
        self.connectTimeout = connectTimeout
        launchEnvironment = [
            TestRunnerLink.addressVariable: "127.0.0.1:\(listener.port)",
            TestRunnerLink.tokenVariable: listener.token,
        ]
    }

    deinit { listener.close() }

    /// `true` while an app is connected and has applied the declared stubs.
    public var isAppConnected: Bool { listener.isAppConnected }

    /// Waits until an app is connected and has applied the stubs declared so far: after
    /// relaunching the app, for example.
    /// - Throws: `TestRunnerLinkError.appNeverConnected(waited:environment:notes:)` naming the
    ///   launch environment to check.
    public func waitForApp(timeout: TimeInterval? = nil) async throws {
        try await listener.waitForApp(timeout: timeout ?? connectTimeout, evenAfterDisconnect: true)
    }

    /// Stops listening and disconnects the app: its requests fail from then on.
    public func close() { listener.close() }

    // MARK: Stubs

    /// Adds a stub to the app, above every stub it has (the most recent matching stub answers).
    ///
    /// ```swift
    /// try await backend.stub(.get("/api/cart"), name: "cart", response: RemoteResponse(json: ["items": []]))
    /// ```
    /// - Parameters:
    ///   - matcher: Which requests it answers.
    ///   - name: Shown in the app's reports.
    ///   - times: How many requests it answers before it stops matching (`nil`: no limit).
    ///   - response: What it answers.
    ///   - fileID: Where the stub is declared, for reports; leave the default.
    ///   - line: The line of the declaration; leave the default.
    /// - Returns: The stub, to remove it.
    /// - Throws: `TestRunnerLinkError.invalidStub(problems:)` for a matcher or response that cannot
    ///   be sent, or one past the link's 64 MiB message limit (a body of about 48 MB: serve a larger
    ///   one from a fixture); `TestRunnerLinkError.appFailed(command:message:)` when the app cannot
    ///   use it (a fixture it does not have, with the closest names, or one outside its folder).
    @discardableResult
    public func stub(
        _ matcher: RemoteMatcher, name: String? = nil, times: Int? = nil, response: RemoteResponse,
        fileID: String = #fileID, line: Int = #line
    ) async throws -> RemoteStub {
        let problems = matcher.problems.map { "matcher: \($0)" } + response.problems.map { "response: \($0)" }
        guard problems.isEmpty else { throw TestRunnerLinkError.invalidStub(problems: problems) }
        let declaration = StubDeclaration(
            name: name, request: matcher.pattern, response: response.definition, times: times,
            source: StubDeclaration.Source(file: fileID, line: line))
        return try await send(declaration, matcher: matcher)
    }

    /// Adds a declared stub to the app, above every stub it has: everything a declaration says
    /// (answers in turn, a scenario step, a priority, a gate or stream by name) crosses as its
    /// JSON form, and the app registers it as `registry.stub(_:)` does.
    ///
    /// ```swift
    /// try await backend.stub(StubDeclaration(
    ///     request: RequestPattern(method: "POST", path: .equalTo("/api/orders")),
    ///     response: ResponseDefinition(status: 201, body: .json(["id": 42])),
    ///     followingResponses: [ResponseDefinition(status: 409, body: .text("sold out"))]))
    /// ```
    /// - Returns: The stub, to remove it.
    /// - Throws: `TestRunnerLinkError.invalidStub(problems:)` for a declaration that cannot match
    ///   or be answered, or a `file` body (the app's files are not the test's: send a `fixture`);
    ///   `TestRunnerLinkError.appFailed(command:message:)` when the app cannot use it.
    @discardableResult
    public func stub(_ declaration: StubDeclaration) async throws -> RemoteStub {
        var problems: [String] = []
        do {
            try declaration.validate()
        } catch {
            problems.append("\(error)")
        }
        for (index, definition) in ([declaration.response] + declaration.followingResponses).enumerated() {
            problems += RemoteResponse(definition).problems.map { "response \(index + 1): \($0)" }
        }
        guard problems.isEmpty else { throw TestRunnerLinkError.invalidStub(problems: problems) }
        return try await send(declaration, matcher: RemoteMatcher(declaration.request))
    }

    private func send(_ declaration: StubDeclaration, matcher: RemoteMatcher) async throws -> RemoteStub {
        let stub = RemoteStub(id: "stub-\(counter.next())", name: declaration.name, matcher: matcher, backend: self)
        var command = WireMessage(.addStub)
        command.stubID = stub.id
        command.declaration = declaration.json
        let message = command
        _ = try await listener.run(
            command, doing: "add the stub \(stub)", declare: { $0.append((stub.id, message)) },
            undo: { $0.removeAll { $0.key == stub.id } }, connectTimeout: connectTimeout)
        return stub
    }

    /// Removes a stub from the app.
    /// - Returns: `false` when the app did not have it.
    @discardableResult
    public func remove(_ stub: RemoteStub) async throws -> Bool {
        var command = WireMessage(.removeStub)
        command.stubID = stub.id
        let reply = try await listener.run(
            command, doing: "remove the stub \(stub)", declare: { $0.removeAll { $0.key == stub.id } }, connectTimeout: connectTimeout)
        return reply.released ?? true
    }

    /// Sends ``RemoteStub/expect(_:)``, and keeps it with the stub's declaration for a
    /// relaunched app.
    func expect(_ count: ExpectedCount, of stub: RemoteStub) async throws {
        var command = WireMessage(.expectCount)
        command.stubID = stub.id
        command.expected = WireExpectedCount(count)
        _ = try await listener.run(
            command, doing: "expect the stub \(stub) to answer \(count)",
            declare: { declared in
                for index in declared.indices where declared[index].key == stub.id {
                    declared[index].message.expected = WireExpectedCount(count)
                }
            }, connectTimeout: connectTimeout)
    }

    /// Removes every stub the test added (the app's own stubs and scenarios stay), as
    /// `StubRegistry.removeAll()` does in process.
    public func removeAll() async throws {
        _ = try await listener.run(
            WireMessage(.removeAllStubs), doing: "remove the stubs", declare: { $0.removeAll { $0.key.hasPrefix("stub-") } },
            connectTimeout: connectTimeout)
    }

    // MARK: Scenarios and the network

    /// Activates the app's scenario `name` (one it passed to `connectIfLaunchedByTest`), above
    /// everything else, as `StubRegistry.activate(_:)` does in process.
    /// - Throws: `TestRunnerLinkError.appFailed(command:message:)` listing the app's scenarios
    ///   when it has no such one.
    public func activate(_ name: String) async throws {
        var command = WireMessage(.activateScenario)
        command.scenario = name
        let message = command
        let key = "scenario:\(name)"
        _ = try await listener.run(
            command, doing: "activate the scenario \"\(name)\"",
            declare: {
                $0.removeAll { $0.key == key }
                $0.append((key, message))
            }, undo: { $0.removeAll { $0.key == key } }, connectTimeout: connectTimeout)
    }

    /// Deactivates the app's scenario `name`, as `StubRegistry.deactivate(_:)` does in process.
    /// - Returns: `false` when it was not active.
    @discardableResult
    public func deactivate(_ name: String) async throws -> Bool {
        var command = WireMessage(.deactivateScenario)
        command.scenario = name
        let message = command
        let key = "scenario:\(name)"
        let reply = try await listener.run(
            command, doing: "deactivate the scenario \"\(name)\"",
            declare: {
                $0.removeAll { $0.key == key }
                $0.append((key, message))
            }, undo: { $0.removeAll { $0.key == key } }, connectTimeout: connectTimeout)
        return reply.released ?? true
    }

    /// Takes the app offline: every request fails with `URLError(.notConnectedToInternet)`
    /// until `setOffline(false)`, whatever stubs are added meanwhile.
    /// - Parameters:
    ///   - offline: On or off.
    ///   - fileID: Where the test calls it, for the app's journal and reports; leave the default.
    ///   - line: The line of the call; leave the default.
    public func setOffline(_ offline: Bool, fileID: String = #fileID, line: Int = #line) async throws {
        var command = WireMessage(.setOffline)
        command.offline = offline
        command.location = "\(fileID):\(line)"
        let message = command
        _ = try await listener.run(
            command, doing: offline ? "go offline" : "go back online",
            declare: {
                $0.removeAll { $0.key == "offline" }
                $0.append(("offline", message))
            }, connectTimeout: connectTimeout)
    }

    // MARK: Holding and streaming

    /// A gate to hold responses with (``RemoteResponse/held(by:)``): the app's request
    /// waits until the test releases it.
    /// - Parameters:
    ///   - name: Shown in the app's reports.
    ///   - fileID: Where the gate is made, for the app's reports; leave the default.
    ///   - line: The line where it is made; leave the default.
    public func makeGate(name: String, fileID: String = #fileID, line: Int = #line) -> RemoteGate {
        RemoteGate(id: "gate-\(counter.next()): \(name)", location: "\(fileID):\(line)", backend: self)
    }

    /// A live stream a stub answers with (``RemoteResponse/stream(_:statusCode:headers:)``),
    /// that the test writes while the app reads.
    /// - Parameters:
    ///   - name: Shown in the app's reports.
    ///   - fileID: Where the stream is made, for the app's reports; leave the default.
    ///   - line: The line where it is made; leave the default.
    public func makeLiveStream(name: String, fileID: String = #fileID, line: Int = #line) -> RemoteLiveStream {
        RemoteLiveStream(id: "stream-\(counter.next()): \(name)", location: "\(fileID):\(line)", backend: self)
    }

    // MARK: Reading the app

    /// Every request the app made, in order (its registry's journal).
    public func journal() async throws -> [AppJournalEntry] {
        try await command(WireMessage(.journal), doing: "read its journal").entries?.map(AppJournalEntry.init) ?? []
    }

    /// Waits until the app has made `count` requests that `matcher` accepts, counting those it
    /// already made, and returns them (`StubRegistry.waitForRequests(matching:count:timeout:)`).
    /// - Throws: `TestRunnerLinkError.appFailed(command:message:)` whose message is the app's
    ///   report of what arrived and why each request did not match;
    ///   `TestRunnerLinkError.invalidStub(problems:)` for a matcher that cannot be sent.
    @discardableResult
    public func waitForRequests(matching matcher: RemoteMatcher, count: Int = 1, timeout: TimeInterval = 30) async throws -> [AppJournalEntry] {
        let problems = matcher.problems
        guard problems.isEmpty else { throw TestRunnerLinkError.invalidStub(problems: problems.map { "matcher: \($0)" }) }
        var command = WireMessage(.waitForRequests)
        command.request = DeclarationForms.json(of: matcher.pattern)
        command.count = count
        command.timeout = timeout
        let reply = try await self.command(command, doing: "wait for \(count) request(s) where \(matcher)", waiting: timeout)
        return reply.entries?.map(AppJournalEntry.init) ?? []
    }

    /// The app's verification report: stubs used more or less often than expected, requests no
    /// stub matched, each with its near-miss report.
    ///
    /// ```swift
    /// let report = try await backend.verify()
    /// XCTAssertTrue(report.isSuccess, report.description)
    /// ```
    public func verify() async throws -> AppVerificationReport {
        guard let report = try await command(WireMessage(.verify), doing: "verify its requests").report else {
            throw TestRunnerLinkError.appFailed(command: "verify its requests", message: "its reply holds no report")
        }
        return AppVerificationReport(report)
    }

    /// Sends a command that needs the app, and returns its reply.
    func command(_ command: WireMessage, doing task: String, waiting: TimeInterval = 0) async throws -> WireMessage {
        try await listener.run(command, doing: task, connectTimeout: connectTimeout, replyTimeout: waiting + 10)
    }

    /// The listener, for the tests of the protocol.
    var link: BackendListener { listener }
}
