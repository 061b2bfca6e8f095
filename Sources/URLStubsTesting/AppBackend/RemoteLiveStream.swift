import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsStreaming
import URLStubsTestRunnerLink

/// A response body the test writes while the app reads it: server-sent events, NDJSON, a
/// token stream, written from the test. Made by ``AppBackend/makeLiveStream(name:fileID:line:)``;
/// a response it is the body of crosses as a declaration's `{"stream": name}` body, whose
/// source the app's link attaches to its registry by that name.
///
/// ```swift
/// let prices = backend.makeLiveStream(name: "prices")
/// try await backend.stub(.get("/prices"), response: .stream(prices, headers: ["Content-Type": "text/event-stream"]))
/// try await prices.waitForConnection()
/// try await prices.send(event: ServerSentEvent(event: "price", data: #"{"teapot":12}"#))
/// try await prices.finish()
/// ```
///
/// Each write reaches the app when the call returns. A stream serves one request; writes before
/// the app connects are kept for it; a write after the end fails with the app's explanation.
public struct RemoteLiveStream: Sendable, CustomStringConvertible {
    let id: String
    /// `MyAppTests/PriceTests.swift:8`, where the test made it: the app's reports name it.
    let location: String
    private let backend: AppBackend

    init(id: String, location: String, backend: AppBackend) {
        self.id = id
        self.location = location
        self.backend = backend
    }

    /// `live stream "stream-2: prices"`.
    public var description: String { "live stream \"\(id)\"" }

    /// Waits until a request of the app has connected to the stream, and returns it.
    /// - Throws: `TestRunnerLinkError.appFailed(command:message:)` with the app's report when
    ///   none connected in time: every request the app saw, and why the matcher of each stub
    ///   answering with this stream refused it, closest first.
    @discardableResult
    public func waitForConnection(timeout: TimeInterval = 30) async throws -> AppJournalEntry {
        var command = WireMessage(.waitForStreamConnection)
        command.streamID = id
        command.location = location
        command.timeout = timeout
        let task = "wait for a request connected to the \(self)"
        guard let entry = try await backend.command(command, doing: task, waiting: timeout).entry else {
            throw TestRunnerLinkError.appFailed(command: task, message: "its reply names no request")
        }
        return AppJournalEntry(entry)
    }

    /// Sends `data` as it is.
    /// - Throws: `TestRunnerLinkError.invalidStub(problems:)` for a write past the link's 64 MiB
    ///   message limit (about 48 MB of bytes): write it in parts.
    public func send(_ data: Data) async throws {
        var command = WireMessage(.streamSend)
        command.streamID = id
        command.data = data
        _ = try await backend.command(command, doing: "write to the \(self)")
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) async throws {
        try await send(Data(text.utf8))
    }

    /// Sends one server-sent event, framed for `text/event-stream`.
    public func send(event: ServerSentEvent) async throws {
        try await send(try event.encoded())
    }

    /// Sends one NDJSON line: `object` (`JSONSerialization` values) as compact JSON, then `\n`.
    public func sendJSONLine(_ object: Any) async throws {
        try await send(try JSONValue(any: object).serialized() + Data("\n".utf8))
    }

    /// Ends the body: the app's request finishes normally.
    public func finish() async throws {
        var command = WireMessage(.streamFinish)
        command.streamID = id
        _ = try await backend.command(command, doing: "finish the \(self)")
    }

    /// Ends the body with `URLError(code)`, like a connection lost mid-stream.
    public func fail(_ code: URLError.Code) async throws {
        var command = WireMessage(.streamFail)
        command.streamID = id
        command.errorCode = code.rawValue
        _ = try await backend.command(command, doing: "fail the \(self)")
    }
}

extension RemoteResponse {
    /// A response whose body is `stream`, as written; give its `Content-Type`
    /// (`text/event-stream` for server-sent events), as with `StubResponse.stream(_:statusCode:headers:)`.
    public static func stream(_ stream: RemoteLiveStream, statusCode: Int = 200, headers: HeaderFields = [:]) -> RemoteResponse {
        RemoteResponse(ResponseDefinition(status: statusCode, headers: headers, body: .stream(stream.id)))
    }
}
