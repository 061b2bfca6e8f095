import Foundation
import URLStubs
import URLStubsTestRunnerLink

/// The app's verification report (its registry's `verify()`), as ``AppBackend/verify()``
/// returns it: stubs used more or less often than expected, requests no stub matched, with the
/// near-miss report of each.
///
/// ```swift
/// let report = try await backend.verify()
/// XCTAssertTrue(report.isSuccess, report.description)
/// ```
public struct AppVerificationReport: Codable, Sendable, Equatable, CustomStringConvertible {
    /// What the app sent.
    private let wire: WireVerificationReport

    init(_ wire: WireVerificationReport) { self.wire = wire }

    /// `true` when nothing is wrong.
    public var isSuccess: Bool { wire.isSuccess }
    /// Each problem, with its details.
    public var problems: [String] { wire.problems }
    /// The whole report, as the app's registry prints it.
    public var description: String { wire.description }

    /// Reads a report in the form the app sends.
    public init(from decoder: any Decoder) throws {
        wire = try WireVerificationReport(from: decoder)
    }

    /// Writes the report in the form the app sends.
    public func encode(to encoder: any Encoder) throws {
        try wire.encode(to: encoder)
    }
}
