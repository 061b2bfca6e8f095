import Foundation

/// One request a registry saw, in the order it arrived.
///
/// ```swift
/// #expect(registry.journal.map(\.request.description) == ["GET https://api.example.com/users"])
/// ```
public struct JournalEntry: Sendable, CustomStringConvertible {
    /// The request, body included (its first ``StubRegistry/journalBodyLimit`` bytes; see
    /// ``cutBodySize``).
    public private(set) var request: StubRequest
    /// The stub that answered, or `nil` when none matched.
    public let stub: StubDescriptor?
    /// The status code answered, `nil` for an error or an unmatched request. A request passed
    /// through to the network gets the real status once the server answered.
    public internal(set) var statusCode: Int?
    /// The error the request was answered with, if any.
    public internal(set) var errorDescription: String?
    /// When the request was seen.
    public let date: Date
    /// Set by the registry when the request goes to the real network: no stub matched and the
    /// registry passes unmatched requests through, or the stub answered with a passthrough.
    var wentToNetwork = false
    /// The registry's number for this entry (set when it is recorded), to complete it later.
    var sequence: UInt64 = 0
    /// The registry's ``StubRegistry/scrubbing`` when the request came: what ``description``
    /// hides.
    var scrubbing = Scrubbing.default
    /// The size of the request body as sent, when ``request`` holds only its first
    /// ``StubRegistry/journalBodyLimit`` bytes; `nil` when it holds all of it.
    public private(set) var cutBodySize: Int?

    /// Keeps at most `limit` bytes of the body.
    mutating func limitBody(to limit: Int) {
        guard let body = request.body, body.count > limit else { return }
        var urlRequest = request.urlRequest
        urlRequest.httpBody = nil
        urlRequest.httpBodyStream = nil
        cutBodySize = body.count
        request = StubRequest(
            urlRequest, body: Data(body.prefix(limit)), pathParameters: request.pathParameters,
            isBodyKnown: request.isBodyKnown)
    }

    /// `true` when no stub answered the request.
    public var isUnmatched: Bool { stub == nil }

    /// `true` when the request went to the real network: no stub matched and the registry
    /// passes unmatched requests through, or the stub that matched answered with
    /// ``StubResponse/passthrough(_:)-(ResponseTransform...)``. For a stub's passthrough,
    /// ``statusCode`` (or ``errorDescription``) is filled in once the server answered; an
    /// unmatched request is handed to the system's own loader, whose answer URLStubs never sees.
    public var isPassedThrough: Bool { wentToNetwork }

    /// One line: the request and what answered it.
    ///
    /// ```text
    /// GET https://api.test/users -> 200 from "users" (MyAppTests/UserTests.swift:12)
    /// GET https://api.test/down -> error from "outage" (MyAppTests/UserTests.swift:14): URLError(-1009)
    /// GET https://api.test/live -> 200 from the network (passed through by "live data" (MyAppTests/UserTests.swift:16))
    /// GET https://api.test/other -> passed through to the network (no stub matched)
    /// GET https://api.test/missing -> unmatched
    /// ```
    ///
    /// Secrets (``StubRegistry/scrubbing``: credential headers, and the query parameters and
    /// JSON fields it names) are printed as `<scrubbed>`.
    public var description: String {
        let outcome: String
        if wentToNetwork {
            let how = stub.map { "passed through by \($0)" } ?? "no stub matched"
            if let statusCode {
                outcome = "\(statusCode) from the network (\(how))"
            } else if let errorDescription {
                outcome = "error from the network (\(how)): \(errorDescription)"
            } else {
                outcome = "passed through to the network (\(how))"
            }
        } else if let stub {
            outcome = statusCode.map { "\($0) from \(stub)" } ?? "error from \(stub): \(errorDescription ?? "")"
        } else {
            outcome = "unmatched"
        }
        return ReportText.bounded(scrubbing.redactor(for: request).redact("\(request) -> \(outcome)"))
    }
}
