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
    /// The status code answered, `nil` for an error or an unmatched request. A request passed
    /// through to the network gets the real status once the server answered.
    public internal(set) var statusCode: Int?
    /// The error the request was answered with, if any.
    public internal(set) var errorDescription: String?
    /// When the request was seen.
    public let date: Date
    /// The registry's number for this entry (set when it is recorded), to complete it later.
    var sequence: UInt64 = 0

    /// `true` when no stub answered the request.
    public var isUnmatched: Bool { stub == nil }

    /// `GET https://api.test/users -> 200 from "users" (File.swift:12)`.
    public var description: String {
        let outcome: String
        if let stub {
            outcome = statusCode.map { "\($0) from \(stub)" } ?? "error from \(stub): \(errorDescription ?? "")"
        } else {
            outcome = "unmatched"
        }
        return "\(request) -> \(outcome)"
    }
}
