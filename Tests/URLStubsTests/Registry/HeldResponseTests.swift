import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// Held responses: the test decides when the server answers. Nothing here blocks a thread, so
/// held requests never stall other sessions.
@Suite("Held responses")
struct HeldResponseTests {
    @Test(arguments: FetchAPI.allCases)
    func aHeldRequestWaitsForItsRelease(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let log = EventLog()
        let gate = ResponseGate()
        registry.stub(isPath("/feed"), name: "feed") { _ in StubResponse(string: "fresh") }.held(by: gate)
        registry.onActivation { _, _, _ in log.append("activation") }
        let outcome = Outcome()
        let task = Task { outcome.set(await fetch("https://api.test/feed", from: registry, using: api)) }
        let held = try await gate.waitForRequest(timeout: patientWait)
        #expect(held.url?.path == "/feed")
        // Matched, hooked and journaled, but not answered: the app is still loading.
        try await waitUntil(timeout: patientWait) { !log.events.isEmpty }
        #expect(log.events == ["activation"])
        #expect(registry.journal.count == 1)
        #expect(gate.heldRequests.count == 1)
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(outcome.result == nil, "nothing is sent before the release")
        #expect(gate.release())
        await task.value
        #expect(outcome.result?.body == "fresh")
        #expect(outcome.result?.statusCode == 200)
        #expect(gate.heldRequests.isEmpty)
        #expect(!gate.release(), "nothing left to release")
    }

    @Test(arguments: FetchAPI.allCases)
    func releaseWithAnotherResponseOrAnError(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let gate = ResponseGate()
        registry.stub(isPath("/order")) { _ in StubResponse(statusCode: 201) }.held(by: gate)
        let replaced = Outcome(), failed = Outcome()
        let first = Task { replaced.set(await fetch("https://api.test/order", from: registry, using: api)) }
        try await gate.waitForRequest(timeout: patientWait)
        #expect(gate.release(with: StubResponse(string: "sold out", statusCode: 409)))
        await first.value
        #expect(replaced.result?.statusCode == 409)
        #expect(replaced.result?.body == "sold out")

        let second = Task { failed.set(await fetch("https://api.test/order", from: registry, using: api)) }
        try await gate.waitForRequest(timeout: patientWait)
        #expect(gate.fail(URLError(.networkConnectionLost)))
        await second.value
        #expect(failed.result?.urlError?.code == .networkConnectionLost)
        #expect(failed.result?.response == nil)
        // The journal says what was sent, not what the stub first built.
        #expect(registry.journal.map(\.statusCode) == [409, nil])
        #expect(registry.journal.last?.errorDescription == "URLError(\(URLError.Code.networkConnectionLost.rawValue))")
    }

    @Test func heldRequestsQueueUpAndAreReleasedOldestFirst() async throws {
        let registry = StubRegistry()
        let gate = ResponseGate()
        registry.stub(isPath("/items")) { request in
            StubResponse(string: request.url?.query ?? "")
        }.held(by: gate)
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let outcomes = (0..<4).map { _ in Outcome() }
        var tasks: [Task<Void, Never>] = []
        for index in 0..<4 {
            let outcome = outcomes[index]
            tasks.append(
                Task {
                    outcome.set(await fetchWithCompletionHandler(request("https://api.test/items?n=\(index)"), session: session))
                })
            // One at a time, so the arrival order is known.
            #expect(try await gate.waitForRequest(timeout: patientWait).url?.query == "n=\(index)")
        }
        #expect(gate.heldRequests.map(\.url?.query) == ["n=0", "n=1", "n=2", "n=3"])
        #expect(gate.release())
        await tasks[0].value
        #expect(outcomes[0].result?.body == "n=0")
        #expect(outcomes[1].result == nil && outcomes[2].result == nil, "one release, one response")
        #expect(gate.releaseAll() == 3)
        for task in tasks { await task.value }
        #expect(outcomes.map { $0.result?.body } == ["n=0", "n=1", "n=2", "n=3"])
        #expect(gate.requests.count == 4)
        #expect(gate.releaseAll() == 0)
    }

