@testable import TestSupport
#if !URLSTUBS_APPLE_LOADING
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs

/// What only Apple's loading system asks of the protocol, through the suite's model of it
/// (`Tests/TestSupport/AppleLoadingModel.swift`). Linux-only: on Apple platforms the real
/// system runs the shared behaviour tests instead.
@Suite("Apple loading path, through the model of Apple's loading client")
struct AppleLoadingPathTests {
    @Test func declinedRedirectCompletesWithTheRedirectResponse() async {
        let registry = StubRegistry()
        let log = EventLog()
        registry.stub(isPath("/old")) { _ in StubResponse(data: Data("moved".utf8), statusCode: 302, headers: ["Location": "/new"]) }
        registry.stub(isPath("/new")) { _ in StubResponse(data: Data("new".utf8)) }
        registry.onRedirect { request, next, _, _ in log.append("redirect \(request.url!.path) -> \(next.url!.path)") }
        registry.afterFinish { request, _, response, error in
            log.append("finished \(request.url!.path) \(response?.statusCode ?? 0) \(error == nil ? "ok" : "error")")
        }
        let recorder = DelegateRecorder { _, _ in nil }
        let result = await fetchThroughAppleModel(request("https://api.test/old"), from: registry, recorder: recorder)
        #expect(result.error == nil)
        #expect(result.statusCode == 302)
        #expect(result.body == "moved")
        #expect(result.redirects == ["302 -> https://api.test/new"])
        #expect(log.events == ["redirect /old -> /new", "finished /old 302 ok"])
        #expect(registry.journal.map(\.request.url?.path) == ["/old"])
    }

    @Test func followedRedirectEndsEachHopOnceAndStopsTheFirstProtocol() async {
        let registry = StubRegistry()
        let log = EventLog()
        registry.stub(isPath("/old"), name: "old") { _ in
            StubResponse(data: Data("moved".utf8), statusCode: 301, headers: ["Location": "/new"])
        }
        registry.stub(isPath("/new"), name: "new") { _ in StubResponse(data: Data("new".utf8)) }
        registry.onRedirect { request, next, _, _ in log.append("redirect \(request.url!.path) -> \(next.url!.path)") }
        registry.afterFinish { request, stub, response, error in
            log.append("finished \(request.url!.path) by \(stub.name ?? "?") \(response?.statusCode ?? 0) \(error == nil ? "ok" : "error")")
        }
        let result = await fetchThroughAppleModel(request("https://api.test/old"), from: registry)
        #expect(result.body == "new")
        #expect(result.response?.url?.path == "/new")
        try? await waitUntil { log.events.count >= 3 }
        #expect(log.events == ["redirect /old -> /new", "finished /old by old 301 ok", "finished /new by new 200 ok"])
    }

    @Test func redirectedHopOfAPassThroughRegistryIsStillClaimed() async {
        // The hop goes to the registry whatever it matches, as on Linux: here it is stubbed
        // by a stub that only the redirect target matches.
        let registry = StubRegistry(unmatchedRequests: .passthrough)
        registry.stub(isPath("/start")) { _ in StubResponse(data: Data(), statusCode: 307, headers: ["Location": "/target"]) }
        registry.stub(isPath("/target")) { _ in StubResponse(data: Data("target".utf8)) }
        let result = await fetchThroughAppleModel(request("https://api.test/start"), from: registry)
        #expect(result.body == "target")
    }

