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
        /// A fixture: a file named relative to the declaration's folder, read by its extension
        /// as `StubResponse(fixture:)` reads it (a `.response` HTTP message, an `.sse` event
        /// stream, or a body with the Content-Type its extension implies).
        case fixture(String)
        /// A body that arrives over time from the registry's stream of that name: a live
        /// stream the test writes (`registry.liveStream(named:)` in URLStubsStreaming), or one
        /// another process writes over the UI-test link.
        case stream(String)
    }

    /// A failure of the connection itself, as a server's socket would show it.
    public enum NetworkFault: String, Sendable, Hashable, CaseIterable {
        /// The connection is reset before any response: in process, `URLError(.networkConnectionLost)`.
        case connectionReset
        /// The connection closes with no response at all: in process, `URLError(.networkConnectionLost)`.
        case emptyResponse
        /// A head, then a body chunk that is not valid chunked encoding: in process, the head
        /// and then `URLError(.networkConnectionLost)`.
        case malformedResponseChunk
        /// Bytes that are not HTTP, then the connection closes: in process,
        /// `URLError(.badServerResponse)`.
        case randomDataThenClose
    }

    /// A library's way of answering (``ResponseTransformer``): its name and its value.
    public struct Transformer: Sendable, Hashable {
        /// The registered name.
        public var name: String
        /// What the transformer is given (a template, parameters).
        public var value: JSONValue

        /// A transformer named `name` given `value`.
        public init(name: String, value: JSONValue) {
            self.name = name
            self.value = value
        }
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
        /// The connection fails as ``NetworkFault`` says.
        case fault(NetworkFault)
        /// The real network answers from another base: the request goes to `baseURL` followed
        /// by the request's path and query (after the base's own path), method, headers and
        /// body kept.
        case proxy(baseURL: String)
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
    /// A library's way of answering each request from this definition, if any.
    public var transformer: Transformer?

    /// A definition; with no argument, an empty `200`.
    public init(
        status: Int = 200, headers: HeaderFields = [:], body: Body? = nil, requestTime: Double? = nil, responseTime: Double? = nil,
        downloadSpeed: Double? = nil, gate: String? = nil, failure: Failure? = nil, transformer: Transformer? = nil
    ) {
        self.transformer = transformer
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
