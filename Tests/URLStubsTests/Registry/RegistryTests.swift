import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

@Suite("Registry")
struct RegistryTests {
    @Test(arguments: FetchAPI.allCases)
    func newestMatchingStubWins(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isHost("api.test")) { _ in StubResponse(data: Data("old host".utf8)) }
        registry.stub(isPath("/users")) { _ in StubResponse(data: Data("path".utf8)) }
        registry.stub(isHost("api.test") && isPath("/other")) { _ in StubResponse(data: Data("other".utf8)) }
        #expect(await fetch("https://api.test/users", from: registry, using: api).body == "path")
        #expect(await fetch("https://api.test/other", from: registry, using: api).body == "other")
        #expect(await fetch("https://api.test/else", from: registry, using: api).body == "old host")
        let newest = registry.stub(.any) { _ in StubResponse(data: Data("catch-all".utf8)) }
        #expect(await fetch("https://api.test/users", from: registry, using: api).body == "catch-all")
        #expect(registry.remove(newest))
        #expect(await fetch("https://api.test/users", from: registry, using: api).body == "path")
    }

    @Test func stubsAreListedInInsertionOrderAndRemovable() async {
        let registry = StubRegistry()
        let first = registry.stub(isPath("/1"), name: "one") { _ in StubResponse(data: Data()) }
        let second = registry.stub(isPath("/2"), name: "two") { _ in StubResponse(data: Data()) }
        let third = registry.stub(.any, name: "three") { _ in StubResponse(data: Data()) }
        #expect(registry.stubs.map(\.name) == ["one", "two", "three"])
        #expect(registry.remove(second))
        #expect(!registry.remove(second))
        #expect(registry.stubs.map { $0 === first || $0 === third } == [true, true])
        #expect(first.location.fileID.hasSuffix("RegistryTests.swift"))
        registry.removeAll()
        #expect(registry.stubs.isEmpty)
        let result = await fetch("https://api.test/1", from: registry)
        #expect(result.stubError != nil, "an empty private registry fails unmatched requests")
    }

    @Test func removedStubNoLongerAnswers() async {
        let registry = StubRegistry()
        registry.stub(isPath("/x")) { _ in StubResponse(data: Data("fallback".utf8)) }
        let specific = registry.stub(isPath("/x")) { _ in StubResponse(data: Data("specific".utf8)) }
        #expect(await fetch("https://api.test/x", from: registry).body == "specific")
        registry.remove(specific)
        #expect(await fetch("https://api.test/x", from: registry).body == "fallback")
    }

    @Test func disabledRegistryLetsRequestsThrough() async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(data: Data("stub".utf8)) }
        registry.isEnabled = false
        // Port 9 (discard) on loopback refuses the connection: the request reached the network.
        let result = await fetch("http://127.0.0.1:9/", from: registry)
        #expect(result.body != "stub")
        #expect(result.error != nil)
        registry.isEnabled = true
        #expect(await fetch("http://127.0.0.1:9/", from: registry).body == "stub")
    }

    @Test(arguments: FetchAPI.allCases)
    func hooksFireWithTheRightArgumentsInOrder(api: FetchAPI) async {
        let registry = StubRegistry()
        let log = EventLog()
        let descriptor = registry.stub(isPath("/hooked"), name: "hooked") { _ in
            StubResponse(data: Data("body".utf8), statusCode: 202)
        }
        registry.onActivation { request, stub, response in
            log.append("activation \(request.url!.path) \(stub.name ?? "") \(response.statusCode) \(stub === descriptor)")
        }
        registry.afterFinish { request, stub, response, error in
            log.append("finish \(request.url!.path) \(stub.name ?? "") \(response?.statusCode ?? 0) \(error == nil)")
        }
        registry.onMissing { request in log.append("missing \(request.url!.path)") }
        let result = await fetch("https://api.test/hooked", from: registry, using: api)
        #expect(result.statusCode == 202)
        _ = await fetch("https://api.test/nothing", from: registry, using: api)
        try? await waitUntil { log.events.count >= 3 }
        #expect(log.events == ["activation /hooked hooked 202 true", "finish /hooked hooked 202 true", "missing /nothing"])

        registry.onActivation(nil)
        registry.afterFinish(nil)
        registry.onMissing(nil)
        _ = await fetch("https://api.test/hooked", from: registry, using: api)
        _ = await fetch("https://api.test/nothing", from: registry, using: api)
        #expect(log.events.count == 3)
    }

    @Test(arguments: FetchAPI.allCases)
    func afterFinishReportsFailures(api: FetchAPI) async {
        let registry = StubRegistry()
        let log = EventLog()
        registry.stub(isPath("/fail")) { _ in StubResponse(error: URLError(.cannotFindHost)) }
        registry.afterFinish { _, _, _, error in log.append("\((error as? URLError)?.code.rawValue ?? 0)") }
        _ = await fetch("https://api.test/fail", from: registry, using: api)
        try? await waitUntil { !log.events.isEmpty }
        #expect(log.events == ["\(URLError.Code.cannotFindHost.rawValue)"])
    }

    @Test(arguments: FetchAPI.allCases)
    func requestBodyIsVisibleToMatchersAndClosures(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isMethod(.post) && hasJSONBody(["name": "abc"])) { request in
            StubResponse(data: Data("got \(request.bodyString ?? "")".utf8))
        }
        let body = Data(#"{"name":"abc"}"#.utf8)
        let result = await fetch(request("https://api.test/users", method: "POST", body: body), from: registry, using: api)
        #expect(result.body == #"got {"name":"abc"}"#)
    }

    @Test(arguments: FetchAPI.allCases)
    func bodyStreamIsReadForMatching(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isMethod(.put) && hasBody(Data("streamed body".utf8))) { request in
            StubResponse(data: Data("stream seen: \(request.body?.count ?? -1)".utf8))
        }
        var streamed = request("https://api.test/upload", method: "PUT")
        streamed.httpBodyStream = InputStream(data: Data("streamed body".utf8))
        let result = await fetch(streamed, from: registry, using: api)
        #expect(result.body == "stream seen: 13")
    }

    @Test func uploadTaskBodyIsVisible() async throws {
        let registry = StubRegistry()
        registry.stub(isMethod(.post) && hasBody(Data("uploaded!".utf8))) { request in
            StubResponse(data: Data("upload of \(request.body?.count ?? 0) bytes".utf8), statusCode: 201)
        }
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.upload(for: request("https://api.test/files", method: "POST"), from: Data("uploaded!".utf8))
        #expect(String(decoding: data, as: UTF8.self) == "upload of 9 bytes")
        #expect((response as? HTTPURLResponse)?.statusCode == 201)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        try Data("uploaded!".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile: FetchResult = await withCheckedContinuation { continuation in
            session.uploadTask(with: request("https://api.test/files", method: "POST"), fromFile: file) { data, response, error in
                continuation.resume(returning: FetchResult(data: data, response: response as? HTTPURLResponse, error: error))
            }.resume()
        }
        #expect(fromFile.body == "upload of 9 bytes")
    }

    @Test func uploadBodyMismatchIsJudgedOnTheRealBody() async {
        let registry = StubRegistry()
        registry.stub(isMethod(.post) && hasBody(Data("expected".utf8)), name: "expects a body") { _ in
            StubResponse(data: Data("matched".utf8))
        }
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let result: FetchResult = await withCheckedContinuation { continuation in
            session.uploadTask(with: request("https://api.test/files", method: "POST"), from: Data("other".utf8)) { data, response, error in
                continuation.resume(returning: FetchResult(data: data, response: response as? HTTPURLResponse, error: error))
            }.resume()
        }
        #expect(result.body != "matched")
        #expect(result.stubError != nil)
    }

    @Test func releasedRegistryFailsItsSessionsClearly() async {
        var registry: StubRegistry? = StubRegistry()
        registry!.stub(.any) { _ in StubResponse(data: Data("alive".utf8)) }
        let session = registry!.makeSession()
        defer { session.finishTasksAndInvalidate() }
        #expect(await fetchWithCompletionHandler(request("https://api.test/a"), session: session).body == "alive")
        registry = nil
        let result = await fetchWithCompletionHandler(request("https://api.test/a"), session: session)
        guard case .registryReleased(let url)? = result.stubError else {
            Issue.record("expected registryReleased, got \(String(describing: result.error))")
            return
        }
        #expect(url == "https://api.test/a")
    }

    /// A request under way when its registry goes keeps what the registry had planned for it:
    /// its file body is still read (on the runner's lane for released registries) and arrives.
    @Test func aFileBodyWhoseRegistryIsReleasedMidRequestStillArrives() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("kept.txt")
        try Data("kept".utf8).write(to: file)
        var registry: StubRegistry? = StubRegistry()
        final class WeakBox: @unchecked Sendable { weak var registry: StubRegistry? }
        let released = WeakBox()
        released.registry = registry
        registry!.stub(.any) { _ in StubResponse(bodyFileAt: file).requestTime(1, responseTime: 0) }
        let session = registry!.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let outcome = EventLog()
        session.dataTask(with: cancellableRequest("https://api.test/kept")) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            outcome.append("\(status) \(String(decoding: data ?? Data(), as: UTF8.self)) \(error.map { "\($0)" } ?? "no error")")
        }.resume()
        do {
            let alive = registry!
            try await waitUntil(timeout: patientWait) { alive.journal.count == 1 }
        }
        registry = nil
        try await waitUntil(timeout: patientWait) { released.registry == nil }
        try await waitUntil(timeout: patientWait) { !outcome.events.isEmpty }
        #expect(outcome.events == ["200 kept no error"])
    }

    @Test func unmatchedRequestInPrivateRegistryFailsWithReport() async {
        let registry = StubRegistry()
        registry.stub(isHost("api.example.com") && isPath("/users"), name: "users") { _ in StubResponse(data: Data()) }
        let result = await fetch("https://api.example.org/users?page=2", from: registry)
        guard case .unmatchedRequest(let report)? = result.stubError else {
            Issue.record("expected unmatchedRequest, got \(String(describing: result.error))")
            return
        }
        #expect(report.contains("GET https://api.example.org/users?page=2"))
        #expect(report.contains("\"api.example.com\""))
        #expect(report.contains("registry.stub("))
        #expect(registry.journal.last?.isUnmatched == true)
    }

    @Test func installIntoAndUninstallFromAConfiguration() async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(data: Data("installed".utf8)) }
        let configuration = URLSessionConfiguration.ephemeral
        registry.install(into: configuration)
        registry.install(into: configuration)
        #expect(configuration.protocolClasses?.filter { $0 == registry.protocolClass }.count == 1)
        #expect(configuration.protocolClasses?.first == registry.protocolClass)
        let session = URLSession(configuration: configuration)
        #expect(await fetchWithCompletionHandler(request("https://any.test/"), session: session).body == "installed")
        registry.uninstall(from: configuration)
        #expect(configuration.protocolClasses?.contains { $0 == registry.protocolClass } == false)
    }
}
