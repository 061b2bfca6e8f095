import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// Waiting for requests the app sends in the background.
@Suite("Waiting for requests")
struct WaitForRequestsTests {
    @Test func requestsThatAlreadyArrivedCount() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/analytics")) { _ in StubResponse(statusCode: 204) }
        _ = await fetch("https://api.test/analytics", from: registry)
        let start = Date()
        let entries = try await registry.waitForRequests(matching: isPath("/analytics"), count: 1, timeout: patientWait)
        #expect(entries.map(\.request.description) == ["GET https://api.test/analytics"])
        #expect(entries.first?.statusCode == 204)
        #expect(Date().timeIntervalSince(start) < 50, "no wait for what is already there")
    }

    @Test(arguments: FetchAPI.allCases)
    func requestsSentInTheBackgroundAreAwaited(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isMethod(.post) && isPath("/analytics")) { _ in StubResponse(statusCode: 204) }
        registry.stub(isPath("/other")) { _ in StubResponse(statusCode: 200) }
        let background = Task {
            for index in 0..<3 {
                try await Task.sleep(nanoseconds: 50_000_000)
                _ = await fetch(request("https://api.test/other"), from: registry, using: api)
                _ = await fetch(
                    request("https://api.test/analytics?n=\(index)", method: "POST", body: Data("e\(index)".utf8)),
                    from: registry, using: api)
            }
        }
        // A safety net: the sender waits for the cooperative pool nine times in turn before its
        // third POST leaves, and the pool can be tens of seconds behind while the suite runs.
        let entries = try await registry.waitForRequests(matching: isMethod(.post) && isPath("/analytics"), count: 3, timeout: 300)
        #expect(entries.map { $0.request.url?.query } == ["n=0", "n=1", "n=2"], "the first three, oldest first")
        #expect(entries.map(\.request.bodyString) == ["e0", "e1", "e2"])
        try await background.value
    }

    @Test func theFirstCountEntriesAreReturned() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(statusCode: 200) }
        for index in 0..<4 { _ = await fetch("https://api.test/ping?n=\(index)", from: registry) }
        let entries = try await registry.waitForRequests(matching: isPath("/ping"), count: 2, timeout: patientWait)
        #expect(entries.map { $0.request.url?.query } == ["n=0", "n=1"])
        #expect(try await registry.waitForRequests(matching: isPath("/ping"), count: 0).isEmpty)
    }

    @Test func unmatchedRequestsCountToo() async throws {
        let registry = StubRegistry()
        _ = await fetch("https://api.test/nobody", from: registry)
        let entries = try await registry.waitForRequests(matching: isPath("/nobody"), timeout: patientWait)
        #expect(entries.first?.isUnmatched == true)
    }

    @Test func theTimeoutErrorSaysWhatArrivedAndWhyTheRestDidNotMatch() async throws {
        let registry = StubRegistry()
        registry.stub(.any, name: "everything") { _ in StubResponse(statusCode: 204) }
        _ = await fetch(request("https://api.test/analytics", method: "POST"), from: registry)
        _ = await fetch(request("https://api.test/analytic", method: "POST"), from: registry)
        _ = await fetch(request("https://api.test/users"), from: registry)
        let start = Date()
        do {
            _ = try await registry.waitForRequests(matching: isMethod(.post) && isPath("/analytics"), count: 2, timeout: 0.3)
            Issue.record("expected a timeout")
        } catch let error as VerificationReport {
            // A wait that gives up is a VerificationReport (what the test expected of the traffic).
            #expect(Date().timeIntervalSince(start) >= 0.3)
            #expect(error.timedOutWait?.matched.map(\.request.description) == ["POST https://api.test/analytics"])
            #expect(error.timedOutWait?.others.count == 2)
            let lines = error.description.split(separator: "\n").map(String.init)
            #expect(lines.first == "URLStubs: waited 0.3 s for 2 requests matching method is POST and path is \"/analytics\"; 1 arrived:")
            #expect(lines.contains("The registry saw 2 other requests; closest first:"))
            // The near miss first: one failed condition, then the request that fails two.
            let nearMiss = try #require(lines.firstIndex { $0.contains("1. POST https://api.test/analytic ->") })
            let farther = try #require(lines.firstIndex { $0.contains("2. GET https://api.test/users ->") })
            #expect(nearMiss < farther)
            #expect(lines[nearMiss + 1].contains("expected path \"/analytics\", got \"/analytic\""))
        }
    }

    @Test func noRequestAtAllSaysWhereToLook() async throws {
        let registry = StubRegistry()
        await #expect {
            _ = try await registry.waitForRequests(matching: isPath("/x"), timeout: 0.1)
        } throws: { error in
            "\(error)".contains("The registry saw no other request") && "\(error)".contains("registry.makeSession()")
        }
    }

    @Test func cancellingTheWaitingTaskEndsTheWait() async throws {
        let registry = StubRegistry()
        let waiting = Task { try await registry.waitForRequests(matching: .any, timeout: 600) }
        try await Task.sleep(nanoseconds: 50_000_000)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        // The registry no longer tells the cancelled wait about new requests.
        _ = await fetch("https://api.test/after", from: registry)
        try await waitUntil(timeout: patientWait) { registry.requests.waiters.isEmpty }
        #expect(registry.requests.waiters.isEmpty)
    }

    @Test func manyWaitersAtOnce() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(statusCode: 200) }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await registry.waitForRequests(matching: containsQueryParams(["n": "\(index)"]), timeout: patientWait).count
                }
            }
            for index in (0..<20).reversed() { _ = await fetch("https://api.test/x?n=\(index)", from: registry) }
            var total = 0
            for try await count in group { total += count }
            #expect(total == 20)
        }
    }
}
