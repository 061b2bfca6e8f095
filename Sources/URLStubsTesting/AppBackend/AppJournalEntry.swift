import Foundation
import URLStubs
import URLStubsTestRunnerLink

/// A request the app made, as its journal reports it to the test that launched it
/// (``AppBackend/journal()``, ``AppBackend/waitForRequests(matching:count:timeout:)``, the
/// waits of ``RemoteGate`` and ``RemoteLiveStream``): the app's `JournalEntry`, as text.
/// Secrets the app's registry scrubs (`StubRegistry.scrubbing`) arrive as `<scrubbed>`.
public struct AppJournalEntry: Codable, Sendable, Equatable, CustomStringConvertible {
    /// What the app sent.
    private let wire: WireJournalEntry

    init(_ wire: WireJournalEntry) { self.wire = wire }

    /// `GET`, `POST`, …
    public var method: String { wire.method }
    /// The absolute URL.
    public var url: String { wire.url }
    /// The body as UTF-8 text (the first `StubRegistry.journalBodyLimit` bytes of the app's
    /// journal), `nil` when there was none or it is not text.
    public var body: String? { wire.body }
    /// The stub that answered (its name, or its description), `nil` when none matched.
    public var stub: String? { wire.stub }
    /// The status code answered, `nil` for an error or an unmatched request.
    public var statusCode: Int? { wire.statusCode }
    /// The error the request was answered with, if any.
    public var errorDescription: String? { wire.errorDescription }
    /// When the app saw the request.
    public var date: Date { wire.date }
    /// One line: the request and what answered it (`GET https://api.shop.test/api/cart -> 200 from "cart"`).
    public var description: String { wire.description }

    /// Reads an entry in the form the app sends.
    public init(from decoder: any Decoder) throws {
        wire = try WireJournalEntry(from: decoder)
    }

    /// Writes the entry in the form the app sends (to attach a journal to a test report, say).
    public func encode(to encoder: any Encoder) throws {
        try wire.encode(to: encoder)
    }
}
