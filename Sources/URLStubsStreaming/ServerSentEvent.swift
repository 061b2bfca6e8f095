import Foundation
import URLStubs

/// One message of a `text/event-stream` (server-sent events), framed as the HTML standard's
/// parser reads it: optional comment lines, `event:`, `id:`, `retry:`, a `data:` line per line
/// of ``data``, and a blank line that dispatches the event.
///
/// ```swift
/// try stream.send(event: ServerSentEvent(event: "price", id: "41", data: #"{"teapot":12}"#))
/// try stream.send(event: ServerSentEvent(comment: "keep-alive"))   // a comment alone: a keep-alive
/// ```
///
/// - Important: A client dispatches an event only when its data is not empty: an event with an
///   `event` name but no ``data`` sets nothing off in a browser's `EventSource` (its `id` and
///   `retry` still apply). Give such events `data: ""` only if your client dispatches them.
public struct ServerSentEvent: Sendable, Equatable, CustomStringConvertible {
    /// The event type (`event:`); `nil` for the default, `message`.
    public var event: String?
    /// The event id (`id:`), which a client sends back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// The payload. Several lines become several `data:` lines, which the client joins with
    /// `\n` again. `nil` sends no `data:` line.
    public var data: String?
    /// The reconnection time in milliseconds (`retry:`).
    public var retry: Int?
    /// A comment (`: text`), ignored by clients: servers send one alone to keep a connection alive.
    public var comment: String?

    /// An event; every field is optional.
    public init(event: String? = nil, id: String? = nil, data: String? = nil, retry: Int? = nil, comment: String? = nil) {
        self.event = event
        self.id = id
        self.data = data
        self.retry = retry
        self.comment = comment
    }

    /// The message as it goes over the wire, ending with the blank line that dispatches it:
    /// what ``LiveStream/send(event:)`` and ``StreamStep/event(_:)`` send (``description`` shows
    /// it), and what the UI-test link and the benchmark write themselves.
    /// - Throws: `StreamFailure.invalidEvent` when a field cannot be framed: a
    ///   line break in ``event`` or ``id``, a NUL in ``id`` (clients ignore such ids), a
    ///   negative ``retry``.
    package func encoded() throws -> Data {
        Data(try framedText().utf8)
    }

    /// The framed text, for reading in a failure message.
    public var description: String {
        (try? framedText()) ?? "invalid event (\(problem ?? ""))"
    }

    /// The event as Swift spells it, its fields given (`ServerSentEvent(event: "a\nb", data: "x")`),
    /// for an error about it.
    var spelled: String {
        let fields: [(String, String?)] = [
            ("event", event?.debugDescription), ("id", id?.debugDescription), ("data", data?.debugDescription), ("retry", retry.map(String.init)),
            ("comment", comment?.debugDescription),
        ]
        return "ServerSentEvent(" + fields.compactMap { name, value in value.map { "\(name): \($0)" } }.joined(separator: ", ") + ")"
    }

    private var problem: String? {
        if let event, event.containsLineBreak { return "the event name \(event.debugDescription) holds a line break" }
        if let id, id.containsLineBreak { return "the id \(id.debugDescription) holds a line break" }
        if let id, id.unicodeScalars.contains("\0") { return "the id \(id.debugDescription) holds a NUL, which clients ignore" }
        if let retry, retry < 0 { return "retry is \(retry) ms; it must be 0 or more" }
        return nil
    }

    private func framedText() throws -> String {
        if let problem { throw StubError.library(StreamFailure.invalidEvent(spelled, reason: problem)) }
        var text = ""
        if let comment {
            for line in comment.eventStreamLines { text += ":" + (line.isEmpty ? "" : " " + line) + "\n" }
        }
        if let event { text += "event: \(event)\n" }
        if let id { text += "id: \(id)\n" }
        if let retry { text += "retry: \(retry)\n" }
        if let data {
            // One space after the colon, which the parser strips: a line's own leading space survives.
            for line in data.eventStreamLines { text += "data: \(line)\n" }
        }
        return text + "\n"
    }
}

extension String {
    var containsLineBreak: Bool {
        unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }

    /// The lines of a field value, split where the event-stream parser would split them
    /// (CRLF, CR or LF).
    var eventStreamLines: [String] {
        var lines: [String] = []
        var current = ""
        var afterCR = false
        for scalar in unicodeScalars {
            if afterCR, scalar == "\n" {
                afterCR = false
                continue
            }
            afterCR = false
            if scalar == "\r" || scalar == "\n" {
                lines.append(current)
                current = ""
                afterCR = scalar == "\r"
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }
}
