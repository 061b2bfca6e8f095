import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsTestRunnerLink
import URLStubsTesting
@testable import TestSupport

#if os(macOS) || os(Linux)
/// The test-runner link across two real processes: this test process drives
/// `urlstubs-app-probe`, an app that connects at launch, loads a URL at launch, and then loads
/// what its stdin says.
@Suite("AppBackend with a child app")
struct AppBackendProcessTests {
    @Test func theLaunchRequestIsStubbedAndLaterStubsReachTheRunningApp() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        try await backend.stub(.get("/launch"), name: "launch", response: RemoteResponse(string: "stubbed at launch"))
        let app = try await AppProbe.start(environment: backend.launchEnvironment)
        defer { app.kill() }
        #expect(try await app.line(startingWith: "link:") == "link: connected")
        #expect(try await app.line(startingWith: "launch") == "launch: 200 stubbed at launch")

        try await backend.stub(.get("/api/users"), response: RemoteResponse(fixture: "users.json"))
        app.send("get users https://api.shop.test/api/users")
        #expect(try await app.line(startingWith: "users").contains(#""name""#), "the app found the fixture in its folder")
        let cart = try await backend.stub(RemoteMatcher(path: "/api/cart"), response: RemoteResponse(json: ["items": []]))
        app.send("get cart https://api.shop.test/api/cart")
        #expect(try await app.line(startingWith: "cart") == #"cart: 200 {"items":[]}"#)
        try await backend.remove(cart)
        app.send("get carts https://api.shop.test/api/carts")
        #expect(try await app.line(startingWith: "carts").hasPrefix("carts failed: -1008"), "unmatched requests fail")

