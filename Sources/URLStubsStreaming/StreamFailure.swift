import Foundation
import URLStubs

/// A live stream, a scripted stream or a server-sent event misused: thrown as
/// `StubError.library(_:)` by the call that made the mistake (a `LiveStream` write), or failing
/// the request it was for (a second request to a connected stream).
///
/// ```swift
/// do {
///     try stream.send(update)
/// } catch StubError.library(StreamFailure.notConnected(_, let reason)) {
///     print("the app went away: \(reason)")
/// }
/// ```
public enum StreamFailure: LibraryFailure {
    /// A second request reached a `LiveStream` while another was connected to it.
    case liveStreamBusy(stream: String, stub: String)
    /// A request reached a `LiveStream` whose end an earlier request already received.
    case liveStreamEnded(stream: String, stub: String)
    /// A scripted stream (`StreamStep`s) holds a step that cannot be sent.
    case invalidStreamStep(stub: String, reason: String)
    /// A write after `LiveStream.finish()` or `LiveStream.fail(_:)`; `ended` says which, and
    /// where.
    case writeAfterEnd(stream: String, ended: String)
    /// `LiveStream.finish()` or `LiveStream.fail(_:)` on a stream that had already ended.
    case endedTwice(stream: String, ended: String)
    /// A server-sent event with a field that cannot be framed: the event as Swift spells it
    /// (`ServerSentEvent(event: "a\nb", data: "x")`), and what is wrong.
    case invalidEvent(String, reason: String)
    /// An NDJSON line that is not one line of JSON.
    case invalidJSONLine(stream: String, reason: String)
    /// A write that would leave more than the stream's `bufferLimit` bytes unsent.
    case bufferFull(stream: String, limit: Int, unsent: Int)
    /// A write after the connected request went away (`reason`), before another connected.
    case notConnected(stream: String, reason: String)

    /// The failure's number under `StubError.errorDomain` (16-18, 26-31).
    public var code: Int {
        switch self {
        case .liveStreamBusy: return 16
        case .liveStreamEnded: return 17
        case .invalidStreamStep: return 18
        case .writeAfterEnd: return 26
        case .endedTwice: return 27
        case .invalidEvent: return 28
        case .invalidJSONLine: return 29
        case .bufferFull: return 30
        case .notConnected: return 31
        }
    }

    /// What was wrong, and what to do.
    public var description: String {
        switch self {
        case .liveStreamBusy(let stream, let stub):
            return "URLStubs: \(StubError.theStub(stub)) answered with the \(stream), but another request is connected to it; "
                + "a live stream serves one request at a time. Give each connection its own LiveStream "
                + "(registry.stub(matcher, responses: [.stream(first), .stream(second)]))."
        case .liveStreamEnded(let stream, let stub):
            return "URLStubs: \(StubError.theStub(stub)) answered with the \(stream), which has ended and was already played to a request. "
                + "Give each connection its own LiveStream (registry.stub(matcher, responses: [.stream(first), .stream(second)]))."
        case .invalidStreamStep(let stub, let reason):
            return "URLStubs: the scripted stream of \(StubError.theStub(stub)) cannot be sent: \(reason)."
        case .writeAfterEnd(let stream, let ended):
            return "URLStubs: cannot write to the \(stream): it was \(ended), and nothing more reaches the app. "
                + "Write everything before finish(), or answer with a new LiveStream for a new connection."
        case .endedTwice(let stream, let ended):
            return "URLStubs: the \(stream) was already \(ended); a stream ends once (finish() or fail(_:))."
        case .invalidEvent(_, let reason):
            return "URLStubs: this server-sent event cannot be framed for text/event-stream: \(reason)."
        case .invalidJSONLine(let stream, let reason):
            return "URLStubs: cannot send an NDJSON line to the \(stream): \(reason)."
        case .bufferFull(let stream, let limit, let unsent):
            return "URLStubs: the \(stream) already holds \(unsent) bytes the app has not read (its bufferLimit is \(limit)). "
                + "Call `try await stream.waitForRoom()` before writing more, or make the stream with a larger bufferLimit."
        case .notConnected(let stream, let reason):
            return "URLStubs: nothing reads the \(stream) now: \(reason), and what it had not received was dropped. "
                + "Wait for the next request with `try await stream.waitForConnection()` before writing again."
        }
    }
}
