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
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
