import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsTestRunnerLink
@testable import URLStubsTesting
@testable import TestSupport

/// What the app reports back to the test across the link: waits that time out explain what the
/// app saw, reports point at the test's lines, expected counts are verified, and the error an
/// app's request gets once the link has failed.
@Suite("AppBackend reports")
struct AppBackendReportTests {
    @Test func aGateWaitThatTimesOutListsTheAppsRequestsAndTheTestsLine() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        let checkout = backend.makeGate(name: "checkout")
        let gateLine = #line - 1
        try await backend.stub(.post("/api/orders"), response: RemoteResponse(string: "placed").held(by: checkout))
        try await backend.stub(.any, name: "everything else", response: RemoteResponse(statusCode: 204))
        _ = await fetch(request("https://app.test/api/order", method: "POST"), from: registry)
        _ = await fetch("https://app.test/api/orders", from: registry)
        let text = await errorText { try await checkout.waitForRequest(timeout: 0.5) }
        #expect(text.contains("could not wait for a request held by the gate \"gate-1: checkout\""), "\(text)")
        #expect(text.contains("The registry saw 2 other requests; closest first:"), "\(text)")
        #expect(text.contains(#"expected path "/api/orders", got "/api/order""#), "\(text)")
        #expect(text.contains("expected method POST, got GET"), "\(text)")
        #expect(text.contains("URLStubsTestRunnerLinkTests/AppBackendReportTests.swift:\(gateLine)"), "the test's line: \(text)")
        // The library's lines are `URLStubsTestRunnerLink/…` (the app's side) or `URLStubsTesting/…`.
        #expect(!text.contains("URLStubsTestRunnerLink/") && !text.contains("URLStubsTesting/"), "the library's own line: \(text)")
    }

    @Test func aStreamWaitThatTimesOutListsTheAppsRequestsAndTheTestsLine() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        let prices = backend.makeLiveStream(name: "prices")
        let streamLine = #line - 1
        try await backend.stub(.get("/prices"), response: .stream(prices, headers: ["Content-Type": "text/event-stream"]))
        try await backend.stub(.any, response: RemoteResponse(statusCode: 204))
        _ = await fetch("https://app.test/price", from: registry)
        let text = await errorText { try await prices.waitForConnection(timeout: 0.5) }
        #expect(text.contains("The registry saw 1 other request; closest first:"), "\(text)")
        #expect(text.contains(#"expected path "/prices", got "/price""#), "\(text)")
        #expect(text.contains("URLStubsTestRunnerLinkTests/AppBackendReportTests.swift:\(streamLine)"), "the test's line: \(text)")
        // The library's lines are `URLStubsTestRunnerLink/…` (the app's side) or `URLStubsTesting/…`.
        #expect(!text.contains("URLStubsTestRunnerLink/") && !text.contains("URLStubsTesting/"), "the library's own line: \(text)")
    }

    @Test func theOfflineStubNamesTheTestsLineInTheAppsJournal() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        try await backend.setOffline(true)
        let offlineLine = #line - 1
        _ = await fetch("https://app.test/feed", from: registry)
        let journal = try await backend.journal().map(\.description).joined(separator: "\n")
        #expect(
            journal.contains("\"offline (set by the test)\" (URLStubsTestRunnerLinkTests/AppBackendReportTests.swift:\(offlineLine))"), "\(journal)")
    }

    @Test func expectedCountsAreVerifiedInTheApp() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        // Declared before launch, and after.
        try await backend.stub(.get("/launch"), name: "launch", response: RemoteResponse(statusCode: 204)).expect(.exactly(2))
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        let order = try await backend.stub(.post("/api/orders"), name: "order", response: RemoteResponse(statusCode: 201)).expect(.once)
        try await backend.stub(.delete("/api/account"), name: "delete account", response: RemoteResponse(statusCode: 204)).expect(.never)
        _ = await fetch("https://app.test/launch", from: registry)
        _ = await fetch(request("https://app.test/api/account", method: "DELETE"), from: registry)
        let report = try await backend.verify()
        #expect(!report.isSuccess)
        #expect(report.problems.count == 3, "\(report)")
        #expect(report.description.contains("\"launch\""), "\(report)")
        #expect(report.description.contains("\"order\""), "\(report)")
        #expect(report.description.contains("\"delete account\""), "\(report)")

        try await order.expect(.never)
        _ = await fetch("https://app.test/launch", from: registry)
        try await backend.stub(.delete("/api/account"), name: "delete account", response: RemoteResponse(statusCode: 204)).expect(.atMost(1))
        #expect(try await backend.verify().problems.count == 1, "only the first delete stub's expectation fails")
        try await backend.remove(order)
        let gone = await errorText { try await order.expect(.once) }
        #expect(gone.contains("the app has no stub"), "\(gone)")
    }

    @Test func afterTheLinkFailsAnAppsRequestGetsAURLErrorWhoseUnderlyingErrorIsTheLinks() async throws {
        let backend = try AppBackend()
        let registry = StubRegistry()
        let link = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        backend.close()
        while link.isConnected { try await Task.sleep(nanoseconds: 20_000_000) }
        for api in [FetchAPI.completionHandler, .asyncData, .delegate] {
            let result = await fetch(request("https://app.test/anything"), from: registry, using: api)
            let error = try #require(result.urlError, "\(api): \(String(describing: result.error))")
            #expect(error.code == .cannotConnectToHost, "\(api)")
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? TestRunnerLinkError
            guard case .testRunnerDisconnected = underlying else {
                Issue.record("\(api): the underlying error is \(String(describing: underlying))")
                continue
            }
            #expect(error.localizedDescription.hasPrefix("URLStubs: the test runner disconnected"), "\(api): \(error.localizedDescription)")
        }
    }
}
