import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

@Suite("Redirects and cookies")
struct RedirectAndCookieTests {
    @Test(arguments: FetchAPI.allCases)
    func relativeAndAbsoluteRedirectsAreFollowed(api: FetchAPI) async {
        let registry = StubRegistry()
        let log = EventLog()
        registry.stub(isPath("/old")) { _ in StubResponse(data: Data(), statusCode: 301, headers: ["Location": "/middle"]) }
        registry.stub(isPath("/middle")) { _ in
            StubResponse(data: Data(), statusCode: 302, headers: ["Location": "https://cdn.test/final?x=1"])
        }
        registry.stub(isHost("cdn.test") && isPath("/final")) { _ in StubResponse(data: Data("final body".utf8)) }
        registry.onRedirect { request, redirect, stub, response in
            log.append("\(request.url!.path) -> \(redirect.url!.absoluteString) (\(response.statusCode))")
        }
        let result = await fetch("https://api.test/old", from: registry, using: api)
        #expect(result.body == "final body")
        #expect(result.statusCode == 200)
        #expect(result.response?.url?.absoluteString == "https://cdn.test/final?x=1")
        #expect(log.events == ["/old -> https://api.test/middle (301)", "/middle -> https://cdn.test/final?x=1 (302)"])
    }

    // On Apple platforms the session itself asks its delegate; on Linux URLStubs does, as
    // corelibs' own HTTP protocol would. Either way the delegate decides.
    @Test func delegateDecliningARedirectGetsTheRedirectResponse() async {
        let registry = StubRegistry()
        let log = EventLog()
        registry.stub(isPath("/old")) { _ in
            StubResponse(data: Data("moved".utf8), statusCode: 302, headers: ["Location": "/new"])
        }
        registry.stub(isPath("/new")) { _ in StubResponse(data: Data("new".utf8)) }
        registry.onRedirect { _, _, _, _ in log.append("redirect hook") }
        registry.afterFinish { request, _, response, _ in log.append("finished \(request.url!.path) \(response?.statusCode ?? 0)") }
        let recorder = DelegateRecorder { _, _ in nil }
        let session = registry.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        let result = await recorder.run(session.dataTask(with: URL(string: "https://api.test/old")!))
        #expect(result.redirects == ["302 -> https://api.test/new"])
        #expect(result.statusCode == 302)
        #expect(result.body == "moved")
        #expect(result.response?.value(forHTTPHeaderField: "Location") == "/new")
        // onRedirect fires when the stub answers with a redirect, before the delegate decides
        // (the same moment on Apple platforms, where the session asks); the 3xx then ends once.
        #expect(log.events == ["redirect hook", "finished /old 302"])
    }

    @Test func delegateMayRewriteTheRedirectedRequest() async {
        let registry = StubRegistry()
        registry.stub(isPath("/old")) { _ in StubResponse(data: Data(), statusCode: 307, headers: ["Location": "/new"]) }
        registry.stub(isPath("/new")) { _ in StubResponse(data: Data("new".utf8)) }
        registry.stub(isPath("/elsewhere")) { request in
            StubResponse(data: Data("elsewhere \(request.value(forHTTPHeaderField: "X-Hop") ?? "-")".utf8))
        }
        let recorder = DelegateRecorder { _, proposed in
            var rewritten = proposed
            rewritten.url = URL(string: "https://api.test/elsewhere")
            rewritten.setValue("1", forHTTPHeaderField: "X-Hop")
            return rewritten
        }
        let session = registry.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        // A completion-handler task of a session with a delegate: the delegate is asked too.
        let result = await fetchWithCompletionHandler(URLRequest(url: URL(string: "https://api.test/old")!), session: session)
        #expect(result.body == "elsewhere 1")
        #expect(result.response?.url?.absoluteString == "https://api.test/elsewhere")
    }

