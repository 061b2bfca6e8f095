import Foundation

/// Misuse of a ``LiveStream``, thrown by the call that made it.
public enum LiveStreamError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// A write after ``LiveStream/finish(fileID:line:)`` or ``LiveStream/fail(_:fileID:line:)``;
    /// `ended` says which, and where.
    case writeAfterEnd(stream: String, ended: String)
    /// ``LiveStream/finish(fileID:line:)`` or ``LiveStream/fail(_:fileID:line:)`` on a stream
    /// that had already ended.
    case endedTwice(stream: String, ended: String)
    /// A server-sent event with a field that cannot be framed.
    case invalidEvent(ServerSentEvent, reason: String)
    /// An NDJSON line that is not one line of JSON.
    case invalidJSONLine(stream: String, reason: String)
    /// A write that would leave more than the stream's `bufferLimit` bytes unsent.
    case bufferFull(stream: String, limit: Int, unsent: Int)
    /// A write after the connected request went away (`reason`), before another connected.
    case notConnected(stream: String, reason: String)

    /// The full explanation.
    public var description: String {
        switch self {
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

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
