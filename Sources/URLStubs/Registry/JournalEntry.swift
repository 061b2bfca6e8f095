import Foundation

/// One request a registry saw, in the order it arrived.
///
/// ```swift
/// #expect(registry.journal.map(\.request.description) == ["GET https://api.example.com/users"])
/// ```
public struct JournalEntry: Sendable, CustomStringConvertible {
    /// The request, body included.
    public let request: StubRequest
    /// The stub that answered, or `nil` when none matched.
    public let stub: StubDescriptor?
    /// The status code answered, `nil` for an error or an unmatched request.
    public let statusCode: Int?
    /// The error the request was answered with, if any.
    public let errorDescription: String?
    /// When the request was seen.
    public let date: Date
    /// Set by the registry: no stub matched and the registry's policy sent the request to the
    /// network (``UnmatchedRequestPolicy/passThrough``).
    var wentToNetwork = false

    /// `true` when no stub answered the request.
    public var isUnmatched: Bool { stub == nil }

    /// `true` when the request went to the real network: no stub matched and the registry
    /// passes unmatched requests through, or the stub that matched answered with
    /// ``StubResponse/passthrough(_:)-(ResponseTransform...)``. The network's status is not
    /// recorded here (``StubRegistry/afterFinish(_:)`` sees the response).
    public var isPassedThrough: Bool {
        wentToNetwork || (stub != nil && statusCode == nil && errorDescription == nil)
    }

    /// One line: the request and what answered it.
    ///
    /// ```text
    /// GET https://api.test/users -> 200 from "users" (UserTests.swift:12)
    /// GET https://api.test/down -> error from "outage" (UserTests.swift:14): URLError(-1009)
    /// GET https://api.test/live -> passed through to the network by "live data" (UserTests.swift:16)
    /// GET https://api.test/other -> no stub matched; passed through to the network
    /// GET https://api.test/missing -> unmatched
    /// ```
    public var description: String {
        let outcome: String
        if let stub {
            if let statusCode {
                outcome = "\(statusCode) from \(stub)"
            } else if let errorDescription {
                outcome = "error from \(stub): \(errorDescription)"
            } else {
                outcome = "passed through to the network by \(stub)"
            }
        } else {
            outcome = wentToNetwork ? "no stub matched; passed through to the network" : "unmatched"
        }
        return "\(request) -> \(outcome)"
    }
}