    @Test(arguments: FetchAPI.allCases)
    func aHeldRequestStillTimesOut(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let gate = ResponseGate()
        registry.stub(isPath("/slow"), name: "slow") { _ in StubResponse(string: "late") }.held(by: gate)
        var slow = request("https://api.test/slow")
        slow.timeoutInterval = 0.3
        let result = await fetch(slow, from: registry, using: api)
        #expect(result.urlError?.code == .timedOut)
        let message = result.error.map { ($0 as NSError).localizedDescription } ?? ""
        #expect(message.contains("while held by the gate of \"slow\""), "\(message)")
        #expect(gate.requests.count == 1, "it did arrive")
        #expect(gate.heldRequests.isEmpty)
        #expect(!gate.release(), "a timed-out request is no longer held")
    }

    @Test func aCancelledHeldRequestGetsNoCallbackAfterStopLoading() async throws {
        let registry = StubRegistry()
        let log = EventLog()
        let gate = ResponseGate()
        registry.stub(.any) { _ in StubResponse(string: "never") }.held(by: gate)
        registry.afterFinish { _, _, _, error in log.append("finish \((error as? URLError)?.code == .cancelled)") }
        let recorder = DelegateRecorder()
        let session = registry.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: cancellableRequest("https://api.test/cancel"))
        async let outcome = recorder.run(task)
        try await gate.waitForRequest(timeout: patientWait)
        task.cancel()
        let result = await outcome
        #expect(result.urlError?.code == .cancelled)
        #expect(result.response == nil)
        try await waitUntil(timeout: patientWait) { gate.heldRequests.isEmpty }
        #expect(!gate.release(), "a cancelled request is no longer held")
        try await waitUntil(timeout: patientWait) { !log.events.isEmpty }
        #expect(log.events == ["finish true"])
    }

    #if !URLSTUBS_APPLE_LOADING
    @Test func appleModelCancelAndReleaseKeepTheContract() async throws {
        let registry = StubRegistry()
        let gate = ResponseGate()
        registry.stub(.any) { _ in StubResponse(string: "held") }.held(by: gate)
        let recorder = DelegateRecorder()
        let model = appleModel(for: registry, delegate: recorder)
        let task = model.dataTask(with: cancellableRequest("https://api.test/cancel"))
        async let outcome = recorder.run { task.resume() }
        try await gate.waitForRequest(timeout: patientWait)
        task.cancel()
        #expect(await outcome.urlError?.code == .cancelled)
        try await waitUntil(timeout: patientWait) { gate.heldRequests.isEmpty }
        #expect(!gate.release())
        // A second request is released normally, on the loading thread.
        let released = Outcome()
        let second = Task { released.set(await fetchThroughAppleModel(request("https://api.test/ok"), from: registry)) }
        try await gate.waitForRequest(timeout: patientWait)
        #expect(gate.release())
        await second.value
        #expect(released.result?.body == "held")
        try await Task.sleep(nanoseconds: 100_000_000)
        expectNoViolations(of: model)
    }
    #endif

    @Test func heldRequestsStallNothingElse() async throws {
        let registry = StubRegistry()
        let gate = ResponseGate()
        registry.stub(isPath("/held")) { _ in StubResponse(string: "held") }.held(by: gate)
        registry.stub(isPath("/free")) { _ in StubResponse(string: "free") }
        let held = (0..<40).map { _ in Outcome() }
        var heldTasks: [Task<Void, Never>] = []
        for outcome in held {
            heldTasks.append(Task { outcome.set(await fetch("https://api.test/held", from: registry, using: .completionHandler)) })
        }
        for _ in held { try await gate.waitForRequest(timeout: patientWait) }
        // Forty held requests, and the process's other sessions go on as usual.
        let other = StubRegistry()
        other.stub(.any) { _ in StubResponse(string: "elsewhere") }
        for api in FetchAPI.allCases {
            #expect(await fetch("https://api.test/free", from: registry, using: api).body == "free")
            #expect(await fetch("https://other.test/", from: other, using: api).body == "elsewhere")
        }
        #expect(held.allSatisfy { $0.result == nil })
        #expect(gate.releaseAll() == 40)
        for task in heldTasks { await task.value }
        #expect(held.allSatisfy { $0.result?.body == "held" })
    }

    @Test func aResponseCanBeHeldOnItsOwn() async throws {
        let registry = StubRegistry()
        let gate = ResponseGate(name: "second page")
        registry.stub(isPath("/pages"), responses: [StubResponse(string: "1"), StubResponse(string: "2").held(by: gate)])
        #expect(await fetch("https://api.test/pages", from: registry).body == "1")
        let outcome = Outcome()
        let task = Task { outcome.set(await fetch("https://api.test/pages", from: registry)) }
        let held = try await gate.waitForRequest(timeout: patientWait)
        #expect(held.url?.path == "/pages")
        #expect(gate.description.hasPrefix("gate \"second page\" (URLStubsTests/HeldResponseTests.swift:"))
        gate.release()
        await task.value
        #expect(outcome.result?.body == "2")
    }

    @Test func requestTimeCountsFromTheRelease() async throws {
        let registry = StubRegistry()
        let gate = ResponseGate()
        registry.stub(.any) { _ in StubResponse(string: "slow").requestTime(0.3, responseTime: 0) }.held(by: gate)
        let outcome = Outcome()
        let task = Task { outcome.set(await fetch("https://api.test/slow", from: registry)) }
        try await gate.waitForRequest(timeout: patientWait)
        try await Task.sleep(nanoseconds: 400_000_000)
        let released = Date()
        gate.release()
        await task.value
        #expect(outcome.result?.body == "slow")
        #expect(Date().timeIntervalSince(released) >= 0.3)
    }

    @Test func aNamedGateHoldingAStubKeepsItsNameAndExplainsByTheStub() async throws {
        let registry = StubRegistry()
        let gate = ResponseGate(name: "feed gate")
        registry.stub(isPath("/feed"), name: "feed") { _ in StubResponse(string: "x") }.held(by: gate)
        _ = await fetch("https://api.test/feeds", from: registry)
        #expect(gate.description.hasPrefix("gate \"feed gate\" (URLStubsTests/HeldResponseTests.swift:"))
        // A wait that gives up is a VerificationReport (what the test expected of the traffic).
        let error = await #expect(throws: VerificationReport.self) { try await gate.waitForRequest(timeout: 0.2) }
        #expect(error?.timedOutWait?.awaited.contains("a new request held by the gate \"feed gate\"") == true)
        #expect(error?.timedOutWait?.others.map(\.request.description) == ["GET https://api.test/feeds"])
        #expect(error?.description.contains("expected path \"/feed\", got \"/feeds\"") == true, "\(String(describing: error))")
    }

    @Test func waitingForARequestThatNeverComesExplainsWhy() async throws {
        let registry = StubRegistry()
        let gate = ResponseGate()
        registry.stub(isPath("/feed"), name: "feed") { _ in StubResponse(string: "x") }.held(by: gate)
        _ = await fetch("https://api.test/feeds", from: registry)
        do {
            try await gate.waitForRequest(timeout: 0.2)
            Issue.record("expected a timeout")
        } catch let error as VerificationReport {
            #expect(error.timedOutWait?.awaited.contains("a new request held by the gate of \"feed\"") == true)
            #expect(error.timedOutWait?.others.map(\.request.description) == ["GET https://api.test/feeds"])
            #expect(error.description.contains("expected path \"/feed\", got \"/feeds\""), "\(error)")
        }
        // Cancelling the waiting task ends the wait.
        let waiting = Task { try await gate.waitForRequest(timeout: 600) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
