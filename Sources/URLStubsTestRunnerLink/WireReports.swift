import Foundation
@_spi(AddOns) import URLStubs

/// A request the app made, as its journal reports it across the test-runner link (see
/// ``JournalEntry``); the test reads it as `AppJournalEntry` (URLStubsTesting). Secrets the
/// app's registry scrubs (``StubRegistry/scrubbing``) cross as `<scrubbed>`.
@_spi(TestRunnerLink) public struct WireJournalEntry: Codable, Sendable, Equatable {
    /// `GET`, `POST`, …
    @_spi(TestRunnerLink) public let method: String
    /// The absolute URL.
    @_spi(TestRunnerLink) public let url: String
    /// The body as UTF-8 text (the journal's first ``StubRegistry/journalBodyLimit`` bytes),
    /// `nil` when there was none or it is not text.
    @_spi(TestRunnerLink) public let body: String?
    /// The stub that answered (its name, or its description), `nil` when none matched.
    @_spi(TestRunnerLink) public let stub: String?
    /// The status code answered, `nil` for an error or an unmatched request.
    @_spi(TestRunnerLink) public let statusCode: Int?
    /// The error the request was answered with, if any.
    @_spi(TestRunnerLink) public let errorDescription: String?
    /// When the app saw the request.
    @_spi(TestRunnerLink) public let date: Date
    /// One line: the request and what answered it (``JournalEntry/description``).
    @_spi(TestRunnerLink) public let description: String

    /// The entry of `entry`, scrubbed as the app's registry scrubs.
    @_spi(TestRunnerLink) public init(_ entry: JournalEntry) {
        self.init(entry, description: entry.description)
    }

    /// A request not answered yet (held, or connected to a live stream): its description is the
    /// request alone.
    init(unanswered request: StubRequest, scrubbing: Scrubbing) {
        self.init(
            JournalEntry(unanswered: request, scrubbing: scrubbing),
            description: ReportText.bounded(scrubbing.redactor(for: request).redact("\(request)")))
    }

    private init(_ entry: JournalEntry, description: String) {
        let redactor = entry.scrubbing.redactor(for: entry.request)
        method = entry.request.method
        url = redactor.redact(entry.request.url?.absoluteString ?? "")
        body = entry.request.bodyString.map { ReportText.bounded(redactor.redact($0)) }
        stub = entry.stub.map { $0.name ?? $0.description }
        statusCode = entry.statusCode
        errorDescription = entry.errorDescription
        date = entry.date
        self.description = description
    }
}

/// The app's ``StubRegistry/verify(includePassedThrough:)`` report, as it crosses the
/// test-runner link; the test reads it as `AppVerificationReport` (URLStubsTesting).
@_spi(TestRunnerLink) public struct WireVerificationReport: Codable, Sendable, Equatable {
    /// `true` when nothing is wrong.
    @_spi(TestRunnerLink) public let isSuccess: Bool
    /// Each problem, with its details.
    @_spi(TestRunnerLink) public let problems: [String]
    /// The whole report, as the app's registry prints it.
    @_spi(TestRunnerLink) public let description: String

    /// The report of `report`.
    @_spi(TestRunnerLink) public init(_ report: VerificationReport) {
        isSuccess = report.isSuccess
        problems = report.problems.map(\.message)
        description = report.description
    }
}
