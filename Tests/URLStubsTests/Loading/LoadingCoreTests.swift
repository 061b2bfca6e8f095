import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
import LoopbackTestServer
@testable import TestSupport

/// The loading core against what once took the whole process down, and the two regressions
/// that slipped between its parts. Every outcome is seen through a real `URLSession` (and the
/// model of Apple's loading client); after each, another registry's request must still be
/// answered: the process is alive and no session is wedged.
@Suite("Loading core: nothing takes the process down")
struct LoadingCoreTests {
    /// A registry whose request proves the process still loads (a closure, so it needs a
    /// thread of the user-code pool too).
    private static func stillAnswering(using api: FetchAPI = .completionHandler) async -> Bool {
        let other = StubRegistry()
        other.stub(.any) { _ in StubResponse(string: "alive") }
        return await fetch("https://other.test/", from: other, using: api).body == "alive"
    }

    #if os(macOS) || os(Linux)
    /// The timeout cancels the real request: on corelibs that `cancel()` must not run on the
    /// loading context (a `sync` onto the queue it runs on: SIGILL, or every session wedged).
    @Test(arguments: FetchAPI.allCases)
    func passthroughThatTimesOutFailsOnlyItsOwnRequest(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in .passthrough() }
        let url = TestServer.shared.url("/slow?ms=1500")
        let result = await fetch(URLRequest(url: url), from: registry, using: api) { $0.timeoutIntervalForRequest = 0.5 }
        #expect(result.urlError?.code == .timedOut, "\(String(describing: result.error))")
        #expect(await Self.stillAnswering(using: api))
    }

    @Test func passthroughTransformSlowerThanTheTimeoutTimesOut() async throws {
        let stall = StallControl()
        defer { stall.unblock() }
        let registry = StubRegistry()
        registry.stub(.any) { _ in
            .passthrough(
                ResponseTransform("waits for the test") { response, body in
                    stall.markBlocked()
                    stall.wait()
                    return (response, body)
                })
        }
        // The transform never returns, so any timeout ends it; 3 s leaves the real request (to
        // the loopback server) time to come back on a loaded machine, so the timeout falls while
        // the transform runs, which is the case under test.
        let result = await fetch(URLRequest(url: TestServer.shared.url("/json")), from: registry) { $0.timeoutIntervalForRequest = 3 }
        #expect(result.urlError?.code == .timedOut, "\(String(describing: result.error))")
        #expect(stall.isBlocked, "the transform ran, and was still running when the request timed out")
        #expect(await Self.stillAnswering())
        #expect(stall.isStillBlocked)
    }

    @Test func recordingWithAShortTimeoutTimesOut() async throws {
        let registry = StubRegistry()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-timeout-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try registry.record(to: file, mode: .all, environment: [:])
        let result = await fetch(URLRequest(url: TestServer.shared.url("/slow?ms=1500")), from: registry) {
            $0.timeoutIntervalForRequest = 0.5
        }
        #expect(result.urlError?.code == .timedOut, "\(String(describing: result.error))")
        #expect(await Self.stillAnswering())
    }

    /// `stopLoading` cancels the real request: the same trap as the timeout's, reached from
    /// `cancel()`. The server answers after 600 s, so the cancel lands in flight however slowly
    /// a loaded machine runs the test: under the thread sanitizer, with the whole suite in
    /// parallel, the process-wide loading queue was seen to take 7-17 s to reach this request's
    /// steps, and a cancel that reached it after a 20 s answer found a finished request. (Not through `async` `data(for:)`: cancelling it deadlocks corelibs 6.3.1
    /// whatever the protocol does, corelibs issue 5412.)
    @Test(arguments: [FetchAPI.completionHandler, .delegate])
    func cancellingAnInFlightPassthroughLeavesEverySessionWorking(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in .passthrough() }
        let session: URLSession
        let outcome = ResultBox()
        let task: URLSessionDataTask
        // The server answers, and the request times out, only after 600 s: the test's task can
        // wait over a minute for a cooperative thread under a sanitizer while the suite runs,
        // and the cancel must still find the request in flight.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 600
        let slow = TestServer.shared.url("/slow?ms=600000")
        switch api {
        case .delegate:
            let recorder = OutcomeDelegate(outcome)
            session = registry.makeSession(configuration: configuration, delegate: recorder)
            task = session.dataTask(with: slow)
        default:
            session = registry.makeSession(configuration: configuration)
            task = session.dataTask(with: slow) { _, _, error in outcome.set(error) }
        }
        defer { session.finishTasksAndInvalidate() }
        task.resume()
        try await waitUntil(timeout: patientWait) { registry.journal.count == 1 }
        try await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        try await waitUntil(timeout: 90) { outcome.isSet }
        #expect((outcome.error as? URLError)?.code == .cancelled, "\(String(describing: outcome.error))")
        try await waitUntil { registry.journal.first?.isInFlight == false }
        #expect(
            registry.journal.first?.errorDescription == "URLError(\(URLError.Code.cancelled.rawValue))",
            "the exchange ended cancelled: \(registry.journal.first.map { "\($0)" } ?? "no entry")")
        #expect(await Self.stillAnswering(using: api))
    }

    #if !URLSTUBS_APPLE_LOADING
    @Test func cancellingAnInFlightPassthroughOnTheApplePathCompletesCancelled() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in .passthrough() }
        let recorder = DelegateRecorder()
        let model = appleModel(for: registry, delegate: recorder)
        // 600 s, as above: the cancel must find the request in flight however late it comes.
        let task = model.dataTask(with: URLRequest(url: TestServer.shared.url("/slow?ms=600000"), timeoutInterval: 600))
        async let result = recorder.run { task.resume() }
        try await waitUntil(timeout: patientWait) { registry.journal.count == 1 }
        try await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        #expect(await result.urlError?.code == .cancelled)
        expectNoViolations(of: model)
        #expect(await Self.stillAnswering(using: .appleModel))
    }
    #endif
    #endif

    /// Far more blocked closures than dispatch has threads: each request still times out on
    /// time, and another registry's closure is still answered at once, while they block.
    @Test func aThousandBlockedClosuresEachTimeOutWhileAnotherRegistryAnswers() async throws {
        let stall = StallControl()
        defer { stall.unblock() }
        let registry = StubRegistry()
        let entered = Counter()
        registry.stub(.any) { _ in
            entered.increment()
            stall.markBlocked()
            stall.wait()
            return StubResponse(string: "late")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 1
        let session = registry.makeSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let outcomes = OutcomeCounter()
        let start = Date()
        for index in 0..<1_000 {
            session.dataTask(with: URL(string: "https://blocked.test/\(index)")!) { _, _, error in
                outcomes.record(error as? URLError, after: Date().timeIntervalSince(start))
            }.resume()
        }
        try await waitUntil(timeout: 60) { stall.isBlocked }
        let other = StubRegistry()
        other.stub(.any) { _ in StubResponse(string: "alive") }
        let clock = FinishClock(other)
        let quick = Date()
        #expect(await fetch("https://other.test/", from: other).body == "alive", "another registry's closure found a thread")
        // A safety net against a stall, not a speed figure: the closure is answered at all while
        // 1,000 block (the line above). Read where the exchange ended, not after this task
        // resumed: the cooperative pool can be tens of seconds behind while the suite runs.
        let answered = try #require(clock.secondsToFirstEnd(since: quick))
        #expect(answered < 30, "and without a stall (the machine may be loaded)")
        try await waitUntil(timeout: 120) { outcomes.count == 1_000 }
        #expect(outcomes.count == 1_000)
        #expect(outcomes.timedOut == 1_000, "every request timed out: \(outcomes.summary)")
        #expect(outcomes.latest < 60, "each on time, none waiting for a thread to time out (\(outcomes.summary))")
        #expect(entered.value <= 16, "a registry holds at most its lane's threads, however many closures block")
        #expect(UserCodeRunner.shared.threadCount <= UserCodeRunner.shared.maximumThreads)
        #expect(stall.isStillBlocked)
    }

    /// A paced body withheld for a consumer that gets it whole: the parts it would have
    /// received count as progress, so the gap between them (50 ms), not the whole body (15 s),
    /// is what the timeout bounds. The timeout (6 s) is far above that gap for a loaded machine,
    /// whose shared loading queue a parallel stress test can hold for over a second (under the
    /// thread sanitizer, with its group beside it, a gap once passed 2.5 s), and still well
    /// under the 15 s the whole body takes, which is what the regression was.
    @Test(arguments: FetchAPI.allCases)
    func pacedBodyWithAShortTimeoutArrivesWhole(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let body = patternData(150_000)
        registry.stub(.any) { _ in StubResponse(data: body).requestTime(0.1, responseTime: 15) }
        let result = await fetch(request("https://api.test/paced"), from: registry, using: api) { $0.timeoutIntervalForRequest = 6 }
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.data == body)
    }

    /// A `Content-Length` larger than the body fails, whatever the consumer and whichever way
    /// the stub was written.
    @Test(arguments: FetchAPI.allCases)
    func contentLengthLongerThanTheBodyFails(api: FetchAPI) async throws {
        let closure = StubRegistry()
        closure.stub(.any, name: "closure") { _ in StubResponse(data: Data("ten bytes!".utf8), headers: ["Content-Length": "1000"]) }
        let oneLiner = StubRegistry()
        oneLiner.stub(.get, "https://api.test/short", name: "one-liner", headers: ["Content-Length": "1000"], data: Data("ten bytes!".utf8))
        for (registry, name) in [(closure, "closure"), (oneLiner, "one-liner")] {
            let result = await fetch(request("https://api.test/short"), from: registry, using: api)
            guard case .bodyLengthMismatch(let stub, let declared, let delivered)? = result.stubError else {
                Issue.record("\(name): expected bodyLengthMismatch, got \(String(describing: result.error)), \(result.data?.count ?? -1) bytes")
                continue
            }
            #expect(stub.contains(name))
            #expect(declared == 1000)
            #expect(delivered == 10)
        }
    }

    /// Matchers, the journal and recordings see the request as a server would: with the
    /// configuration's `httpAdditionalHeaders`, the request's own headers winning.
    @Test(arguments: FetchAPI.allCases)
    func matchersSeeTheConfigurationsAdditionalHeaders(api: FetchAPI) async throws {
        for policy in [UnmatchedRequestPolicy.fail, .passthrough] {
            let registry = StubRegistry(unmatchedRequests: policy)
            registry.stub(hasHeaderNamed("X-App-Version", value: "7") && hasHeaderNamed("Accept", value: "text/own")) { _ in
                StubResponse(string: "seen")
            }
            let result = await fetch(request("https://api.test/headers", headers: ["Accept": "text/own"]), from: registry, using: api) {
                $0.httpAdditionalHeaders = ["X-App-Version": "7", "Accept": "text/configuration"]
            }
            #expect(result.body == "seen", "\(policy): \(String(describing: result.error))")
            let seen = registry.journal.first?.request
            #expect(seen?.value(forHTTPHeaderField: "X-App-Version") == "7")
            #expect(seen?.value(forHTTPHeaderField: "Accept") == "text/own")
        }
    }

    /// Constant answers are played on the loading context, in the step that starts them; a
    /// closure's answer takes the user-code lane. Both deliver the same bytes to every consumer.
    @Test(arguments: FetchAPI.allCases)
    func constantAndClosureAnswersDeliverTheSameResponse(api: FetchAPI) async throws {
        let body = patternData(300_000)
        let constant = StubRegistry()
        constant.stub(.get, "https://api.test/item", headers: ["X-Kind": "item"], data: body)
        let closure = StubRegistry()
        closure.stub(isPath("/item")) { _ in StubResponse(data: body, headers: ["X-Kind": "item"]) }
        for registry in [constant, closure] {
            let result = await fetch(request("https://api.test/item"), from: registry, using: api)
            #expect(result.data == body)
            #expect(result.response?.value(forHTTPHeaderField: "X-Kind") == "item")
            #expect(result.response?.expectedContentLength == Int64(body.count))
        }
    }
}

