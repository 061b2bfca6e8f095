import Foundation
import URLStubs

/// How many times a stub the test added to the app is expected to answer (``ExpectedCount``),
/// as it crosses the test-runner link: one of its fields, `{"atLeast": 2}`.
package struct WireExpectedCount: Codable, Sendable, Equatable {
    /// ``ExpectedCount/exactly(_:)``.
    package var exactly: Int?
    /// ``ExpectedCount/atLeast(_:)``.
    package var atLeast: Int?
    /// ``ExpectedCount/atMost(_:)``.
    package var atMost: Int?
    /// ``ExpectedCount/between(_:)``: the lower and upper bounds.
    package var between: [Int]?

    /// The wire form of `count`.
    package init(_ count: ExpectedCount) {
        switch count {
        case .exactly(let n): exactly = n
        case .atLeast(let n): atLeast = n
        case .atMost(let n): atMost = n
        case .between(let range): between = [range.lowerBound, range.upperBound]
        }
    }

    /// The count this describes, or an error naming the field at fault.
    package func expectedCount() throws -> ExpectedCount {
        let given = [exactly.map(ExpectedCount.exactly), atLeast.map(ExpectedCount.atLeast), atMost.map(ExpectedCount.atMost)]
            .compactMap { $0 }
        switch (given.count, between) {
        case (1, nil):
            return given[0]
        case (0, let bounds?):
            guard bounds.count == 2, bounds[0] <= bounds[1] else {
                throw WireProtocolError("expected.between must be [lower, upper] with lower <= upper, not \(bounds)")
            }
            return .between(bounds[0]...bounds[1])
        default:
            throw WireProtocolError("expected must have exactly one of the fields exactly, atLeast, atMost or between")
        }
    }
}
