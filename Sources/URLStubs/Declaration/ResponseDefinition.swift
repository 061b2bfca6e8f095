import Foundation

/// What a declared stub answers, as data: a status, headers and a body, how slowly, and how it
/// fails. ``StubResponse`` values built without closures read and produce it
/// (``makeResponse(relativeTo:)`` and ``StubResponse/definition``).
///
/// ```swift
/// var answer = ResponseDefinition(status: 200, body: .json(["id": 1]))
/// answer.requestTime = 0.2
/// answer.downloadSpeed = 40          // KB/s: a 3G download
/// answer.failure = .afterBytes(1_000, errorCode: URLError.networkConnectionLost.rawValue)
/// ```
public struct ResponseDefinition: Sendable, Hashable {
    /// Where a body comes from.
    public enum Body: Sendable, Hashable {
        /// UTF-8 text.
        case text(String)
        /// Bytes (base64 in JSON).
        case bytes(Data)
        /// A JSON value, written with sorted keys; `Content-Type: application/json` unless the
        /// headers say otherwise.
        case json(JSONValue)
        /// A file: an absolute path, or one relative to the folder of the declaration's file
        /// (the current directory for a declaration made in code).
        case file(String)
    }

    /// How the answer ends other than by completing.
    public enum Failure: Sendable, Hashable {
        /// No head: the request fails with the `URLError` code after the request time.
        case error(code: Int)
        /// The head and the first bytes of the body, then the `URLError` code.
        case afterBytes(Int, errorCode: Int)
        /// Only the first bytes of the body, then the response finishes as if complete.
        case truncated(afterBytes: Int)
        /// Nothing: the request ends when it times out or is cancelled.
        case never
        /// The real network answers (the registry's passthrough).
        case passthrough
    }

    /// The status code, 100...599.
    public var status: Int
    /// The header fields in order; a name may repeat (`Set-Cookie` lines, which is also how
    /// a response sets cookies). A `3xx` with a `Location` is a redirect.
    public var headers: HeaderFields
    /// The body; `nil` for none.
    public var body: Body?
    /// Seconds before the head.
    public var requestTime: Double?
    /// Seconds over which the body is spread.
    public var responseTime: Double?
    /// The body's speed in kilobytes per second (``DownloadSpeed``).
    public var downloadSpeed: Double?
    /// The name of a gate that holds the answer until the test releases it
    /// (``StubRegistry/gate(named:)``).
    public var gate: String?
    /// How the answer ends other than by completing; `nil` when it completes.
    public var failure: Failure?

    /// A definition; with no argument, an empty `200`.
    public init(
        status: Int = 200, headers: HeaderFields = [:], body: Body? = nil, requestTime: Double? = nil, responseTime: Double? = nil,
        downloadSpeed: Double? = nil, gate: String? = nil, failure: Failure? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.downloadSpeed = downloadSpeed
        self.gate = gate
        self.failure = failure
    }
}
