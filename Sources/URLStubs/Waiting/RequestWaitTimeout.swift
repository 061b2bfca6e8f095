import Foundation

/// Thrown when a test waited for requests that did not come in time
/// (``StubRegistry/waitForRequests(matching:count:timeout:)``,
/// ``ResponseGate/waitForRequest(timeout:)``, `LiveStream.waitForConnection(timeout:)`).
///
/// Its ``description`` says what was awaited, what did arrive, and, for every other request
/// the registry saw, why the matcher refused it, closest first:
///
/// ```text
/// URLStubs: waited 2 s for 1 request matching path is "/analytics"; none arrived.
/// The registry saw 2 other requests; closest first:
///   1. POST https://api.example.com/analytic -> unmatched
///      - expected path "/analytics", got "/analytic"
///   2. GET https://api.example.com/users -> 200 from "users" (MyAppTests/AppTests.swift:12)
///      - expected path "/analytics", got "/users"
/// ```
public struct RequestWaitTimeout: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What was awaited, in words (`1 request matching path is "/analytics"`).
    @_spi(AddOns) public let awaited: String
    /// How long the test waited, in seconds.
    let timeout: TimeInterval
    /// The requests that did match, fewer than awaited.
    public let matched: [JournalEntry]
    /// Every other request the registry had seen when the wait gave up, oldest first (empty
    /// when the wait is not tied to a registry).
    public let others: [JournalEntry]
    /// The full explanation.
    public let description: String

    /// Same as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// How many of ``others`` the description lists.
    static let listedOthers = 5

    /// The timeout of a wait for `awaited` that gave up after `timeout` seconds with `matched`,
    /// listing `others` (closest to `matcher` first, when there is one) or `hint` when there are
    /// none.
    @_spi(AddOns) public init(
        awaited: String, timeout: TimeInterval, matched: [JournalEntry], others: [JournalEntry],
        matcher: RequestMatcher?, hint: String
    ) {
        self.awaited = awaited
        self.timeout = timeout
        self.matched = matched
        self.others = others
        var lines = [
            "URLStubs: waited \(Self.seconds(timeout)) s for \(awaited); "
                + (matched.isEmpty ? "none arrived." : "\(matched.count) arrived:")
        ]
        lines += matched.map { "  \($0)" }
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
        description = ReportText.boundingLines(lines.joined(separator: "\n"))
    }

    /// What to check when the registry saw no request at all.
    @_spi(AddOns) public static let noRequestHint =
        "The registry saw no other request: check that the app sends it through a session this registry "
        + "answers (registry.makeSession(), or registry.install(into: configuration) before the session is made)."

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
