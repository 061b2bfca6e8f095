import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// One test's slow code must not freeze another test's networking: user code and body reads
/// run off the loading context every session shares, and timeouts cover them.
@Suite("Nothing a test does stalls the process")
struct NothingStallsTests {
    // Time bounds here are only safety nets: the shared corelibs queue may be busy with other
    // tests for seconds. What is asserted is the order: everything completes while the
    // closure or the stream is still blocked, which the test releases only at its end.

    @Test(arguments: FetchAPI.allCases)
    func blockingResponseClosureTimesOutWhileOtherRegistriesGoOn(api: FetchAPI) async throws {
        let slow = StubRegistry()
        let stall = StallControl()
        defer { stall.unblock() }
        slow.stub(isPath("/blocking")) { _ in
            stall.markBlocked()
            stall.wait()  // a test's slow fixture generator, blocked until the test ends
            return StubResponse(data: Data("late".utf8))
        }
        let other = StubRegistry()
        other.stub(.any) { _ in StubResponse(data: Data("quick".utf8)) }

        async let blocked = fetch(request("https://api.test/blocking"), from: slow, using: api) { $0.timeoutIntervalForRequest = 0.5 }
        // Patient: `async let` starts the request only when the cooperative pool gets to it, which
        // can be tens of seconds behind while the suite runs.
        try await waitUntil(timeout: patientWait) { stall.isBlocked }
        for _ in 0..<5 {
            #expect(await fetch("https://other.test/", from: other, using: api).body == "quick")
        }
        let timedOut = await blocked
        #expect(timedOut.urlError?.code == .timedOut, "\(String(describing: timedOut.error))")
        #expect(stall.isStillBlocked, "all of this happened while the closure was blocked")
    }

    /// Four matchers block until another registry's request has completed. Were matchers run on
    /// corelibs' shared queue (a registry that fails unmatched requests claims in `canInit`
    /// without matching), that request could not complete while they block.
    @Test func blockedMatchersHoldOnlyTheirOwnRequests() async throws {
        let stall = StallControl()
        defer { stall.unblock() }
        let entered = EventLog()
        let slow = StubRegistry()
        slow.stub(
            RequestMatcher("blocks until the test releases it") { _ in
                entered.append("matching")
                stall.wait()
                return true
            }
        ) { _ in StubResponse(data: Data("slow".utf8)) }
        let other = StubRegistry()
        other.stub(.any) { _ in StubResponse(data: Data("quick".utf8)) }

        async let slowBodies = withTaskGroup(of: String?.self) { group in
            for _ in 0..<4 { group.addTask { await fetch("https://slow.test/", from: slow).body } }
            var bodies: [String?] = []
            for await body in group { bodies.append(body) }
            return bodies
        }
        try await waitUntil(timeout: 120) { entered.events.count >= 4 }
        #expect(entered.events.count == 4, "the four matchers block at once, each on its own request's queue")
        #expect(await fetch("https://other.test/", from: other).body == "quick")
        #expect(stall.isStillBlocked, "the other registry's request completed while the matchers blocked")
        stall.unblock()
        #expect(await slowBodies == Array(repeating: "slow", count: 4))
    }

    @Test(arguments: FetchAPI.allCases)
    func stalledBodyStreamTimesOutAndItsCancelDelaysNoOne(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let stall = StallControl()
        defer { stall.unblock() }
        registry.stub(isPath("/stall")) { _ in
            StubResponse(streamLength: 100_000) { StallingInputStream(prefix: Data(repeating: 7, count: 1_000), control: stall) }
        }
        let result = await fetch(request("https://api.test/stall"), from: registry, using: api) { $0.timeoutIntervalForRequest = 0.5 }
        #expect(result.urlError?.code == .timedOut, "\(String(describing: result.error))")
        // The stream is still blocked in read(); a request on another session right after the
        // timeout (whose cancel must not wait for that read) is answered.
        let other = StubRegistry()
        other.stub(.any) { _ in StubResponse(data: Data("ok".utf8)) }
        #expect(await fetch("https://other.test/", from: other, using: api).body == "ok")
        #expect(stall.isStillBlocked)
    }

