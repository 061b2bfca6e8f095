import Foundation

/// The outcome of ``StubRegistry/verify(includePassedThrough:)``: requests no stub expected, and stubs whose use
/// broke their ``ExpectedCount``.
///
/// `description` is one report meant to be read in a test failure:
///
/// ```text
/// URLStubs verification failed (2 problems):
/// - "refresh token" (AuthTests.swift:12) was expected exactly once, answered 0 times
/// - unexpected request: GET https://api.example.com/profile (no stub matched)
/// ```
public struct VerificationReport: Sendable, CustomStringConvertible {
    /// A stub whose activation count broke its expectation.
    public struct UnmetExpectation: Sendable, CustomStringConvertible {
        /// The stub.
        public let stub: StubDescriptor
        /// What was expected.
        public let expected: ExpectedCount
        /// How many times it answered.
        public let actual: Int

        /// One line: the stub, where it was declared, and the counts.
        public var description: String {
            "\(stub) was expected \(expected), answered \(actual == 1 ? "once" : "\(actual) times")"
        }
    }

    /// Requests that no stub matched, in the order they arrived.
    public let unexpectedRequests: [JournalEntry]
    /// Stubs used more or less often than declared.
    public let unmetExpectations: [UnmetExpectation]
    /// Stubs whose matcher could not be built (an invalid regular expression, say).
    public let invalidStubs: [StubDescriptor]

    /// `true` when there is nothing to report.
    public var isSuccess: Bool { unexpectedRequests.isEmpty && unmetExpectations.isEmpty && invalidStubs.isEmpty }

    /// Every problem, one sentence each, with the source location it belongs to (the stub's
    /// declaration, or `nil` for an unexpected request), for test frameworks to record.
    /// Identical unexpected requests (a polling loop, a retry) are one problem with a count.
    public var problems: [(message: String, location: StubLocation?)] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for entry in unexpectedRequests {
            let text = entry.request.description
            if counts[text] == nil { order.append(text) }
            counts[text, default: 0] += 1
        }
        return unmetExpectations.map { ($0.description, $0.stub.location) }
            + invalidStubs.map { ("\($0) has an invalid matcher: \($0.matcher.problems.joined(separator: "; "))", $0.location) }
            + order.map { text in
                let times = counts[text]!
                return ("unexpected request: \(text) (no stub matched\(times > 1 ? ", \(times) times" : ""))", nil)
            }
    }

    /// The whole report.
    public var description: String {
        if isSuccess { return "URLStubs verification passed." }
        let lines = problems.map { "- " + $0.message }
        return "URLStubs verification failed (\(lines.count) problem\(lines.count == 1 ? "" : "s")):\n" + lines.joined(separator: "\n")
    }
}

/// Thrown by ``StubRegistry/verifyOrThrow(includePassedThrough:)``; its description is the report.
public struct VerificationFailure: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The report.
    public let report: VerificationReport
    /// The report's text.
    public var description: String { report.description }
    /// The report's text.
    public var errorDescription: String? { report.description }
}

extension StubRegistry {
    /// Checks what happened against what was declared: every request must have matched a stub
    /// (passthrough requests of a `.passThrough` registry count as unexpected only when
    /// `includePassedThrough` is `true`), and every stub with an ``ExpectedCount`` must have
    /// answered accordingly.
    ///
    /// ```swift
    /// let report = registry.verify()
    /// #expect(report.isSuccess, "\(report)")
    /// ```
    public func verify(includePassedThrough: Bool = false) -> VerificationReport {
        let unexpected = journal.filter { entry in
            entry.isUnmatched && (includePassedThrough || unmatchedRequestPolicy == .fail)
        }
        let stubs = self.stubs
        let unmet = stubs.compactMap { stub -> VerificationReport.UnmetExpectation? in
            guard let expected = stub.expectation else { return nil }
            let actual = stub.activationCount
            return expected.isSatisfied(by: actual) ? nil : .init(stub: stub, expected: expected, actual: actual)
        }
        return VerificationReport(unexpectedRequests: unexpected, unmetExpectations: unmet,
                                  invalidStubs: stubs.filter { !$0.matcher.problems.isEmpty })
    }

    /// ``verify(includePassedThrough:)``, throwing a ``VerificationFailure`` when it finds a
    /// problem.
    public func verifyOrThrow(includePassedThrough: Bool = false) throws {
        let report = verify(includePassedThrough: includePassedThrough)
        if !report.isSuccess { throw VerificationFailure(report: report) }
    }
}
