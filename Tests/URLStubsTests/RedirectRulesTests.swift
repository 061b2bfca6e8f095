import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// How a redirect becomes the next request, the same through every API and both loading paths.
@Suite("Redirect rules")
struct RedirectRulesTests {
    static let finalStatuses = [300, 304, 305, 306, 399]

    @Test(arguments: FetchAPI.allCases, finalStatuses)
    func onlyTheFiveRedirectStatusesAreFollowed(api: FetchAPI, status: Int) async {
        let registry = StubRegistry()
        let redirects = EventLog()
        registry.onRedirect { _, _, _, _ in redirects.append("redirect") }
        registry.stub(isPath("/choice")) { _ in
            // A 304 carries no body in HTTP (a stub giving it one is refused).
            let body = status == 304 ? Data() : Data("final \(status)".utf8)
            return StubResponse(data: body, statusCode: status, headers: ["Location": "/choice"])
        }
        let result = await fetch("https://api.test/choice", from: registry, using: api)
        #expect(result.error == nil)
        #expect(result.statusCode == status)
        #expect(registry.journal.count == 1, "a \(status) is a final response: no loop")
        #expect(redirects.events.isEmpty)
    }

    @Test(arguments: FetchAPI.allCases)
    func hopHeadersNeverReachTheNextHop(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isHost("api.test") && isPath("/start")) { _ in
            StubResponse(data: Data(), statusCode: 307, headers: ["Location": "https://api.test/same-host"])
        }
        registry.stub(isHost("api.test") && isPath("/same-host")) { _ in
            StubResponse(data: Data(), statusCode: 302, headers: ["Location": "https://other.test/elsewhere"])
        }
        let seen = EventLog()
        registry.stub(isHost("other.test")) { request in
            for name in ["Authorization", "Proxy-Authorization", "Proxy-Authenticate", "WWW-Authenticate", "Connection", "Host", "X-Kept"] {
                seen.append("\(name)=\(request.value(forHTTPHeaderField: name) ?? "-")")
            }
            return StubResponse(data: Data("done".utf8))
        }
        let sameHost = EventLog()
        registry.onRedirect { request, next, _, _ in
            if request.url?.path == "/start" {
                sameHost.append("Authorization=\(next.value(forHTTPHeaderField: "Authorization") ?? "-")")
                sameHost.append("Proxy-Authorization=\(next.value(forHTTPHeaderField: "Proxy-Authorization") ?? "-")")
            }
        }
        let headers = [
            "Authorization": "Bearer secret", "Proxy-Authorization": "Basic proxy", "Proxy-Authenticate": "Basic",
            "WWW-Authenticate": "Basic", "Connection": "keep-alive", "Host": "api.test", "X-Kept": "yes",
        ]
        let result = await fetch(request("https://api.test/start", headers: headers), from: registry, using: api)
        #expect(result.body == "done")
        #expect(
            sameHost.events == ["Authorization=Bearer secret", "Proxy-Authorization=-"],
            "Authorization stays on the same origin; a proxy credential never crosses a hop")
        #expect(
            seen.events == [
                "Authorization=-", "Proxy-Authorization=-", "Proxy-Authenticate=-", "WWW-Authenticate=-",
                "Connection=-", "Host=-", "X-Kept=yes",
            ])
    }

    @Test(arguments: FetchAPI.allCases, ["POST", "PUT", "DELETE", "HEAD"])
    func seeOtherDropsTheBodyAndBecomesGet(api: FetchAPI, method: String) async {
        let registry = StubRegistry()
        registry.stub(isPath("/submit")) { _ in StubResponse(data: Data(), statusCode: 303, headers: ["Location": "/result"]) }
        let seen = EventLog()
        registry.stub(isPath("/result")) { request in
            seen.append("\(request.method) body=\(request.body?.count ?? 0) type=\(request.value(forHTTPHeaderField: "Content-Type") ?? "-")")
            return StubResponse(data: Data("ok".utf8))
        }
        let sent = request("https://api.test/submit", method: method, body: Data("form".utf8), headers: ["Content-Type": "text/plain"])
        let result = await fetch(sent, from: registry, using: api)
        #expect(result.statusCode == 200)
        #expect(seen.events == ["\(method == "HEAD" ? "HEAD" : "GET") body=0 type=-"])
    }

    @Test(arguments: [301, 302])
    func movedKeepsMethodsOtherThanPost(status: Int) async {
        let registry = StubRegistry()
        registry.stub(isPath("/item")) { _ in StubResponse(data: Data(), statusCode: status, headers: ["Location": "/moved"]) }
        registry.stub(isPath("/moved")) { request in StubResponse(data: Data("\(request.method) \(request.bodyString ?? "")".utf8)) }
        let result = await fetch(request("https://api.test/item", method: "PUT", body: Data("payload".utf8)), from: registry)
        #expect(result.body == "PUT payload", "the Fetch standard turns only POST into GET on 301/302")
    }

    @Test(arguments: FetchAPI.allCases)
    func afterFinishReportsEveryHopWithItsOwnStub(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/a"), name: "first hop") { _ in StubResponse(data: Data(), statusCode: 302, headers: ["Location": "/b"]) }
        registry.stub(isPath("/b"), name: "last hop") { _ in StubResponse(data: Data("b".utf8), statusCode: 201) }
        let log = EventLog()
        registry.afterFinish { request, stub, response, error in
            log.append("\(request.url!.path) \(stub.name ?? "?") \(response?.statusCode ?? 0) \(error.map { "\($0)" } ?? "ok")")
        }
        let result = await fetch("https://api.test/a", from: registry, using: api)
        #expect(result.statusCode == 201)
        try await waitUntil { log.events.count >= 2 }
        #expect(log.events == ["/a first hop 302 ok", "/b last hop 201 ok"])
    }

    @Test(arguments: FetchAPI.allCases)
    func redirectLoopStopsAfterSixteenHops(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/a")) { _ in StubResponse(data: Data(), statusCode: 302, headers: ["Location": "/b"]) }
        registry.stub(isPath("/b")) { _ in StubResponse(data: Data(), statusCode: 302, headers: ["Location": "/a"]) }
        let redirects = EventLog()
        registry.onRedirect { _, _, _, _ in redirects.append("hop") }
        let result = await fetch("https://api.test/a", from: registry, using: api)
        #expect(result.urlError?.code == .httpTooManyRedirects)
        #expect(registry.journal.count == RedirectHop.maximumHops + 1)
        #expect(redirects.events.count == RedirectHop.maximumHops)
    }

    @Test(arguments: FetchAPI.allCases)
    func errorArrivesAfterRequestAndResponseTime(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(error: URLError(.networkConnectionLost)).requestTime(0.2, responseTime: 0.3) }
        let started = Date()
        let result = await fetch("https://api.test/flaky", from: registry, using: api)
        #expect(result.urlError?.code == .networkConnectionLost)
        #expect(Date().timeIntervalSince(started) >= 0.45, "the error waits for the request and response time, as in OHHTTPStubs")
    }

    // Background configurations exist on Apple platforms only, so the check is tested by the
    // identifier it reads.
    @Test func backgroundConfigurationsAreRefused() {
        guard case .backgroundSessionUnsupported(let identifier)? = StubRegistry.installationProblem(backgroundIdentifier: "com.example.sync") else {
            Issue.record("a background configuration was accepted")
            return
        }
        #expect(identifier == "com.example.sync")
        #expect(StubError.backgroundSessionUnsupported(identifier: identifier).description.contains(".ephemeral"))
        #expect(StubRegistry.installationProblem(backgroundIdentifier: URLSessionConfiguration.ephemeral.identifier) == nil)
        #expect(StubRegistry.installationProblem(backgroundIdentifier: URLSessionConfiguration.default.identifier) == nil)
    }

    @Test func aBackgroundConfigurationIsLeftAloneAndFailsVerification() {
        let registry = StubRegistry()
        let configuration = URLSessionConfiguration.ephemeral
        let before = (configuration.protocolClasses ?? []).map { ObjectIdentifier($0) }
        registry.install(into: configuration, backgroundIdentifier: "com.example.sync")
        registry.install(into: configuration, backgroundIdentifier: "com.example.sync")
        #expect((configuration.protocolClasses ?? []).map { ObjectIdentifier($0) } == before, "nothing installed")
        let report = registry.verify()
        #expect(!report.isSuccess)
        #expect(report.problems.map(\.kind) == [.unstubbableConfiguration])
        #expect(report.problems.first?.count == 2)
        #expect(
            report.problems.first?.message
                == #"cannot install into the background configuration "com.example.sync": background sessions never consult custom URL protocols, so every request would reach the network. Install into a .default or .ephemeral configuration in tests. (given twice)"#
        )
        #expect(report.problems.first?.location == nil)
        // A configuration it can stub still works afterwards.
        registry.install(into: configuration)
        #expect(configuration.protocolClasses?.first.map { ObjectIdentifier($0) } == ObjectIdentifier(registry.protocolClass))
    }
}