    @Test func cancellingAStalledStreamReturnsAtOnce() async throws {
        let registry = StubRegistry()
        let stall = StallControl()
        defer { stall.unblock() }
        registry.stub(.any) { _ in
            StubResponse(streamLength: 10_000) { StallingInputStream(prefix: Data(repeating: 1, count: 500), control: stall) }
        }
        let recorder = DelegateRecorder()
        let session = registry.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: cancellableRequest("https://api.test/stall"))
        async let result = recorder.run(task)
        // Patient: `async let` resumes the task only when the cooperative pool gets to it, which
        // can be tens of seconds behind while the suite runs.
        try await waitUntil(timeout: patientWait) { stall.isBlocked }
        task.cancel()
        let other = StubRegistry()
        other.stub(.any) { _ in StubResponse(data: Data("ok".utf8)) }
        #expect(await fetch("https://other.test/", from: other).body == "ok", "cancel() must not wait for the blocked read")
        #expect(await result.urlError?.code == .cancelled)
        #expect(stall.isStillBlocked)
    }

    @Test(arguments: FetchAPI.allCases)
    func shrinkingFileFailsWithBothNumbers(api: FetchAPI) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shrink-\(UUID().uuidString).bin")
        try patternData(2_000_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let registry = StubRegistry()
        registry.stub(.any, name: "shrinking file") { _ in
            // The file is measured (its Content-Length) before it shrinks.
            let response = StubResponse(bodyFileAt: file).requestTime(0.05, responseTime: 0)
            return response
        }
        registry.onActivation { _, _, _ in
            // Shrink it between the head's measurement and the body's reading.
            if let handle = try? FileHandle(forWritingTo: file) { try? handle.truncate(atOffset: 450_000); try? handle.close() }
        }
        // A tiny delay lets the head measure 2,000,000 bytes first on every path.
        let result = await fetch("https://api.test/file", from: registry, using: api)
        if case .bodyLengthMismatch(let stub, let declared, let delivered)? = result.stubError {
            #expect(stub.contains("shrinking file"))
            #expect(declared == 2_000_000)
            #expect(delivered == 450_000)
        } else {
            // The file shrank before it was measured: then it is served whole, at its new size.
            #expect(result.data?.count == 450_000, "\(String(describing: result.error))")
        }
    }

    @Test(arguments: FetchAPI.allCases, ["0", "5", "4000000000"])
    func contentLengthThatContradictsTheBodyFails(api: FetchAPI, declared: String) async {
        let registry = StubRegistry()
        registry.stub(.any, name: "lying length") { _ in StubResponse(data: Data("ten bytes!".utf8), headers: ["Content-Length": declared]) }
        let result = await fetch("https://api.test/", from: registry, using: api)
        guard case .bodyLengthMismatch(let stub, let announced, let delivered)? = result.stubError else {
            Issue.record("expected bodyLengthMismatch, got \(String(describing: result.error)) with \(result.data?.count ?? -1) bytes")
            return
        }
        #expect(stub.contains("lying length"))
        #expect(announced == Int(declared))
        #expect(delivered == (Int(declared)! < 10 ? Int(declared)! + 1 : 10))
    }

    @Test(arguments: ["-5", "ten", "1.5"])
    func contentLengthThatIsNotANumberFails(value: String) async {
        let registry = StubRegistry()
        registry.stub(.any, name: "bad length") { _ in StubResponse(data: Data("x".utf8), headers: ["Content-Length": value]) }
        let result = await fetch("https://api.test/", from: registry)
        #expect(
            result.stubError
                == .invalidContentLength(
                    value: value,
                    stub: result.stubError.flatMap { error -> String? in
                        if case .invalidContentLength(_, let stub) = error { return stub }
                        return nil
                    } ?? ""))
        #expect(result.stubError?.description.contains("bad length") == true)
    }

    @Test func truncatedStaysTheWayToSendAShortBody() async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(data: patternData(1_000)).truncated(afterBytes: 100) }
        let result = await fetch("https://api.test/", from: registry)
        #expect(result.error == nil)
        #expect(result.data?.count == 100)
    }

    @Test func verifyRemembersAnUnexpectedRequestPastTheJournalRing() async {
        let registry = StubRegistry(unmatchedRequests: .fail)
        registry.stub(isPath("/ok")) { _ in StubResponse(data: Data()) }
        _ = await fetch("https://api.test/surprise", from: registry)
        // 10,000 matched requests push the unexpected one out of the 10,000-entry journal.
        // They take the registry's own path for a loaded request (`answer`, the closure it
        // hands back, then the exchange's end, which journal it) without a session: 10,000
        // real requests would hold corelibs' shared queue for seconds, delaying every other
        // test of the process.
        for index in 0..<10_000 {
            var answer = registry.answer(StubRequest(request("https://api.test/ok?n=\(index)")))
            if case .needsUserCode(let respond) = answer { answer = respond() }
            guard case .exchange(let exchange) = answer else { continue }
            exchange.end(.finished)
            registry.exchange(exchange, reached: .ended, on: RunsAtOnce(), then: nil)
        }
        #expect(!registry.journal.contains { $0.isUnmatched }, "the ring no longer holds it")
        let report = registry.verify()
        #expect(report.problems.map(\.summary) == ["unexpected request: GET https://api.test/surprise (no stub matched)"])
    }

    @Test func journalKeepsBodiesUpToItsLimitAndSaysWhenCut() async {
        let registry = StubRegistry()
        registry.journalBodyLimit = 1_000
        let seen = EventLog()
        registry.stub(.any) { request in
            seen.append("\(request.body?.count ?? 0)")
            return StubResponse(data: Data())
        }
        _ = await fetch(request("https://api.test/upload", method: "POST", body: patternData(50_000)), from: registry)
        _ = await fetch(request("https://api.test/small", method: "POST", body: Data("small".utf8)), from: registry)
        #expect(seen.events == ["50000", "5"], "the stub saw every byte")
        let entries = registry.journal
        #expect(entries.map(\.request.body?.count) == [1_000, 5])
        #expect(entries.map(\.cutBodySize) == [50_000, nil])
        #expect(entries.map { $0.cutBodySize != nil } == [true, false])
        #expect(entries[0].request.body == patternData(50_000).prefix(1_000))
    }
}

