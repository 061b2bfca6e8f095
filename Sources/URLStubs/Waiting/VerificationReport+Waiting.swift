import Foundation

/// A wait that gave up is what a test expected of the traffic and did not see, so it is a
/// ``VerificationReport``: ``StubRegistry/waitForRequests(matching:count:timeout:)``,
/// ``ResponseGate/waitForRequest(timeout:)`` and `LiveStream.waitForConnection(timeout:)`
/// throw one whose single problem (``VerificationProblem/Kind/waitTimedOut``) says what was
/// awaited, what did arrive, and, for every other request the registry saw, why the matcher
/// refused it, closest first:
///
/// ```text
/// URLStubs: waited 2 s for 1 request matching path is "/analytics"; none arrived.
/// The registry saw 2 other requests; closest first:
///   1. POST https://api.example.com/analytic -> unmatched
///      - expected path "/analytics", got "/analytic"
///   2. GET https://api.example.com/users -> 200 from "users" (MyAppTests/AppTests.swift:12)
///      - expected path "/analytics", got "/users"
/// ```
extension VerificationReport {
    /// What a wait that gave up was waiting for and what it saw.
    package struct TimedOutWait: Sendable {
        /// What was awaited, in words (`1 request matching path is "/analytics"`).
        package let awaited: String
        /// The requests that did match, fewer than awaited.
        package let matched: [JournalEntry]
        /// Every other request the registry had seen when the wait gave up, oldest first (empty
        /// when the wait is not tied to a registry).
        package let others: [JournalEntry]
    }

    /// How many of the other requests a timed-out wait lists.
    static let listedOthers = 5

    /// The report of a wait for `awaited` that gave up after `timeout` seconds with `matched`,
    /// listing `others` (closest to `matcher` first, when there is one) or `hint` when there are
    /// none.
    package init(
        awaited: String, timeout: TimeInterval, matched: [JournalEntry], others: [JournalEntry],
        matcher: RequestMatcher?, hint: String
    ) {
        self.init(
            unexpected: [], unexpectedCounts: [:], uncounted: 0, unmet: [], invalid: [], invalidResponses: [], unmetUnmatched: [],
            nearMisses: [:])
        let summary = "waited \(Self.seconds(timeout)) s for \(awaited); " + (matched.isEmpty ? "none arrived." : "\(matched.count) arrived:")
        var lines = matched.map { "  \($0)" }
        var closest: JournalEntry?
        if others.isEmpty {
            lines.append(hint)
        } else if let matcher {
            lines.append("The registry saw \(others.count) other request\(others.count == 1 ? "" : "s"); closest first:")
            let ranked = others.enumerated().map { offset, entry in (offset, entry, matcher.evaluate(entry.request)) }
                .sorted { lhs, rhs in
                    if lhs.2.failures.count != rhs.2.failures.count { return lhs.2.failures.count < rhs.2.failures.count }
                    if lhs.2.passed != rhs.2.passed { return lhs.2.passed > rhs.2.passed }
                    return lhs.0 > rhs.0
                }
            closest = ranked.first?.1
            for (position, candidate) in ranked.prefix(Self.listedOthers).enumerated() {
                lines.append("  \(position + 1). \(candidate.1)")
                // A reason quotes what the request carried: scrubbed as the entry is.
                let redactor = candidate.1.scrubbing.redactor(for: candidate.1.request)
                lines += candidate.2.failures.map { "     - \(redactor.redact($0))" }
            }
            if ranked.count > Self.listedOthers { lines.append("  (\(ranked.count - Self.listedOthers) more)") }
        } else {
            lines.append("The registry saw \(others.count) other request\(others.count == 1 ? "" : "s"):")
            lines += others.suffix(Self.listedOthers).map { "  \($0)" }
        }
        timedOutWait = TimedOutWait(awaited: awaited, matched: matched, others: others)
        waitProblems = [
            VerificationProblem(
                kind: .waitTimedOut, summary: ReportText.bounded(summary), details: ReportText.boundingLines(lines.joined(separator: "\n")),
                location: nil, request: closest, count: matched.count)
        ]
    }

    /// What to check when the registry saw no request at all.
    package static let noRequestSeenHint =
        "The registry saw no other request: check that the app sends it through a session this registry "
        + "answers (registry.makeSession(), or registry.install(into: configuration) before the session is made)."

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