    @Test func timeoutComesFromTheInstalledConfiguration() async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in .neverResponding() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.3
        let started = Date()
        let result = await fetchThroughAppleModel(request("https://api.test/slow"), from: registry, configuration: configuration)
        #expect(result.urlError?.code == .timedOut)
        // The message names the timeout that fired: the configuration's, not the default 60 s
        // (the clock alone cannot tell them apart on a machine stalled by other work).
        #expect(result.error?.localizedDescription.contains("nothing for 0.3 s") == true, "\(String(describing: result.error))")
        #expect(Date().timeIntervalSince(started) < 300)
    }

    @Test func uploadTaskBodyIsUnknownAndABodyMatcherSaysSo() async {
        let registry = StubRegistry()
        registry.stub(isPath("/upload") && hasBody(Data("payload".utf8)), name: "upload with body") { _ in
            StubResponse(data: Data(), statusCode: 201)
        }
        let result = await fetchThroughAppleModel(
            request("https://api.test/upload", method: "POST"), from: registry,
            uploadBody: Data("payload".utf8))
        guard case .requestBodyUnavailable(let stub, let url)? = result.stubError else {
            Issue.record("expected requestBodyUnavailable, got \(String(describing: result.error))")
            return
        }
        #expect(stub.contains("upload with body"))
        #expect(url == "https://api.test/upload")
        #expect(result.stubError?.description.contains("httpBody") == true, "the message says what to do")
    }

    @Test func uploadTaskWithoutABodyMatcherIsAnswered() async {
        let registry = StubRegistry()
        registry.stub(isPath("/upload") && isMethod(.post)) { request in
            StubResponse(data: Data("body \(request.body == nil ? "unknown" : "known")".utf8), statusCode: 201)
        }
        let result = await fetchThroughAppleModel(
            request("https://api.test/upload", method: "POST"), from: registry,
            uploadBody: Data("payload".utf8))
        #expect(result.statusCode == 201)
        #expect(result.body == "body unknown")
    }

    @Test func dataTaskBodyArrivesAsAStreamAndIsRead() async {
        let registry = StubRegistry()
        registry.stub(isPath("/form") && hasBody(Data("a=1".utf8))) { _ in StubResponse(data: Data("seen".utf8)) }
        let result = await fetchThroughAppleModel(request("https://api.test/form", method: "POST", body: Data("a=1".utf8)), from: registry)
        #expect(result.body == "seen")
    }

    @Test func unmatchedRequestIsReportedOnceAlthoughCanInitIsAskedRepeatedly() async {
        let registry = StubRegistry(unmatchedRequests: .passthrough)
        let missing = EventLog()
        registry.onMissing { request in missing.append(request.description) }
        registry.stub(isPath("/other")) { _ in StubResponse(data: Data()) }
        // The model has no network: the request the registry leaves alone cannot connect.
        let result = await fetchThroughAppleModel(request("https://api.test/unstubbed"), from: registry)
        #expect(result.urlError?.code == .cannotConnectToHost)
        #expect(missing.events == ["GET https://api.test/unstubbed"])
        #expect(registry.journal.count == 1)
    }

    @Test func cancelledTaskGetsNoCallbackAfterStopLoading() async throws {
        let registry = StubRegistry()
        // 50 s of body: the cancel lands mid-body however loaded the machine is.
        registry.stub(.any) { _ in StubResponse(data: patternData(20_000_000)).downloadSpeed(.kilobytesPerSecond(400)) }
        let recorder = DelegateRecorder()
        let model = appleModel(for: registry, delegate: recorder)
        let task = model.dataTask(with: request("https://api.test/big"))
        async let result = recorder.run { task.resume() }
        // A safety net, not a bound: `async let` starts the task only when the cooperative pool
        // gets to it, which can be tens of seconds behind while the suite runs.
        try await waitUntil(timeout: patientWait) { recorder.chunkCount >= 2 }
        task.cancel()
        let finished = await result
        #expect(finished.urlError?.code == .cancelled, "\(String(describing: finished.error)), \(recorder.chunkCount) chunks")
        // Paced chunks were due every 50 ms: any that still came would be seen by now.
        try await Task.sleep(nanoseconds: 300_000_000)
        expectNoViolations(of: model)
    }

    @Test func completionHandlerTaskGetsEveryChunkAccumulated() async {
        let registry = StubRegistry()
        let body = patternData(60_000)
        registry.stub(.any) { _ in StubResponse(data: body).downloadSpeed(.kilobytesPerSecond(300)) }
        let model = appleModel(for: registry)
        let (data, response) = await withCheckedContinuation { continuation in
            model.dataTask(with: request("https://api.test/paced")) { data, response, _ in
                continuation.resume(returning: (data, response))
            }.resume()
        }
        #expect(data == body)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        expectNoViolations(of: model)
    }

    @Test func cookiesUseTheInstalledConfigurationsStoreOnly() async {
        let registry = StubRegistry()
        let host = "apple-jar-\(UUID().uuidString.prefix(8).lowercased()).test"
        registry.stub(isPath("/login")) { _ in StubResponse(data: Data(), headers: ["Set-Cookie": "token=t1; Path=/"]) }
        registry.stub(isPath("/me")) { request in StubResponse(data: Data((request.value(forHTTPHeaderField: "Cookie") ?? "none").utf8)) }
        let configuration = URLSessionConfiguration.ephemeral
        _ = await fetchThroughAppleModel(request("https://\(host)/login"), from: registry, configuration: configuration)
        let url = URL(string: "https://\(host)/")!
        #expect(configuration.httpCookieStorage?.cookies(for: url)?.map(\.value) == ["t1"])
        #expect(HTTPCookieStorage.shared.cookies(for: url)?.isEmpty ?? true, "never the test runner's real jar")
        let echoed = await fetchThroughAppleModel(request("https://\(host)/me"), from: registry, configuration: configuration)
        #expect(echoed.body == "token=t1")
    }
}
#endif
