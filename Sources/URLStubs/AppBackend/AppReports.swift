import Foundation

/// A request the app made, as its journal reports it to the test that launched it (see
/// ``JournalEntry``). Secrets the app's registry scrubs (``StubRegistry/scrubbing``) arrive as
/// `<scrubbed>`.
public struct AppJournalEntry: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `GET`, `POST`, …
    public let method: String
    /// The absolute URL.
    public let url: String
    /// The body as UTF-8 text (the journal's first ``StubRegistry/journalBodyLimit`` bytes),
    /// `nil` when there was none or it is not text.
    public let body: String?
    /// The stub that answered (its name, or its description), `nil` when none matched.
    public let stub: String?
    /// The status code answered, `nil` for an error or an unmatched request.
    public let statusCode: Int?
    /// The error the request was answered with, if any.
    public let errorDescription: String?
    /// When the app saw the request.
    public let date: Date
    /// One line: the request and what answered it (``JournalEntry/description``).
    public let description: String

    /// The entry of `entry`, scrubbed as the app's registry scrubs.
    @_spi(TestRunnerLink) public init(_ entry: JournalEntry) {
        self.init(entry, description: entry.description)
    }

    /// A request not answered yet (held, or connected to a live stream): its description is the
    /// request alone.
    init(unanswered request: StubRequest, scrubbing: Scrubbing) {
        var entry = JournalEntry(request: request, stub: nil, statusCode: nil, errorDescription: nil, date: Date())
        entry.scrubbing = scrubbing
        self.init(entry, description: ReportText.bounded(scrubbing.redactor(for: request).redact("\(request)")))
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

/// The app's ``StubRegistry/verify(includePassedThrough:)`` report, as it reaches the test:
/// stubs used more or less often than expected, requests no stub matched, with the near-miss
/// report of each.
public struct AppVerificationReport: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `true` when nothing is wrong.
    public let isSuccess: Bool
    /// Each problem, with its details.
    public let problems: [String]
    /// The whole report, as the app's registry prints it.
    public let description: String

    /// The report of `report`.
    @_spi(TestRunnerLink) public init(_ report: VerificationReport) {
        isSuccess = report.isSuccess
        problems = report.problems.map(\.message)
        description = report.description
    }
}

/// Where the app finds the fixture files a test names (``RemoteResponse/fixture(_:status:headers:)``).
public enum AppFixtures {
    /// In a bundle, as ``Fixture/url(_:in:subdirectory:)`` looks (the app's own: `.main`).
    case bundle(Bundle, subdirectory: String? = nil)
    /// In a folder.
    case folder(URL)

    func response(_ name: String, status: Int, headers: [String: String]) throws -> StubResponse {
        switch self {
        case .bundle(let bundle, let subdirectory):
            return try StubResponse(fixture: name, in: bundle, subdirectory: subdirectory, statusCode: status, headers: headers)
        case .folder(let folder):
            return try StubResponse(fixtureAt: Fixture.url(name, inDirectory: folder), statusCode: status, headers: headers)
        }
    }
}
