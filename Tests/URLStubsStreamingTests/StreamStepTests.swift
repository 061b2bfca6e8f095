import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import URLStubsStreaming
@testable import TestSupport

/// Streams written on a schedule: events with intervals, scripts with pauses and failures.
/// Time bounds are loose lower bounds.
@Suite("Scripted streams")
struct StreamStepTests {
    @Test(arguments: FetchAPI.allCases)
    func eventsArriveAtTheirIntervals(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let events = (1...3).map { ServerSentEvent(event: "tick", data: "\($0)") }
        registry.stub(isPath("/ticks")) { _ in
            .stream(
                script: [.event(events[0]), .wait(0.25), .event(events[1]), .wait(0.25), .event(events[2])],
                headers: ["Content-Type": "text/event-stream"])
        }
        let start = Date()
        let result = await fetch("https://api.test/ticks", from: registry, using: api)
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.error == nil)
        #expect(result.body == "event: tick\ndata: 1\n\nevent: tick\ndata: 2\n\nevent: tick\ndata: 3\n\n")
        #expect(elapsed >= 0.5, "two intervals of 0.25 s, took \(elapsed) s")
        if FetchAPI.streamingAPIs.contains(api) {
            #expect(result.chunks.count == 3, "one write per event")
        }
    }

    @Test func aDelegateSeesEachEventAtItsMoment() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in
            .stream(
                script: [.event(ServerSentEvent(data: "now")), .wait(2), .event(ServerSentEvent(data: "later"))],
                headers: ["Content-Type": "text/event-stream"])
        }
        let client = EventSourceClient()
        let started = Date()
        let connection = StreamConnection(request("https://api.test/script"), registry: registry, api: .delegate, delegate: client)
        defer { connection.close() }
        try await waitUntil(timeout: patientWait) { client.isComplete }
        #expect(client.events.map(\.data) == ["now", "later"])
        #expect(client.error == nil)
        // When the client received each event, whatever this task was doing meanwhile: the
        // first before the pause ends, the second after it. Both are measured from `started`:
        // the pause runs from the head, sent after the request starts, so "later" cannot come
        // sooner than 2 s after it; the gap between the two arrivals is no bound, since a loaded
        // machine may deliver the first event late and shorten it.
        let arrivals = client.arrivals
        #expect(arrivals.count == 2)
        if arrivals.count == 2 {
            #expect(arrivals[0].timeIntervalSince(started) < 1.5, "the first event came before the pause ended")
            #expect(arrivals[1].timeIntervalSince(started) >= 2, "the second event came after its pause")
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func aScriptCanFailMidStream(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in
            .stream(script: [.text("a"), .wait(0.1), .text("b"), .fail(URLError(.networkConnectionLost)), .text("never")])
        }
        let result = await fetch("https://api.test/drop", from: registry, using: api)
        #expect(result.urlError?.code == .networkConnectionLost)
        if FetchAPI.streamingAPIs.contains(api) {
            #expect(result.chunks == [Data("a".utf8), Data("b".utf8)])
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func aScriptIsPacedLikeOtherBodies(api: FetchAPI) async {
        let registry = StubRegistry()
        let steps = (0..<5).map { StreamStep.data(patternData(1_000, seed: UInt8($0))) }
        registry.stub(isPath("/spread")) { _ in .stream(script: steps).requestTime(0, responseTime: 0.5) }
        registry.stub(isPath("/speed")) { _ in .stream(script: steps).downloadSpeed(.kilobytesPerSecond(10)) }
        registry.stub(isPath("/late")) { _ in .stream(script: steps).requestTime(0.3, responseTime: 0) }
        for (path, least) in [("/spread", 0.45), ("/speed", 0.45), ("/late", 0.3)] {
            let start = Date()
            let result = await fetch("https://api.test\(path)", from: registry, using: api)
            let elapsed = Date().timeIntervalSince(start)
            #expect(result.data?.count == 5_000, "\(path)")
            #expect(elapsed >= least, "\(path) took \(elapsed) s")
        }
    }

    @Test func anInvalidEventInAScriptFailsTheRequestClearly() async {
        let registry = StubRegistry()
        registry.stub(.any, name: "bad script") { _ in
            .stream(script: [.event(ServerSentEvent(event: "a\nb", data: "x"))], headers: ["Content-Type": "text/event-stream"])
        }
        let result = await fetch("https://api.test/bad", from: registry, using: .delegate)
        guard case .library(StreamFailure.invalidStreamStep(let stub, let reason))? = result.stubError else {
            Issue.record("expected invalidStreamStep, got \(String(describing: result.error))")
            return
        }
        #expect(stub.contains("\"bad script\""))
        #expect(reason.contains("line break"))
        #expect(result.response == nil)
    }
}
