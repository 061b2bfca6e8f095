import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// `.sse` fixture files, replayed with their timing through the engine alone: this file imports
/// no streaming module, so the fixture reader needs none. Time bounds are loose lower bounds.
@Suite("Event-stream fixtures")
struct EventStreamFileTests {
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
            if FetchAPI.streamingAPIs.contains(api) {
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
