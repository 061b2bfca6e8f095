import Foundation
import URLStubs

/// A request the app made, as its journal reports it across the test-runner link (see
/// ``JournalEntry``); the test reads it as `AppJournalEntry` (URLStubsTesting). Secrets the
/// app's registry scrubs (``StubRegistry/scrubbing``) cross as `<scrubbed>`.
package struct WireJournalEntry: Codable, Sendable, Equatable {
    /// `GET`, `POST`, …
    package let method: String
    /// The absolute URL.
    package let url: String
    /// The body as UTF-8 text (the journal's first ``StubRegistry/journalBodyLimit`` bytes),
    /// `nil` when there was none or it is not text.
    package let body: String?
    /// The stub that answered (its name, or its description), `nil` when none matched.
    package let stub: String?
    /// The status code answered, `nil` for an error or an unmatched request.
    package let statusCode: Int?
    /// The error the request was answered with, if any.
    package let errorDescription: String?
    /// When the app saw the request.
    package let date: Date
    /// One line: the request and what answered it (``JournalEntry/description``).
    package let description: String

    /// The entry of `entry`, scrubbed as the app's registry scrubs.
    package init(_ entry: JournalEntry) {
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
package struct WireVerificationReport: Codable, Sendable, Equatable {
    /// `true` when nothing is wrong.
    package let isSuccess: Bool
    /// Each problem, with its details.
    package let problems: [String]
    /// The whole report, as the app's registry prints it.
    package let description: String

    /// The report of `report`.
    package init(_ report: VerificationReport) {
        isSuccess = report.isSuccess
        problems = report.problems.map(\.message)
        description = report.description
    }
}
