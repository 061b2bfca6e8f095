import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// The journal says what the app received, not what the stub meant to send: each entry is
/// completed from the exchange's outcome (the head's status, the bytes, the error the app got).
@Suite("The journal tells the truth")
struct JournalTruthTests {
    /// The one entry of `registry`, once its exchange ended.
    private func endedEntry(of registry: StubRegistry, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JournalEntry {
        try await waitUntil { registry.journal.count == 1 && !registry.journal[0].isInFlight }
        return try #require(registry.journal.first, sourceLocation: sourceLocation)
    }

    @Test(arguments: FetchAPI.allCases)
    func aRequestThatTimedOutHasNoStatusAndTheTimeout(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/never"), name: "never") { _ in .neverResponding() }
        let finished = EventLog()
        registry.afterFinish { _, _, _, error in finished.append(error.map(describeError) ?? "none") }
        let result = await fetch(request("https://api.test/never"), from: registry, using: api) { $0.timeoutIntervalForRequest = 0.3 }
        #expect(result.urlError?.code == .timedOut)
        let entry = try await endedEntry(of: registry)
        #expect(entry.statusCode == nil, "no head reached the app")
        #expect(entry.errorDescription == "URLError(\(URLError.Code.timedOut.rawValue))")
        #expect(entry.bodyBytesDelivered == 0)
        #expect(entry.description.hasPrefix(#"GET https://api.test/never -> error from "never""#), "\(entry)")
        try await waitUntil { !finished.events.isEmpty }
        #expect(finished.events == ["URLError(\(URLError.Code.timedOut.rawValue))"], "afterFinish hears the same outcome")
    }

    @Test func aRequestCancelledWhileItsRequestTimeRanHasNoStatusAndTheCancel() async throws {
        let registry = StubRegistry()
        let stubLine = #line + 1
        registry.stub(isPath("/slow"), name: "slow") { _ in StubResponse(string: "late").requestTime(600, responseTime: 0) }
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let outcome = ResultBox()
        let task = session.dataTask(with: cancellableRequest("https://api.test/slow")) { _, _, error in outcome.set(error) }
        task.resume()
        try await waitUntil { registry.journal.count == 1 }
        let inFlight = try #require(registry.journal.first)
        #expect(inFlight.isInFlight && inFlight.statusCode == nil, "while the request time runs, nothing reached the app")
        #expect(inFlight.description.hasSuffix(#"in flight, answered by "slow" (URLStubsTests/JournalTruthTests.swift:\#(stubLine))"#), "\(inFlight)")
        task.cancel()
        try await waitUntil { outcome.isSet }
        #expect((outcome.error as? URLError)?.code == .cancelled)
        let entry = try await endedEntry(of: registry)
        #expect(entry.statusCode == nil)
        #expect(entry.errorDescription == "URLError(\(URLError.Code.cancelled.rawValue))")
    }

    #if !URLSTUBS_APPLE_LOADING
    @Test func aRequestCancelledThroughTheAppleModelHasNoStatusAndTheCancel() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/slow"), name: "slow") { _ in StubResponse(string: "late").requestTime(600, responseTime: 0) }
        let recorder = DelegateRecorder()
        let model = appleModel(for: registry, delegate: recorder)
        let task = model.dataTask(with: cancellableRequest("https://api.test/slow"))
        async let result = recorder.run { task.resume() }
        try await waitUntil { registry.journal.count == 1 }
        task.cancel()
        #expect(await result.urlError?.code == .cancelled)
        let entry = try await endedEntry(of: registry)
        #expect(entry.statusCode == nil)
        #expect(entry.errorDescription == "URLError(\(URLError.Code.cancelled.rawValue))")
        expectNoViolations(of: model)
    }
    #endif

    @Test(arguments: FetchAPI.allCases)
    func aMissingFileHasNoStatusAndTheFileError(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let missing = URL(fileURLWithPath: "/nonexistent/URLStubs/missing.json")
        registry.stub(isPath("/file"), name: "file") { _ in StubResponse(bodyFileAt: missing) }
        let result = await fetch(request("https://api.test/file"), from: registry, using: api)
        #expect(result.response == nil)
        let entry = try await endedEntry(of: registry)
        #expect(entry.statusCode == nil, "the file was missing before any head")
        #expect(entry.errorDescription?.contains("missing.json") == true, "\(entry.errorDescription ?? "none")")
    }

    @Test(arguments: FetchAPI.allCases)
    func aBodyCutByFailingAfterBytesHasTheStatusTheBytesAndTheError(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/cut"), name: "cut") { _ in
            StubResponse(data: patternData(1_000)).failing(afterBytes: 300, with: URLError(.networkConnectionLost))
        }
        let result = await fetch(request("https://api.test/cut"), from: registry, using: api)
        #expect(result.urlError?.code == .networkConnectionLost)
        let entry = try await endedEntry(of: registry)
        #expect(entry.statusCode == 200, "the head reached the app")
        #expect(entry.bodyBytesDelivered == 300)
        #expect(entry.errorDescription == "URLError(\(URLError.Code.networkConnectionLost.rawValue))")
        #expect(entry.description.hasSuffix(", then URLError(\(URLError.Code.networkConnectionLost.rawValue)) after 300 bytes"), "\(entry)")
    }

    @Test(arguments: FetchAPI.allCases)
    func aLyingContentLengthHasTheStatusAndTheLengthError(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/lies"), name: "lies") { _ in
            StubResponse(data: patternData(100), headers: ["Content-Length": "200"])
        }
        let result = await fetch(request("https://api.test/lies"), from: registry, using: api)
        #expect(result.error != nil)
        let entry = try await endedEntry(of: registry)
        #expect(entry.statusCode == 200)
        #expect(entry.bodyBytesDelivered <= 100)
        #expect(entry.errorDescription?.contains("200") == true, "names what the head announced: \(entry.errorDescription ?? "none")")
    }

    @Test(arguments: [FetchAPI.completionHandler, .asyncData, .delegate])
    func aPassthroughThatFailsAtTheNetworkHasNoStatusAndTheNetworkError(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(.any, name: "live") { _ in .passthrough() }
        let url = "http://127.0.0.1:\(try closedLoopbackPort())/down"
        let result = await fetch(request(url), from: registry, using: api)
        #expect(result.urlError?.code == .cannotConnectToHost)
        let entry = try await endedEntry(of: registry)
        #expect(entry.isPassedThrough)
        #expect(entry.statusCode == nil)
        #expect(entry.errorDescription == "URLError(\(URLError.Code.cannotConnectToHost.rawValue))")
        #expect(entry.description.contains("error from the network"), "\(entry)")
    }

    @Test(arguments: FetchAPI.allCases)
    func aFinishedRequestHasItsStatusAndEveryByte(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(.get, "https://api.test/ok", data: patternData(5_000))
        let result = await fetch(request("https://api.test/ok"), from: registry, using: api)
        #expect(result.data?.count == 5_000)
        let entry = try await endedEntry(of: registry)
        #expect(entry.statusCode == 200)
        #expect(entry.bodyBytesDelivered == 5_000)
        #expect(entry.errorDescription == nil)
        #expect(!entry.isPassedThrough, "stated when recorded, not inferred from a status")
    }
}