/// Where a test unblocks a ``StallingInputStream``, and sees that it blocked.
final class StallControl: @unchecked Sendable {
    // @unchecked: `blocked` is read and written under `lock`.
    private let gate = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var blocked = false

    var isBlocked: Bool { lock.lock(); defer { lock.unlock() }; return blocked }

    func markBlocked() { lock.lock(); blocked = true; lock.unlock() }

    private var released = false

    /// `true` while the test has not unblocked it yet (and the safety limit has not passed).
    var isStillBlocked: Bool { lock.lock(); defer { lock.unlock() }; return !released }

    /// Blocks until ``unblock()``, or 300 s at most (a safety net: a test must never hang; sanitizers make everything slow).
    func wait() {
        if gate.wait(timeout: .now() + 300) == .success { gate.signal() }
        lock.lock(); released = true; lock.unlock()
    }

    func unblock() {
        lock.lock(); released = true; lock.unlock()
        gate.signal()
    }
}

/// An input stream that yields `prefix`, then blocks in `read` until its control unblocks it
/// (a network stream that stalled).
final class StallingInputStream: InputStream {
    private let prefix: Data
    private let control: StallControl
    private var offset = 0
    private var status: Stream.Status = .notOpen

    init(prefix: Data, control: StallControl) {
        self.prefix = prefix
        self.control = control
        super.init(data: Data())
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var hasBytesAvailable: Bool { true }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        if offset < prefix.count {
            let count = min(length, prefix.count - offset)
            prefix.copyBytes(to: buffer, from: offset..<(offset + count))
            offset += count
            return count
        }
        control.markBlocked()
        control.wait()
        return 0
    }
}

/// A matcher runs where the loading system asks (`canInit`, synchronously) and where the
/// registry resolves a request: this measures what a slow one costs others, for the DocC article "Reliability".
/// It asserts no order (a suite running the 10,000-request stress test beside it can delay any
/// request by seconds); `blockedMatchersHoldOnlyTheirOwnRequests` asserts the behaviour.
@Suite("Slow matchers")
struct SlowMatcherTests {
    // A `.passthrough` registry also runs its matchers in `canInit`, to decide whether to claim
    // a request, and corelibs calls `canInit` on its shared queue: there a slow matcher delays
    // everyone (the DocC article "Reliability" gives the figures, measured with URLSTUBS_MEASURE_PASSTHROUGH=1).
    static let policies: [UnmatchedRequestPolicy] =
        ProcessInfo.processInfo.environment["URLSTUBS_MEASURE_PASSTHROUGH"] == nil ? [.fail] : [.passthrough]

    @Test(arguments: policies)
    func slowMatcherFigures(policy: UnmatchedRequestPolicy) async throws {
        let slow = StubRegistry(unmatchedRequests: policy)
        slow.stub(
            RequestMatcher("takes a second") { _ in
                Thread.sleep(forTimeInterval: 1); return true
            }
        ) { _ in
            StubResponse(data: Data("slow".utf8))
        }
        let other = StubRegistry()
        other.stub(.any) { _ in StubResponse(data: Data("quick".utf8)) }
        let started = Date()
        let slowTimes = EventLog()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let result = await fetch("https://slow.test/", from: slow)
                    slowTimes.append(String(format: "%.2f", Date().timeIntervalSince(started)))
                    #expect(result.body == "slow")
                }
            }
            try? await Task.sleep(nanoseconds: 100_000_000)
            let begin = Date()
            #expect(await fetch("https://other.test/", from: other).body == "quick")
            let otherTime = Date().timeIntervalSince(begin)
            print("slow matcher figures (\(policy)): unrelated registry \(String(format: "%.3f", otherTime)) s while 4 slow requests ran")
        }
        print("slow matcher figures (\(policy)): 4 concurrent requests finished at \(slowTimes.events) s")
    }
}

/// A scheduler that runs work at once, for driving the registry's side of an exchange without
/// a loading system.
private struct RunsAtOnce: DeliveryScheduler {
    func async(_ work: @escaping @Sendable () -> Void) { work() }
    func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) { work() }
}
