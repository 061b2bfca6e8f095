import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import URLStubsStreaming
@testable import TestSupport

/// A declaration's `.stream(name)` body, played from the live stream the test gets by that name.
@Suite("Named live streams")
struct NamedLiveStreamTests {
    @Test(arguments: FetchAPI.allCases)
    func aDeclaredStreamBodyIsWrittenThroughTheRegistrysLiveStream(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let text = """
            {"request": {"path": "/prices"},
             "response": {"headers": {"Content-Type": "text/event-stream"}, "body": {"stream": "prices"}}}
            """
        try registry.stub(StubDeclaration.read(from: Data(text.utf8), source: "prices.json"))
        let prices = registry.liveStream(named: "prices")
        #expect(registry.liveStream(named: "prices") === prices)
        async let result = fetch(URLRequest(url: URL(string: "https://api.test/prices")!), from: registry, using: api)
        _ = try await prices.waitForConnection(timeout: 30)
        try prices.send(event: ServerSentEvent(event: "price", data: "12"))
        try prices.finish()
        let fetched = await result
        #expect(fetched.body == "event: price\ndata: 12\n\n")
        #expect(fetched.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
    }
}