        try await backend.waitForRequests(matching: .get("/api/carts"), timeout: 20)
        let journal = try await backend.journal().map(\.description)
        #expect(journal.first?.hasPrefix(#"GET https://api.shop.test/launch -> 200 from "launch""#) == true, "\(journal)")
        #expect(journal.count == 4)
        let report = try await backend.verify()
        #expect(!report.isSuccess)
        #expect(report.description.contains("GET https://api.shop.test/api/carts"), "\(report)")
        #expect(try await app.quit() == 0, "\(app.printed)")
    }

    @Test func aHeldRequestWaitsForTheTestAndALiveStreamDeliversEachWrite() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let app = try await AppProbe.start(environment: backend.launchEnvironment)
        defer { app.kill() }
        _ = try await app.line(startingWith: "launch")

        let checkout = backend.makeGate(name: "checkout")
        try await backend.stub(.get("/checkout"), response: RemoteResponse(string: "paid").held(by: checkout))
        app.send("get pay https://api.shop.test/checkout")
        let held = try await checkout.waitForRequest()
        #expect(held.url == "https://api.shop.test/checkout")
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(!app.printed.contains("pay:"), "the app still waits")
        #expect(try await checkout.release())
        #expect(try await app.line(startingWith: "pay") == "pay: 200 paid")
        app.send("get again https://api.shop.test/checkout")
        try await checkout.waitForRequest()
        #expect(try await checkout.fail(.networkConnectionLost))
        #expect(try await app.line(startingWith: "again").hasPrefix("again failed: -1005"))

        let prices = backend.makeLiveStream(name: "prices")
        try await backend.stub(.get("/prices"), response: .stream(prices, headers: ["Content-Type": "text/event-stream"]))
        app.send("stream prices https://api.shop.test/prices")
        try await prices.waitForConnection()
        try await prices.send(event: ServerSentEvent(event: "price", data: "12"))
        #expect(try await app.line(startingWith: "prices chunk: event: price\\ndata: 12") != "")
        try await prices.send(event: ServerSentEvent(event: "price", data: "13"))
        #expect(try await app.line(startingWith: "prices chunk: event: price\\ndata: 13") != "")
        try await prices.finish()
        #expect(try await app.line(startingWith: "prices done") == "prices done")
        #expect(try await app.quit() == 0, "\(app.printed)")
    }

    @Test func theTestTakesTheAppOfflineAndSwitchesItsScenarios() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        try await backend.activate("sold-out")
        let app = try await AppProbe.start(environment: backend.launchEnvironment)
        defer { app.kill() }
        _ = try await app.line(startingWith: "launch")
        app.send("get one https://api.shop.test/api/cart")
        #expect(try await app.line(startingWith: "one") == "one: 409 sold out", "declared before launch")
        try await backend.activate("in-stock")
        app.send("get two https://api.shop.test/api/cart")
        #expect(try await app.line(startingWith: "two") == "two: 200 in stock")
        try await backend.setOffline(true)
        app.send("get three https://api.shop.test/api/cart")
        #expect(try await app.line(startingWith: "three").hasPrefix("three failed: -1009"))
        try await backend.setOffline(false)
        #expect(try await backend.deactivate("in-stock"))
        app.send("get four https://api.shop.test/api/cart")
        #expect(try await app.line(startingWith: "four") == "four: 409 sold out")
        #expect(try await app.quit() == 0, "\(app.printed)")
    }

    @Test func whenEitherSideGoesAwayTheOtherSaysSo() async throws {
        // The app crashes: the test's next call fails at once.
        let backend = try AppBackend()
        defer { backend.close() }
        let app = try await AppProbe.start(environment: backend.launchEnvironment)
        _ = try await app.line(startingWith: "launch")
        try await backend.waitForApp()
        app.kill()
        let start = Date()
        var text = ""
        while Date().timeIntervalSince(start) < 10 {
            do {
                _ = try await backend.journal()
                try await Task.sleep(nanoseconds: 50_000_000)
            } catch {
                text = "\(error)"
                break
            }
        }
        #expect(text.contains("the app disconnected from this AppBackend"), "\(text)")
        try await app.waitForExit()

        // The test side goes away: the app's requests fail saying so.
        let other = try AppBackend()
        let orphan = try await AppProbe.start(environment: other.launchEnvironment)
        defer { orphan.kill() }
        _ = try await orphan.line(startingWith: "launch")
        try await other.waitForApp()
        other.close()
        try await Task.sleep(nanoseconds: 500_000_000)
        orphan.send("get after https://api.shop.test/anything")
        let after = try await orphan.line(startingWith: "after")
        #expect(after.contains("failed: -1004 URLStubs: the test runner disconnected"), "\(after)")
        #expect(try await orphan.quit() == 0, "\(orphan.printed)")
    }

    /// An app stopped where it is (paused in the debugger) answers nothing: the test's call
    /// waits its whole reply timeout and says the app did not answer. (`AppProbe.stop()`
    /// returns once the app has stopped: SIGSTOP alone returns while the app still runs, and
    /// the app then answered with its journal.)
    @Test func aStoppedAppAnswersNothing() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let launch = "launch of the app to stop \(UUID().uuidString)"
        try await backend.stub(.get("/launch"), name: launch, response: RemoteResponse(string: "launched"))
        let app = try await AppProbe.start(environment: backend.launchEnvironment)
        defer { app.kill() }
        #expect(try await app.line(startingWith: "link:") == "link: connected")
        _ = try await app.line(startingWith: "launch")
        try await backend.waitForApp()
        #expect(try await backend.journal().map(\.description).first?.contains(launch) == true, "the app answers while it runs")
        app.stop()
        let start = Date()
        var journal: [AppJournalEntry] = []
        let text = await errorText { journal = try await backend.journal() }
        let waited = Date().timeIntervalSince(start)
        #expect(text.contains("the app did not answer \"journal\""), "after \(waited) s: \(text) \(journal.map(\.description))")
        #expect(waited > 9, "the reply timeout is 10 s")
        app.continueRunning()
        #expect(try await app.quit() == 0, "\(app.printed)")
    }

    @Test func aStaleTokenAndASecondAppAreRefused() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        var stale = backend.launchEnvironment
        stale[TestRunnerLink.tokenVariable] = String(repeating: "0", count: 64)
        let impostor = try await AppProbe.start(environment: stale)
        defer { impostor.kill() }
        #expect(try await impostor.line(startingWith: "link").contains("the test runner refused this app: wrong token"))
        #expect(try await impostor.line(startingWith: "launch").contains("launch failed: -1004 URLStubs: the test runner refused this app"))

        let first = try await AppProbe.start(environment: backend.launchEnvironment)
        defer { first.kill() }
        #expect(try await first.line(startingWith: "link") == "link: connected")
        let second = try await AppProbe.start(environment: backend.launchEnvironment)
        defer { second.kill() }
        #expect(try await second.line(startingWith: "link").contains("is already connected to this AppBackend"))
        for probe in [impostor, first, second] { try await probe.quit() }
    }

    /// 72 MB of bodies declared before launch: more than one message of the link may hold, so
    /// the declarations cross one message each.
    @Test func sixtyStubsOfOnePointTwoMegabytesDeclaredBeforeLaunchReachTheApp() async throws {
        let backend = try AppBackend(connectTimeout: 120)
        defer { backend.close() }
        for index in 0..<60 {
            let body = Data(repeating: UInt8(ascii: "A") + UInt8(index % 26), count: 1_200_000)
            try await backend.stub(.get("/big/\(index)"), response: RemoteResponse(data: body))
        }
        let app = try await AppProbe.start(environment: backend.launchEnvironment.merging(["URLSTUBS_PROBE_TIMEOUT": "120"]) { $1 })
        defer { app.kill() }
        #expect(try await app.line(startingWith: "link", timeout: 180) == "link: connected")
        try await backend.waitForApp(timeout: 60)
        app.send("count first https://api.shop.test/big/0")
        app.send("count last https://api.shop.test/big/59")
        #expect(try await app.line(startingWith: "first") == #"first: 200 1200000 bytes, first "A""#)
        #expect(try await app.line(startingWith: "last") == #"last: 200 1200000 bytes, first "H""#)
        #expect(try await app.quit() == 0, "\(app.printed)")
    }

    /// A child process the app starts, or a log of its environment, does not get the token.
    @Test func theAppRemovesTheTokenFromItsEnvironmentOnceConnected() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let app = try await AppProbe.start(environment: backend.launchEnvironment)
        defer { app.kill() }
        #expect(try await app.line(startingWith: "link:") == "link: connected")
        app.send("env token \(TestRunnerLink.tokenVariable)")
        #expect(try await app.line(startingWith: "token") == "token: \(TestRunnerLink.tokenVariable) is not set")
        app.send("env address \(TestRunnerLink.addressVariable)")
        #expect(try await app.line(startingWith: "address") == "address: \(TestRunnerLink.addressVariable) is set")
        #expect(try await app.quit() == 0, "\(app.printed)")
    }

    #if os(Linux)
    /// Nor does another process of the same user that reads the app's launch environment from
    /// the system (`/proc/<pid>/environ`, what `ps e` shows): the token's bytes are overwritten
    /// where the system keeps them, not only taken out of the environment the app reads.
    @Test func theTokenIsGoneFromWhatTheSystemShowsOfTheApp() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let app = try await AppProbe.start(environment: backend.launchEnvironment)
        defer { app.kill() }
        let token = try #require(backend.launchEnvironment[TestRunnerLink.tokenVariable])
        #expect(try await app.line(startingWith: "link:") == "link: connected")
        let environ = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(app.processIdentifier)/environ"))
        let entries = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(!entries.contains { $0.contains(token) }, "the token is readable in /proc/\(app.processIdentifier)/environ")
        #expect(entries.contains { $0.hasPrefix("\(TestRunnerLink.addressVariable)=") }, "the address stays")
        #expect(try await app.quit() == 0, "\(app.printed)")
    }
    #endif

    @Test func tenAppsAndTestsInParallelNeverCross() async throws {
        let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<10 {
                group.addTask {
                    let backend = try AppBackend()
                    defer { backend.close() }
                    try await backend.stub(.get("/launch"), response: RemoteResponse(string: "app \(index)"))
                    let app = try await AppProbe.start(environment: backend.launchEnvironment)
                    defer { app.kill() }
                    let launch = try await app.line(startingWith: "launch")
                    try await backend.stub(.get("/later"), response: RemoteResponse(string: "later \(index)"))
                    app.send("get later https://api.shop.test/later")
                    let later = try await app.line(startingWith: "later")
                    let journal = try await backend.journal().count
                    try await app.quit()
                    return "\(launch) | \(later) | \(journal)"
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.sorted() == (0..<10).map { "launch: 200 app \($0) | later: 200 later \($0) | 2" }.sorted())
    }
}
#endif
