import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// Streams written on a schedule: events with intervals, scripts with pauses and failures, and
/// `.sse` fixture files replayed with their timing. Time bounds are loose lower bounds.
@Suite("Scripted streams")
struct ScriptedStreamTests {
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
        if LiveStreamTests.streamingAPIs.contains(api) {
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
        if LiveStreamTests.streamingAPIs.contains(api) {
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
        guard case .invalidStreamStep(let stub, let reason)? = result.stubError else {
            Issue.record("expected invalidStreamStep, got \(String(describing: result.error))")
            return
        }
        #expect(stub.contains("\"bad script\""))
        #expect(reason.contains("line break"))
        #expect(result.response == nil)
    }

    // MARK: .sse fixtures

    private func fixture(_ text: String, name: String = "feed.sse") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-sse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test(arguments: FetchAPI.allCases)
    func anSSEFileIsReplayedWithItsTiming(api: FetchAPI) async throws {
        let url = try fixture(
            """
            : recorded from the price service
            event: price\r
            data: {"teapot":12}\r
            \r
            : delay 300ms
            event: price
            data: {"teapot":13}

            : delay 0.2s
            data: bye


            """)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let registry = StubRegistry()
        registry.stub(isPath("/prices")) { _ in try StubResponse(fixture: url) }
        registry.stub(isPath("/fixture")) { _ in try StubResponse(fixture: url) }
        for path in ["/prices", "/fixture"] {
            let start = Date()
            let result = await fetch("https://api.test\(path)", from: registry, using: api)
            let elapsed = Date().timeIntervalSince(start)
            #expect(result.error == nil, "\(path)")
            #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream", "\(path)")
            #expect(
                result.body == """
                    : recorded from the price service
                    event: price\r
                    data: {"teapot":12}\r
                    \r
                    event: price
                    data: {"teapot":13}

                    data: bye


                    """, "\(path): byte for byte, without the delay lines")
            #expect(elapsed >= 0.5, "\(path): 300 ms + 200 ms of pauses, took \(elapsed) s")
            if LiveStreamTests.streamingAPIs.contains(api) {
                #expect(result.chunks.count == 3, "\(path): one write per event")
            }
        }
    }

    @Test func anSSEClientReadsAFixture() async throws {
        let url = try fixture("id: 1\ndata: one\n\n: delay 50ms\nid: 2\nevent: done\ndata: two\ndata: lines\n\n")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let registry = StubRegistry()
        registry.stub(.any) { _ in try StubResponse(fixture: url) }
        let client = EventSourceClient()
        let connection = StreamConnection(request("https://api.test/feed"), registry: registry, api: .delegate, delegate: client)
        defer { connection.close() }
        try await waitUntil(timeout: patientWait) { client.isComplete }
        #expect(
            client.events == [
                .init(type: "message", data: "one", lastEventID: "1"),
                .init(type: "done", data: "two\nlines", lastEventID: "2"),
            ])
    }

    @Test func anUnreadableDelayNamesTheFileAndLine() async throws {
        let url = try fixture("data: a\n\n: delay soon\ndata: b\n\n")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(
            throws: FixtureError.malformed(
                url.path, line: 3, expected: #"a pause such as ": delay 0.5s" or ": delay 250ms""#, found: #"": delay soon""#)
        ) {
            try StubResponse(fixture: url)
        }
        #expect(throws: FixtureError.self) {
            try StubResponse(fixture: URL(fileURLWithPath: "/nonexistent/feed.sse"))
        }
        // "delayed" is a comment like any other.
        let plain = try fixture(": delayed by the server\ndata: x\n\n", name: "plain.sse")
        defer { try? FileManager.default.removeItem(at: plain.deletingLastPathComponent()) }
        let registry = StubRegistry()
        registry.stub(.any) { _ in try StubResponse(fixture: plain) }
        #expect(await fetch("https://api.test/plain", from: registry).body == ": delayed by the server\ndata: x\n\n")
    }

    @Test func delayLines() {
        #expect(EventStreamFile.delay(in: ": delay 1.5s") == .pause(1.5))
        #expect(EventStreamFile.delay(in: ":delay 250ms") == .pause(0.25))
        #expect(EventStreamFile.delay(in: ": delay 2") == .pause(2))
        #expect(EventStreamFile.delay(in: "data: delay 2") == .notADelay)
        #expect(EventStreamFile.delay(in: ": delayed") == .notADelay)
        if case .unreadable = EventStreamFile.delay(in: ": delay -1s") {} else { Issue.record("a negative pause is unreadable") }
    }
}