    @Test(arguments: FetchAPI.allCases)
    func cookieSetByARedirectGoesOutWithTheNextHop(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/login")) { _ in
            StubResponse(data: Data(), statusCode: 302, headers: ["Location": "/home", "Set-Cookie": "session=s1; Path=/"])
        }
        registry.stub(isPath("/home")) { request in
            StubResponse(data: Data("cookie: \(request.value(forHTTPHeaderField: "Cookie") ?? "none")".utf8))
        }
        let result = await fetch("https://api.test/login", from: registry, using: api)
        #expect(result.body == "cookie: session=s1")
    }

    @Test(arguments: [301, 302, 303])
    func methodBecomesBodilessGet(status: Int) async {
        let registry = StubRegistry()
        registry.stub(isPath("/submit")) { _ in StubResponse(data: Data(), statusCode: status, headers: ["Location": "/done"]) }
        registry.stub(isPath("/done")) { request in
            StubResponse(data: Data("\(request.method) body=\(request.body?.count ?? 0)".utf8))
        }
        let result = await fetch(request("https://api.test/submit", method: "POST", body: Data("form".utf8)), from: registry)
        #expect(result.body == "GET body=0")
    }

    @Test(arguments: [307, 308])
    func methodAndBodyAreKept(status: Int) async {
        let registry = StubRegistry()
        registry.stub(isPath("/submit")) { _ in StubResponse(data: Data(), statusCode: status, headers: ["Location": "/moved"]) }
        registry.stub(isPath("/moved")) { request in
            StubResponse(data: Data("\(request.method) \(request.bodyString ?? "")".utf8))
        }
        let result = await fetch(request("https://api.test/submit", method: "PUT", body: Data("payload".utf8)), from: registry)
        #expect(result.body == "PUT payload")
    }

    @Test func redirectLoopFailsWithTooManyRedirects() async {
        let registry = StubRegistry()
        registry.stub(isPath("/a")) { _ in StubResponse(data: Data(), statusCode: 302, headers: ["Location": "/b"]) }
        registry.stub(isPath("/b")) { _ in StubResponse(data: Data(), statusCode: 302, headers: ["Location": "/a"]) }
        let result = await fetch("https://api.test/a", from: registry)
        #expect(result.urlError?.code == .httpTooManyRedirects)
    }

    @Test func redirectToUnstubbedTargetFollowsTheUnmatchedPolicy() async {
        let registry = StubRegistry()
        registry.stub(isPath("/go")) { _ in StubResponse(data: Data(), statusCode: 302, headers: ["Location": "https://nowhere.test/x"]) }
        let result = await fetch("https://api.test/go", from: registry)
        guard case .unmatchedRequest(let report)? = result.stubError else {
            Issue.record("expected unmatchedRequest, got \(String(describing: result.error))")
            return
        }
        #expect(report.contains("https://nowhere.test/x"))
    }

    @Test func notModifiedAndLocationlessRedirectsAreFinal() async {
        let registry = StubRegistry()
        registry.stub(isPath("/304")) { _ in StubResponse(data: Data(), statusCode: 304, headers: ["Location": "/x"]) }
        registry.stub(isPath("/300")) { _ in StubResponse(data: Data("choices".utf8), statusCode: 300) }
        #expect(await fetch("https://api.test/304", from: registry).statusCode == 304)
        #expect(await fetch("https://api.test/300", from: registry).body == "choices")
    }

    @Test(arguments: FetchAPI.allCases)
    func setCookieIsStoredAndSentBack(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/login")) { _ in
            StubResponse(
                data: Data("welcome".utf8),
                headers: ["Set-Cookie": "session=abc123; Path=/", "Set-Cookie": "theme=dark; Path=/; Max-Age=3600"])
        }
        registry.stub(isPath("/me")) { request in
            StubResponse(data: Data((request.value(forHTTPHeaderField: "Cookie") ?? "no cookie").utf8))
        }
        let configuration = URLSessionConfiguration.ephemeral
        _ = await fetch(request("https://api.test/login"), from: registry, using: api, configuration: configuration)
        let cookies = configuration.httpCookieStorage?.cookies(for: URL(string: "https://api.test/")!) ?? []
        #expect(Set(cookies.map(\.name)) == ["session", "theme"])
        let echoed = await fetch(request("https://api.test/me"), from: registry, using: api, configuration: configuration).body
        #expect(echoed.contains("session=abc123"))
        #expect(echoed.contains("theme=dark"))
    }

    @Test func cookiesFromASingleSetCookieHeader() async {
        let registry = StubRegistry()
        registry.stub(isPath("/one")) { _ in
            StubResponse(data: Data(), headers: ["Set-Cookie": "token=t1; Path=/"])
        }
        let configuration = URLSessionConfiguration.ephemeral
        let session = registry.makeSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        _ = await fetchWithCompletionHandler(request("https://cookies.test/one"), session: session)
        #expect(configuration.httpCookieStorage?.cookies(for: URL(string: "https://cookies.test/")!)?.map(\.value) == ["t1"])
    }

    @Test func cookiesAreNotStoredWhenTheRequestOptsOut() async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(data: Data(), headers: ["Set-Cookie": "token=t1; Path=/"]) }
        let configuration = URLSessionConfiguration.ephemeral
        let session = registry.makeSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var optOut = request("https://nocookies.test/")
        optOut.httpShouldHandleCookies = false
        _ = await fetchWithCompletionHandler(optOut, session: session)
        #expect(configuration.httpCookieStorage?.cookies(for: URL(string: "https://nocookies.test/")!)?.isEmpty ?? true)
    }

    @Test(arguments: FetchAPI.allCases)
    func sharedCookieStorageIsNeverWrittenUnlessAsked(api: FetchAPI) async {
        let registry = StubRegistry()
        let host = "shared-jar-\(UUID().uuidString.prefix(8).lowercased()).test"
        registry.stub(.any) { _ in StubResponse(data: Data(), headers: ["Set-Cookie": "leak=1; Path=/"]) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = HTTPCookieStorage.shared
        _ = await fetch(request("https://\(host)/"), from: registry, using: api, configuration: configuration)
        let stored = HTTPCookieStorage.shared.cookies(for: URL(string: "https://\(host)/")!) ?? []
        stored.forEach(HTTPCookieStorage.shared.deleteCookie)
        #expect(stored.isEmpty, "a stub wrote the test runner's real cookie jar")
    }

    @Test(arguments: FetchAPI.allCases)
    func sharedCookieStorageIsUsedWhenAllowed(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.storesCookiesInSharedStorage = true
        let host = "shared-jar-\(UUID().uuidString.prefix(8).lowercased()).test"
        let url = URL(string: "https://\(host)/")!
        defer { HTTPCookieStorage.shared.cookies(for: url)?.forEach(HTTPCookieStorage.shared.deleteCookie) }
        registry.stub(isPath("/login")) { _ in StubResponse(data: Data(), headers: ["Set-Cookie": "allowed=1; Path=/"]) }
        registry.stub(isPath("/me")) { request in StubResponse(data: Data((request.value(forHTTPHeaderField: "Cookie") ?? "none").utf8)) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = HTTPCookieStorage.shared
        _ = await fetch(request("https://\(host)/login"), from: registry, using: api, configuration: configuration)
        #expect(HTTPCookieStorage.shared.cookies(for: url)?.map(\.name) == ["allowed"])
        let echoed = await fetch(request("https://\(host)/me"), from: registry, using: api, configuration: configuration)
        #expect(echoed.body == "allowed=1")
    }

    @Test(arguments: FetchAPI.allCases)
    func configurationThatRefusesCookiesStoresNone(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(data: Data(), headers: ["Set-Cookie": "refused=1; Path=/"]) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        _ = await fetch(request("https://refusing.test/"), from: registry, using: api, configuration: configuration)
        #expect(configuration.httpCookieStorage?.cookies(for: URL(string: "https://refusing.test/")!)?.isEmpty ?? true)
    }
}
