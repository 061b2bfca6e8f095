import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsStreaming
@testable import TestSupport

/// URLStubsStreaming as an app's code sees it (plain imports, no SPI): a live stream and a
/// script reach every way of reading a response through the engine's seam. (`.sse` fixtures,
/// which the engine reads by itself, are tested with the engine alone: `EventStreamFileTests`.)
@Suite("Streams through the engine")
struct StreamingThroughTheEngineTests {
    @Test(arguments: [FetchAPI.completionHandler, .asyncData, .delegate])
    func aLiveStreamAndAScriptReachEveryWayOfReading(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let live = LiveStream(name: "live")
        registry.stub(isPath("/live")) { _ in .stream(live, headers: ["Content-Type": "text/event-stream"]) }
        registry.stub(isPath("/script")) { _ in
            .stream(script: [.event(ServerSentEvent(data: "1")), .wait(0.1), .text("data: 2\n\n")], headers: ["Content-Type": "text/event-stream"])
        }
        let outcome = Outcome()
        let task = Task { outcome.set(await fetch(request("https://api.test/live"), from: registry, using: api)) }
        try await live.waitForConnection(timeout: patientWait)
        try live.send(event: ServerSentEvent(event: "price", data: "12"))
        try live.sendJSONLine(["n": 1])
        try live.finish()
        await task.value
        let streamed = try #require(outcome.result)
        #expect(streamed.error == nil)
        #expect(streamed.body == "event: price\ndata: 12\n\n{\"n\":1}\n")
        #expect(streamed.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")

        let scripted = await fetch("https://api.test/script", from: registry, using: api)
        #expect(scripted.error == nil)
        #expect(scripted.body == "data: 1\n\ndata: 2\n\n")
        if api == .delegate {
            #expect(streamed.chunks.count == 2 && scripted.chunks.count == 2, "a delegate gets each write")
        }
    }

    @Test func anInvalidEventNamesItselfAsSwiftSpellsIt() {
        let stream = LiveStream()
        #expect(
            throws: StubError.library(
                StreamFailure.invalidEvent(#"ServerSentEvent(event: "a\nb", data: "x")"#, reason: #"the event name "a\nb" holds a line break"#))
        ) {
            try stream.send(event: ServerSentEvent(event: "a\nb", data: "x"))
        }
        #expect(
            throws: StubError.library(
                StreamFailure.invalidEvent("ServerSentEvent(id: \"1\\0\", retry: 5)", reason: "the id \"1\\0\" holds a NUL, which clients ignore"))
        ) {
            try stream.send(event: ServerSentEvent(id: "1\0", retry: 5))
        }
    }
}
