import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import URLStubsStreaming
@testable import TestSupport

/// Live streams the test writes to while the app reads them: server-sent events read event by
/// event by a client written here, NDJSON, every way of reading a response, misuse, timeouts
/// and cancellation.
@Suite("Live streams")
struct LiveStreamTests {
    @Test(arguments: FetchAPI.streamingAPIs)
    func anEventSourceClientReadsEachEventAsItIsSent(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let prices = LiveStream(name: "prices")
        registry.stub(isPath("/prices"), name: "price feed") { _ in
            .stream(prices, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"])
        }
        let client = EventSourceClient()
        let connection = StreamConnection(request("https://api.test/prices"), registry: registry, api: api, delegate: client)
        defer { connection.close() }

        let request = try await prices.waitForConnection(timeout: patientWait)
        #expect(request.url?.path == "/prices")
        try await waitUntil(timeout: patientWait) { client.response != nil }
        #expect(client.response?.statusCode == 200)
        #expect(client.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
        #expect(client.response?.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
        #expect(client.response?.expectedContentLength == -1, "a live body has no length")
        #expect(client.events.isEmpty && client.isOpen)

        try prices.send(event: ServerSentEvent(event: "price", id: "1", data: #"{"teapot":12}"#))
        try await waitUntil(timeout: patientWait) { client.events.count == 1 }
        #expect(client.events == [.init(type: "price", data: #"{"teapot":12}"#, lastEventID: "1")])
        #expect(client.isOpen, "the stream stays open between writes")

        // A comment is delivered but dispatches nothing; the next event carries on.
        try prices.send(event: ServerSentEvent(comment: "keep-alive"))
        try prices.send(event: ServerSentEvent(data: "first line\r\n  indented second line\nthird", retry: 2_500))
        try await waitUntil(timeout: patientWait) { client.events.count == 2 }
        #expect(client.comments == [" keep-alive"])
        #expect(client.events.last == .init(type: "message", data: "first line\n  indented second line\nthird", lastEventID: "1"))
        #expect(client.retry == 2_500)

        // Half an event is only half an event: nothing is dispatched until the rest arrives.
        let split = try ServerSentEvent(event: "price", id: "2", data: #"{"teapot":13}"#).encoded()
        let bytesBefore = client.bytes
        try prices.send(split.prefix(10))
        try await waitUntil(timeout: patientWait) { client.bytes == bytesBefore + 10 }
        #expect(client.events.count == 2)
        try prices.send(split.dropFirst(10))
        try await waitUntil(timeout: patientWait) { client.events.count == 3 }
        #expect(client.events.last == .init(type: "price", data: #"{"teapot":13}"#, lastEventID: "2"))

        try prices.finish()
        try await waitUntil(timeout: patientWait) { client.isComplete }
        #expect(client.error == nil)
        #expect(client.chunks == 5, "one didReceive per write")
        #expect(!prices.isConnected)
        connection.expectNoViolations()
    }

    @Test(arguments: FetchAPI.allCases)
    func everyAPIReceivesTheWholeStream(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let stream = LiveStream()
        registry.stub(isPath("/lines")) { _ in .stream(stream, headers: ["Content-Type": "application/x-ndjson"]) }
        let outcome = Outcome()
        let task = Task { outcome.set(await fetch(request("https://api.test/lines"), from: registry, using: api)) }
        try await stream.waitForConnection(timeout: patientWait)
        struct Line: Encodable { let n: Int }
        try stream.sendJSONLine(["n": 1])
        try stream.sendJSONLine(Line(n: 2))
        try stream.send(Data(#"{"n":3}"#.utf8) + Data("\n".utf8))
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(outcome.result == nil, "the request goes on until the stream finishes")
        try stream.finish()
        await task.value
        let result = try #require(outcome.result)
        #expect(result.error == nil)
        #expect(result.body == "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n")
        #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "application/x-ndjson")
        if FetchAPI.streamingAPIs.contains(api) {
            #expect(result.chunks.count == 3, "a delegate gets each write")
        }
    }

    @Test func writesBeforeTheConnectionAreKeptForIt() async throws {
        let registry = StubRegistry()
        let stream = LiveStream()
        try stream.send("early ")
        try stream.send("bird")
        try stream.finish()
        #expect(!stream.isConnected && stream.isEnded)
        registry.stub(.any) { _ in .stream(stream) }
        let result = await fetch("https://api.test/early", from: registry, using: .delegate)
        #expect(result.body == "early bird")
        #expect(result.chunks.count == 2)
        // A connection that has come and gone is still the first one a wait returns.
        #expect(try await stream.waitForConnection(timeout: patientWait).url?.path == "/early")
    }

    @Test func misuseThrowsWhereItHappens() throws {
        let stream = LiveStream(name: "feed")
        try stream.send("a")
        let finishLine = #line + 1
        try stream.finish()
        do {
            try stream.send("b")
            Issue.record("a write after finish() must throw")
        } catch let error as StubError {
            guard case .library(StreamFailure.writeAfterEnd(let name, let ended)) = error else { throw error }
            #expect(name.contains("live stream \"feed\" (URLStubsStreamingTests/LiveStreamTests.swift:"))
            #expect(ended == "finished at URLStubsStreamingTests/LiveStreamTests.swift:\(finishLine)")
            #expect("\(error)".contains("cannot write to the live stream \"feed\""))
        }
        #expect(throws: StubError.self) { try stream.send(event: ServerSentEvent(data: "late")) }
        #expect(throws: StubError.self) { try stream.sendJSONLine(["late": true]) }
        do {
            try stream.finish()
            Issue.record("finishing twice must throw")
        } catch let error as StubError {
            guard case .library(StreamFailure.endedTwice) = error else { throw error }
            #expect("\(error)".contains("was already finished at"))
        }
        #expect(throws: StubError.self) { try stream.fail(URLError(.networkConnectionLost)) }

        let failed = LiveStream()
        try failed.fail(URLError(.networkConnectionLost))
        do {
            try failed.finish()
            Issue.record("finish after fail must throw")
        } catch let error as StubError {
            #expect("\(error)".contains("was already failed at"))
        }
    }

    @Test func aJSONLineIsJSONValuesWithSortedKeysOrAModelTheEncoderWrites() async throws {
        let registry = StubRegistry()
        let stream = LiveStream()
        registry.stub(isPath("/lines")) { _ in .stream(stream) }
        struct Stamp: Encodable { let at: Date }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        // Written before the app connects: kept for the first request.
        try stream.sendJSONLine(["name": "Ada", "id": 1])
        try stream.sendJSONLine(Stamp(at: Date(timeIntervalSince1970: 5)), encoder: encoder)
        try stream.finish()
        let result = await fetch("https://api.test/lines", from: registry)
        #expect(result.error == nil)
        #expect(result.body == "{\"id\":1,\"name\":\"Ada\"}\n{\"at\":5}\n")
    }

    @Test func aGivenEncoderWritesEveryEncodableValueJSONValuesToo() async throws {
        let registry = StubRegistry()
        let stream = LiveStream()
        registry.stub(isPath("/lines")) { _ in .stream(stream) }
        let slashes = JSONEncoder()
        slashes.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let value = ["path": "a/b", "id": "1"]  // JSONSerialization values, and Encodable
        try stream.sendJSONLine(value, encoder: slashes)
        let pretty = JSONEncoder()
        pretty.outputFormatting = .prettyPrinted
        // The encoder is used, not set aside for JSONSerialization: its several lines are refused.
        #expect(throws: StubError.self) { try stream.sendJSONLine(["a": 1, "b": 2], encoder: pretty) }
        // A value that is not Encodable is still written by JSONSerialization.
        try stream.sendJSONLine(["n": 1] as [String: Any], encoder: pretty)
        try stream.finish()
        let result = await fetch("https://api.test/lines", from: registry)
        #expect(result.error == nil)
        #expect(result.body == String(decoding: try slashes.encode(value), as: UTF8.self) + "\n{\"n\":1}\n")
        #expect(result.body.hasPrefix(#"{"id":"1","path":"a/b"}"#), "\(result.body)")
    }

    @Test func invalidContentThrowsAndSendsNothing() throws {
        let stream = LiveStream()
        #expect(throws: StubError.self) { try stream.send(event: ServerSentEvent(event: "two\nlines", data: "x")) }
        #expect(throws: StubError.self) { try stream.send(event: ServerSentEvent(id: "a\0b", data: "x")) }
        #expect(throws: StubError.self) { try stream.send(event: ServerSentEvent(data: "x", retry: -1)) }
        #expect(throws: StubError.self) { try stream.sendJSONLine(["when": Date()] as [String: Any]) }
        struct Pretty: Encodable { let a = 1, b = 2 }
        let pretty = JSONEncoder()
        pretty.outputFormatting = .prettyPrinted
        #expect(throws: StubError.self) { try stream.sendJSONLine(Pretty(), encoder: pretty) }
        #expect(!stream.isEnded, "a refused write leaves the stream open")
    }

    @Test func serverSentEventFraming() throws {
        func text(_ event: ServerSentEvent) throws -> String { String(decoding: try event.encoded(), as: UTF8.self) }
        #expect(try text(ServerSentEvent(data: "hi")) == "data: hi\n\n")
        #expect(
            try text(ServerSentEvent(event: "update", id: "7", data: "a\nb\r\nc\rd", retry: 1_000, comment: "note\nmore"))
                == ": note\n: more\nevent: update\nid: 7\nretry: 1000\ndata: a\ndata: b\ndata: c\ndata: d\n\n")
        #expect(try text(ServerSentEvent(data: " leading space")) == "data:  leading space\n\n")
        #expect(try text(ServerSentEvent(data: "")) == "data: \n\n")
        #expect(try text(ServerSentEvent(comment: "")) == ":\n\n")
        #expect(try text(ServerSentEvent(retry: 0)) == "retry: 0\n\n")
        #expect(ServerSentEvent(event: "x\ny").description.contains("line break"))
    }

    @Test(arguments: FetchAPI.allCases)
    func failingTheStreamFailsTheRequestAfterItsWrites(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let stream = LiveStream()
        registry.stub(.any) { _ in .stream(stream) }
        let outcome = Outcome()
        let task = Task { outcome.set(await fetch(request("https://api.test/drop"), from: registry, using: api)) }
        try await stream.waitForConnection(timeout: patientWait)
        try stream.send("partial")
        try stream.fail(URLError(.networkConnectionLost))
        await task.value
        let result = try #require(outcome.result)
        #expect(result.urlError?.code == .networkConnectionLost)
        if FetchAPI.streamingAPIs.contains(api) {
            #expect(result.chunks == [Data("partial".utf8)])
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func theTimeoutBoundsTheGapBetweenWrites(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let stream = LiveStream()
        registry.stub(.any) { _ in .stream(stream, headers: ["Content-Type": "text/event-stream"]) }
        var slow = request("https://api.test/quiet")
        slow.timeoutInterval = 1.5
        let outcome = Outcome()
        // Gaps are measured from before the request starts: its head goes out later than that.
        var last = Date(), longestGap = 0.0
        var leftEarly = false
        let task = Task { outcome.set(await fetch(slow, from: registry, using: api)) }
        try await stream.waitForConnection(timeout: patientWait)
        // A write every 0.1 s for 2 s: longer than the timeout in all, never a gap that long.
        let start = Date()
        while Date().timeIntervalSince(start) < 2.0 {
            try await Task.sleep(nanoseconds: 100_000_000)
            longestGap = max(longestGap, Date().timeIntervalSince(last))
            last = Date()
            do {
                try stream.send(event: ServerSentEvent(data: "tick"))
            } catch StubError.library(StreamFailure.notConnected) {
                // This task was kept waiting past the timeout (the gap below says so), and the
                // request timed out: a write then throws rather than waiting for another request.
                #expect(longestGap >= 1.5, "the request left only after a gap as long as its timeout")
                leftEarly = true
                break
            }
        }
        // (When this task was kept waiting for half the timeout, as a suite that blocks
        // the cooperative pool's threads can do, the test cannot tell.)
        if longestGap < 0.75 {
            #expect(outcome.result == nil, "writes keep the request alive (longest gap \(longestGap) s)")
        }
        // Then silence: the request times out.
        await task.value
        let result = try #require(outcome.result)
        #expect(result.urlError?.code == .timedOut)
        #expect("\(result.error.map { ($0 as NSError).localizedDescription } ?? "")".contains("between two parts of the body"))
        // Kept alive by the writes, the request timed out only once they stopped (unless this
        // task was held up past the timeout, and the request rightly left during the writes).
        if !leftEarly { #expect(Date().timeIntervalSince(start) >= 2.0) }
        #expect(!stream.isConnected, "a timed-out request lets go of the stream")
        try stream.finish()
    }

    @Test func aCancelledDelegateTaskGetsNothingAfterStopLoading() async throws {
        let registry = StubRegistry()
        let stream = LiveStream()
        let log = EventLog()
        registry.stub(.any) { _ in .stream(stream, headers: ["Content-Type": "text/event-stream"]) }
        registry.afterFinish { _, _, _, error in log.append("finish \((error as? URLError)?.code == .cancelled)") }
        let recorder = DelegateRecorder()
        let session = registry.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: cancellableRequest("https://api.test/cancel"))
        async let outcome = recorder.run(task)
        try await stream.waitForConnection(timeout: patientWait)
        try stream.send(event: ServerSentEvent(data: "one"))
        try await waitUntil(timeout: patientWait) { recorder.chunkCount == 1 }
        task.cancel()
        let result = await outcome
        #expect(result.urlError?.code == .cancelled)
        try await waitUntil(timeout: patientWait) { !stream.isConnected }
        #expect(!stream.isConnected)
        // A write no request can read is an error, never kept for another request.
        #expect(throws: StubError.self) { try stream.send(event: ServerSentEvent(data: "two")) }
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(recorder.chunkCount == 1, "no callback after stopLoading")
        try await waitUntil(timeout: patientWait) { !log.events.isEmpty }
        #expect(log.events == ["finish true"])
    }

    #if !URLSTUBS_APPLE_LOADING
    @Test func aCancelledAppleModelTaskGetsNothingAfterStopLoading() async throws {
        let registry = StubRegistry()
        let stream = LiveStream()
        registry.stub(.any) { _ in .stream(stream, headers: ["Content-Type": "text/event-stream"]) }
        let client = EventSourceClient()
        let model = appleModel(for: registry, delegate: client)
        let task = model.dataTask(with: cancellableRequest("https://api.test/cancel"))
        task.resume()
        try await stream.waitForConnection(timeout: patientWait)
        try stream.send(event: ServerSentEvent(data: "one"))
        try await waitUntil(timeout: patientWait) { client.events.count == 1 }
        task.cancel()
        try await waitUntil(timeout: patientWait) { client.isComplete && !stream.isConnected }
        #expect((client.error as? URLError)?.code == .cancelled)
        // Writes after the cancel reach no one (they throw); the model records any callback
        // after stopLoading.
        #expect(throws: StubError.self) { try stream.send(event: ServerSentEvent(data: "two")) }
        try stream.finish()
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(client.events.count == 1)
        expectNoViolations(of: model)
    }

    @Test func appleModelCompletionHandlersAccumulateEveryWrite() async throws {
        let registry = StubRegistry()
        let stream = LiveStream()
        registry.stub(.any) { _ in .stream(stream, headers: ["Content-Type": "text/event-stream"]) }
        let model = appleModel(for: registry)
        let outcome = Outcome()
        let task = Task {
            do {
                let (data, response) = try await model.data(for: request("https://api.test/whole"))
                outcome.set(FetchResult(data: data, response: response as? HTTPURLResponse))
            } catch {
                outcome.set(FetchResult(error: error))
            }
        }
        try await stream.waitForConnection(timeout: patientWait)
        for index in 1...3 { try stream.send(event: ServerSentEvent(data: "\(index)")) }
        try stream.finish()
        await task.value
        #expect(outcome.result?.body == "data: 1\n\ndata: 2\n\ndata: 3\n\n")
        expectNoViolations(of: model)
    }
    #endif

    @Test func aStreamServesOneConnectionAtATime() async throws {
        let registry = StubRegistry()
        let stream = LiveStream(name: "solo")
        registry.stub(isPath("/solo"), name: "solo feed") { _ in .stream(stream, headers: ["Content-Type": "text/event-stream"]) }
        let outcome = Outcome()
        let first = Task { outcome.set(await fetch(request("https://api.test/solo"), from: registry, using: .delegate)) }
        try await stream.waitForConnection(timeout: patientWait)
        let second = await fetch("https://api.test/solo", from: registry, using: .delegate)
        guard case .library(StreamFailure.liveStreamBusy(let name, let stub))? = second.stubError else {
            Issue.record("expected liveStreamBusy, got \(String(describing: second.error))")
            return
        }
        #expect(name.contains("\"solo\"") && stub.contains("\"solo feed\""))
        #expect(second.response == nil, "refused before any head")
        try stream.send(event: ServerSentEvent(data: "x"))
        try stream.finish()
        await first.value
        #expect(outcome.result?.error == nil)
        // Its end was delivered: the stream cannot serve again.
        let third = await fetch("https://api.test/solo", from: registry, using: .completionHandler)
        guard case .library(StreamFailure.liveStreamEnded)? = third.stubError else {
            Issue.record("expected liveStreamEnded, got \(String(describing: third.error))")
            return
        }
        #expect("\(third.error!)".contains("Give each connection its own LiveStream"))
    }

    @Test func eachConnectionItsOwnStream() async throws {
        let registry = StubRegistry()
        let first = LiveStream(), second = LiveStream()
        registry.stub(isPath("/events"), responses: [.stream(first), .stream(second)])
        try first.send(event: ServerSentEvent(id: "1", data: "a"))
        try first.finish()
        try second.send(event: ServerSentEvent(id: "2", data: "b"))
        try second.finish()
        #expect(await fetch("https://api.test/events", from: registry).body == "id: 1\ndata: a\n\n")
        #expect(await fetch("https://api.test/events", from: registry).body == "id: 2\ndata: b\n\n")
    }

    @Test(arguments: FetchAPI.allCases)
    func headGetsTheHeadWithoutConnecting(api: FetchAPI) async {
        let registry = StubRegistry()
        let stream = LiveStream()
        registry.stub(.any) { _ in .stream(stream, headers: ["Content-Type": "text/event-stream"]) }
        let result = await fetch(request("https://api.test/events", method: "HEAD"), from: registry, using: api)
        #expect(result.error == nil)
        #expect(result.statusCode == 200)
        #expect(result.data?.isEmpty ?? true)
        #expect(!stream.isConnected)
    }

    @Test func waitingForAConnectionThatNeverComesThrows() async throws {
        let stream = LiveStream(name: "lonely")
        do {
            try await stream.waitForConnection(timeout: 0.2)
            Issue.record("expected a timeout")
        } catch let error as VerificationReport {
            #expect(error.description.contains("a request connected to the live stream \"lonely\""))
            #expect(error.description.contains(".stream(stream)"))
        }
    }
}
