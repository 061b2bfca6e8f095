import Foundation
@testable import URLStubs

/// When a registry's stubbed exchanges ended, stamped on the engine's side
/// (``StubRegistry/afterFinish(_:)``), for time bounds on what the library did.
///
/// Swift Testing starts every test at once, and a test's task that awaits a response resumes
/// only when one of the cooperative pool's threads (one per core) reaches it, behind every job
/// queued before it. At the start of a 993-test run on 2 cores that queue held about 28 s of
/// work, so "fetched, then read the clock" measured the suite, not URLStubs. A bound that tells
/// "fails at once" from "trickles for 100 s" reads the end stamped here instead.
///
/// ```swift
/// let clock = FinishClock(registry)
/// let start = Date()
/// _ = await fetch("https://api.test/slow", from: registry, using: api)
/// #expect(try #require(clock.secondsToFirstEnd(since: start)) < 30)
/// ```
final class FinishClock: Sendable {
    private let ends = Locked<[Date]>([])

    /// Stamps each exchange `registry` ends; replaces the registry's `afterFinish` hook.
    init(_ registry: StubRegistry) {
        registry.afterFinish { [ends] _, _, _, _ in
            let now = Date()
            ends.withLock { $0.append(now) }
        }
    }

    /// Seconds from `start` to the first exchange that ended after it, or `nil` when none has.
    func secondsToFirstEnd(since start: Date) -> Double? {
        ends.withLock { $0.first { $0 >= start } }.map { $0.timeIntervalSince(start) }
    }
}
