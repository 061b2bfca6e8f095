import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsMigration
import URLStubsStreaming
@testable import TestSupport

/// The spellings 0.2 retired for one spelling per idea (the ways to build a `StubResponse`
/// beyond its ten, `held()` on a stub) still compile with URLStubsMigration and answer as
/// before. (Tests marked deprecated may call deprecated API without a warning.)
@Suite("Spellings retired for one per idea forward")
struct RetiredSpellingTests {
    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func eventStreamSpellingsAreStreamsWithTheEventStreamHeaders() async throws {
        let registry = StubRegistry()
        let prices = LiveStream(name: "prices")
        try prices.send(event: ServerSentEvent(data: "12"))
        try prices.finish()
        registry.stub(isPath("/live")) { _ in .eventStream(prices) }
        registry.stub(isPath("/script")) { _ in .eventStream(script: [.event(ServerSentEvent(data: "1")), .wait(0.05), .text("data: 2\n\n")]) }
        registry.stub(isPath("/own")) { _ in .eventStream(script: [.text("x")], headers: ["Cache-Control": "max-age=5"]) }
        for path in ["/live", "/script"] {
            let result = await fetch("https://api.test\(path)", from: registry)
            #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream", "\(path)")
            #expect(result.response?.value(forHTTPHeaderField: "Cache-Control") == "no-cache", "\(path)")
        }
        #expect(await fetch("https://api.test/script", from: registry).body == "data: 1\n\ndata: 2\n\n")
        #expect(await fetch("https://api.test/own", from: registry).response?.value(forHTTPHeaderField: "Cache-Control") == "max-age=5")
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func anInputStreamBodyAndAnHTTPMessageInMemoryStillAnswer() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/generated")) { _ in
            StubResponse.stream(length: 3, statusCode: 201, headers: ["X-Made": "1"]) { InputStream(data: Data("abc".utf8)) }
        }
        let generated = await fetch("https://api.test/generated", from: registry)
        #expect(generated.body == "abc" && generated.response?.statusCode == 201)
        #expect(generated.response?.value(forHTTPHeaderField: "Content-Length") == "3")

        let message = try StubResponse(httpMessage: Data("HTTP/1.1 202 Accepted\r\nX-Queued: yes\r\n\r\nqueued".utf8), source: "job.response")
        #expect(message.statusCode == 202 && message.value(forHeader: "X-Queued") == "yes" && message.body.data == Data("queued".utf8))
        let error = #expect(throws: FixtureError.self) { try StubResponse(httpMessage: Data("HTTP/1.1 oops\r\n\r\n".utf8)) }
        #expect(error?.description.hasPrefix("HTTP message:1: ") == true, "\(String(describing: error))")
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func jsonObjectKeepsSortedKeysAndGraphQLDataChecksItsErrors() async throws {
        #expect(try StubResponse(jsonObject: ["b": 1, "a": 2]).body.data == Data(#"{"a":2,"b":1}"#.utf8))
        let registry = StubRegistry()
        registry.stub(isPath("/bad")) { _ in StubResponse(graphQLData: nil, errors: [["path": ["x"]]]) }
        let result = await fetch("https://api.test/bad", from: registry)
        guard case .invalidResponse(let reason)? = result.error.flatMap(StubError.from) else {
            Issue.record("expected invalidResponse, got \(String(describing: result.error))")
            return
        }
        #expect(reason.contains(#"errors[0] has no string "message""#), "\(reason)")
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func passthroughTakesAnArrayOfTransforms() {
        let transforms: [ResponseTransform] = [.statusCode(299)]
        guard case .passThrough(let kept) = StubResponse.passthrough(transforms).action else {
            Issue.record("an array passthrough must pass through")
            return
        }
        #expect(kept.map(\.description) == transforms.map(\.description))
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func heldOnAStubIsHeldByItsOwnGate() async throws {
        let registry = StubRegistry()
        let stub = registry.stub(isPath("/feed"), name: "feed") { _ in StubResponse(string: "fresh") }
        let gate = stub.held()
        #expect(stub.held() === gate, "the same gate on every call")
        #expect(gate.description.hasPrefix(#"gate of "feed" (URLStubsMigrationTests/"#))
        // Resumed here rather than in a `Task`: a task can wait tens of seconds for a cooperative
        // thread while the suite runs, and the gate's 30 s wait would run out first.
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let body = Locked<String?>(nil)
        session.dataTask(with: URL(string: "https://api.test/feed")!) { data, _, _ in
            body.withLock { $0 = String(decoding: data ?? Data(), as: UTF8.self) }
        }.resume()
        #expect(try await gate.waitForRequest(timeout: 30).url?.path == "/feed")
        #expect(gate.release())
        try await waitUntil(timeout: 60) { body.withLock { $0 } != nil }
        #expect(body.withLock { $0 } == "fresh")
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func liveStreamErrorIsTheStubErrorAStreamThrows() throws {
        let stream = LiveStream(name: "ticks")
        try stream.finish()
        do {
            try stream.send("late")
            Issue.record("a write after finish throws")
        } catch LiveStreamError.library(StreamFailure.writeAfterEnd(let name, let ended)) {
            #expect(name.contains("ticks") && ended.contains("finished"), "\(name), \(ended)")
        }
        do {
            try stream.send("later")
        } catch let error as LiveStreamError {
            #expect(error.errorCode == 26 && (error as NSError).domain == "URLStubs.StubError")
            #expect(error.description.hasPrefix("URLStubs: cannot write to the "), "\(error)")
        }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func jsonValueErrorAndJSONPatchErrorAreStubErrorsNamedAsBefore() throws {
        do {
            _ = try JSONValue(any: ["when": Date()])
            Issue.record("a Date is not JSON")
        } catch let error as JSONValueError {
            #expect(error == JSONValueError.unsupported("Date") && error == .notJSON(type: "Date"))
            #expect(error.description == "a value of type Date cannot be represented as JSON")
        }
        let patchError: JSONPatchError = .patchIsNotJSON("x")
        #expect(patchError.errorCode == 34 && patchError.description == "URLStubs: the patch is not a JSON value: x")
    }
}
