import Foundation
import Testing
import URLStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import TestSupport

/// A regular expression that backtracks catastrophically ends within its time budget, and the
/// report names it, instead of holding the test for minutes.
@Suite struct RegexBudgetTests {
    /// `(a+)+c|!` against 200 `a`s backtracks for about two minutes without a budget.
    static let catastrophic = "(a+)+c|!"
    static let hostilePath = "/" + String(repeating: "a", count: 200)

    @Test func aPathMatcherThatRunsOutOfTimeSaysSoAndNamesThePattern() async throws {
        let matcher = pathMatches(Self.catastrophic)
        let request = StubRequest(URLRequest(url: URL(string: "https://api.test" + Self.hostilePath)!))
        let outcome = await finished(within: 30) { (matcher.mismatches(for: request), Date()) }
        let (mismatches, _) = try #require(outcome, "the match did not end within 30 s")
        #expect(mismatches.count == 1)
        let reason = try #require(mismatches.first)
        #expect(reason.contains("/(a+)+c|!/"), "\(reason)")
        #expect(reason.contains("ran out of its 0.5 s time budget on the path (201 characters)"), "\(reason)")
    }

    @Test func aBudgetedMatchEndsSoonAfterItsBudget() async throws {
        let regex = try BudgetedRegex(Self.catastrophic, budget: 0.2)
        let outcome = await finished(within: 30) { () -> (BudgetedRegex.Outcome, Double) in
            let start = Date()
            return (regex.firstMatch(in: Self.hostilePath), Date().timeIntervalSince(start))
        }
        let (result, seconds) = try #require(outcome, "the match did not end within 30 s")
        #expect(result == .ranOut)
        // 0.2 s of budget; generous for a loaded machine.
        #expect(seconds < 5, "\(seconds) s")
    }

    @Test func ordinaryPatternsStillMatchAndMiss() throws {
        let regex = try BudgetedRegex(#"^/users/[0-9]+$"#)
        #expect(regex.firstMatch(in: "/users/42") == .matched)
        #expect(regex.firstMatch(in: "/users/x") == .notMatched)
        #expect(try BudgetedRegex("a*").firstMatch(in: "") == .matched)
        #expect(pathMatches(#"^/users/[0-9]+$"#).matches(StubRequest(URLRequest(url: URL(string: "https://a.test/users/7")!))))
    }

    @Test func aRequestThroughTheStubShowsTheBudgetInTheNearMissReport() async throws {
        let registry = StubRegistry()
        registry.stub(pathMatches(Self.catastrophic), name: "hostile") { _ in StubResponse(statusCode: 200) }
        let result = await fetch(URLRequest(url: URL(string: "https://api.test" + Self.hostilePath)!), from: registry)
        let error = try #require(result.error)
        #expect("\(error)".contains("ran out of its 0.5 s time budget"), "\(error)")
    }
}

/// One of two finishers (the work, a timer) hands its outcome to a waiting test.
private final class FirstFinisher<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value?, Never>?

    init(_ continuation: CheckedContinuation<Value?, Never>) { self.continuation = continuation }

    func finish(_ value: Value?) {
        lock.lock()
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(returning: value)
    }
}

/// `work`'s result when it ends within `seconds` on a thread of its own, else `nil` (the thread
/// is left to end by itself).
private func finished<Value: Sendable>(within seconds: Double, _ work: @escaping @Sendable () -> Value) async -> Value? {
    await withCheckedContinuation { continuation in
        let race = FirstFinisher(continuation)
        let thread = Thread { race.finish(work()) }
        thread.stackSize = 8 << 20
        thread.start()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { race.finish(nil) }
    }
}
