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
    /// The status of the response head the app received: `nil` while the request is in flight,
    /// and for a request that ended before any head reached the app (it failed, timed out, was
    /// cancelled, or no stub matched). A request passed through to the network gets the real
    /// status once the server answered.
    public internal(set) var statusCode: Int?
    /// The error the app's request ended with, if any: the stub's error, a timeout
    /// (`URLError(-1001)`), a cancel (`URLError(-999)`), a body cut short, a network failure.
    /// A request can have both a ``statusCode`` and an error: the head arrived, then the body
    /// failed.
    public internal(set) var errorDescription: String?
    /// The body bytes the app received (`0` while in flight).
    public internal(set) var bodyBytesDelivered = 0
    /// When the request was seen.
    public let date: Date
    /// Set by the registry when it records the request, as its exchange goes to the real
    /// network: no stub matched and the registry passes unmatched requests through, or the stub
    /// answered with a passthrough.
    var wentToNetwork = false
    /// `true` from the moment a stub took the request until its exchange ended.
    var isInFlight = false
    /// The registry's number for this entry (set when it is recorded), to complete it later.
    var sequence: UInt64 = 0
    /// The registry's ``StubRegistry/scrubbing`` when the request came: what ``description``
    /// hides.
    package internal(set) var scrubbing = Scrubbing.default
    /// The size of the request body as sent, when ``request`` holds only its first
    /// ``StubRegistry/journalBodyLimit`` bytes (or none, once newer entries' bodies fill the
    /// journal's 64 MB); `nil` when it holds all of it.
    public private(set) var cutBodySize: Int?

    /// Keeps at most `limit` bytes of the body.
    mutating func limitBody(to limit: Int) {
        guard let body = request.body, body.count > limit else { return }
        var urlRequest = request.urlRequest
        urlRequest.httpBody = nil
        urlRequest.httpBodyStream = nil
        cutBodySize = cutBodySize ?? body.count
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
    /// GET https://api.test/cut -> 200 from "cut" (MyAppTests/UserTests.swift:15), then URLError(-1005) after 512 bytes
    /// GET https://api.test/slow -> in flight, answered by "slow" (MyAppTests/UserTests.swift:17)
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
            if isInFlight {
                outcome = "in flight, answered by \(stub)"
            } else if let statusCode {
                let failure = errorDescription.map { ", then \($0) after \(bodyBytesDelivered) bytes" } ?? ""
                outcome = "\(statusCode) from \(stub)\(failure)"
            } else {
                outcome = "error from \(stub): \(errorDescription ?? "")"
            }
        } else {
            outcome = "unmatched"
        }
        return ReportText.bounded(scrubbing.redactor(for: request).redact("\(request) -> \(outcome)"))
    }
}
