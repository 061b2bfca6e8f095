import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// While a response closure answers, the runner that holds its job watches the request's
/// timeout; at the first check (at most 1.25 s after the start) a request not yet due passes to
/// the process's timeout monitor. These follow one request across that hand-over, both ways it
/// can end. (A job still waiting for a thread is covered by
/// `aThousandBlockedClosuresEachTimeOutWhileAnotherRegistryAnswers`.)
@Suite("Timeouts while user code answers")
struct UserCodeTimeoutTests {
    /// The closure outlasts the first check but answers well within the timeout: the check
    /// finds the request not due, and the answer plays whole, once.
    @Test(arguments: FetchAPI.allCases)
    func aClosureSlowerThanTheFirstCheckAnswersWithinItsTimeout(api: FetchAPI) async {
        let registry = StubRegistry()
        let body = patternData(20_000)
        registry.stub(isPath("/slow-closure")) { _ in
            Thread.sleep(forTimeInterval: 1.6)
            return StubResponse(data: body)
        }
        let result = await fetch(request("https://api.test/slow-closure"), from: registry, using: api)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.data == body)
        #expect(registry.journal.count == 1)
        #expect(registry.journal.first?.statusCode == 200)
    }

    /// The closure blocks past the first check and past the timeout: the request fails with
    /// `timedOut` at its timeout, not at the first check (which only looks), and not never.
    @Test(arguments: FetchAPI.allCases)
    func aClosureBlockedPastTheFirstCheckTimesOutAtItsTimeout(api: FetchAPI) async {
        let stall = StallControl()
        defer { stall.unblock() }
        let registry = StubRegistry()
        registry.stub(.any) { _ in
            stall.markBlocked()
            stall.wait()
            return StubResponse(string: "late")
        }
        let before = Date()
        let result = await fetch(request("https://api.test/blocked"), from: registry, using: api) { $0.timeoutIntervalForRequest = 2.5 }
        // Read after this task resumed, so never before the failure: a lower bound that holds
        // on a loaded machine (the request ends before its exchange exists, so no hook stamps
        // it). The upper one is only a safety net.
        let elapsed = Date().timeIntervalSince(before)
        #expect(result.urlError?.code == .timedOut, "\(String(describing: result.error))")
        #expect(elapsed >= 2.4, "timed out at the first check instead of at the timeout")
        #expect(elapsed < 300)
        #expect(stall.isStillBlocked, "the timeout came while the closure was still blocked")
    }
}