/// Counts what happened to many requests, from any thread.
private final class OutcomeCounter: @unchecked Sendable {
    // @unchecked: every field is read and written under `lock`.
    private let lock = NSLock()
    private var total = 0
    private var timeouts = 0
    private var others: [String] = []
    private var slowest: TimeInterval = 0

    func record(_ error: URLError?, after seconds: TimeInterval) {
        lock.lock(); defer { lock.unlock() }
        total += 1
        if error?.code == .timedOut { timeouts += 1 } else { others.append(String(describing: error)) }
        slowest = max(slowest, seconds)
    }

    var count: Int { lock.lock(); defer { lock.unlock() }; return total }
    var timedOut: Int { lock.lock(); defer { lock.unlock() }; return timeouts }
    var latest: TimeInterval { lock.lock(); defer { lock.unlock() }; return slowest }
    var summary: String {
        lock.lock(); defer { lock.unlock() }
        return "\(total) done, \(timeouts) timed out, last after \(slowest) s, others: \(others.prefix(3))"
    }
}

private final class Counter: @unchecked Sendable {
    // @unchecked: `count` is read and written under `lock`.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

private final class OutcomeDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let outcome: ResultBox
    init(_ outcome: ResultBox) { self.outcome = outcome }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        outcome.set(error)
    }
}
