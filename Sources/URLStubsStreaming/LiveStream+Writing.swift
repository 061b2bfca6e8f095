import Foundation
import URLStubs

/// What a test writes to a live stream: bytes, text, events, JSON lines, and its end.
extension LiveStream {

    /// Sends `data` as it is.
    /// - Throws: `StreamFailure.writeAfterEnd` after ``finish(fileID:line:)`` or ``fail(_:fileID:line:)``;
    ///   `StreamFailure.bufferFull` past the stream's `bufferLimit`;
    ///   `StreamFailure.notConnected` after the connected request went away.
    public func send(_ data: Data) throws {
        try write(.data(data), ending: nil)
    }

    /// Sends `text` as UTF-8.
    /// - Throws: `StreamFailure.writeAfterEnd` after ``finish(fileID:line:)`` or ``fail(_:fileID:line:)``.
    public func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    /// Sends one server-sent event, framed for `text/event-stream` (see ``ServerSentEvent``).
    /// - Throws: `StreamFailure.invalidEvent` for a field that cannot be framed;
    ///   `StreamFailure.writeAfterEnd` after the end.
    public func send(event: ServerSentEvent) throws {
        try send(try event.encoded())
    }

    /// Sends one NDJSON line, then `\n`. With an `encoder`, an `Encodable` value (a model of
    /// yours, or a dictionary, array, string or number) is written as that encoder writes it.
    /// Without one, `value` is written as compact JSON with sorted keys when it is made of
    /// `JSONSerialization` values (dictionaries, arrays, strings, numbers, `NSNull`), else, when
    /// it is `Encodable`, as a default `JSONEncoder` writes it.
    ///
    /// ```swift
    /// try lines.sendJSONLine(["id": 1, "name": "Ada"])   // {"id":1,"name":"Ada"}
    /// try lines.sendJSONLine(Price(teapot: 12))          // what JSONEncoder() writes
    /// try lines.sendJSONLine(Price(teapot: 12), encoder: snakeCase)
    /// ```
    /// - Throws: `StreamFailure.invalidJSONLine` when `value` is neither,
    ///   or the encoder writes several lines (`.prettyPrinted`); the encoder's error;
    ///   `StreamFailure.writeAfterEnd` after the end.
    public func sendJSONLine(_ value: Any, encoder: JSONEncoder? = nil) throws {
        let json: Data
        if let encoder, let encodable = value as? any Encodable {
            json = try encodedLine(encodable, encoder: encoder)
        } else if JSONSerialization.isValidJSONObject([value]) {
            json = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        } else if let encodable = value as? any Encodable {
            json = try encodedLine(encodable, encoder: JSONEncoder())
        } else {
            throw StubError.library(StreamFailure.invalidJSONLine(stream: description, reason: "\(type(of: value)) is not a JSON value"))
        }
        try send(json + Data("\n".utf8))
    }

    /// `value` as `encoder` writes it, which must be one line.
    private func encodedLine(_ value: any Encodable, encoder: JSONEncoder) throws -> Data {
        let json = try encoder.encode(value)
        if json.contains(UInt8(ascii: "\n")) || json.contains(UInt8(ascii: "\r")) {
            throw StubError.library(
                StreamFailure.invalidJSONLine(stream: description, reason: "the encoder wrote several lines (drop .prettyPrinted)"))
        }
        return json
    }

    /// Ends the body: the request finishes normally once the writes before it are delivered.
    /// - Parameters:
    ///   - fileID: Where the stream ends, for a later error; leave the default.
    ///   - line: The line where the stream ends; leave the default.
    /// - Throws: `StreamFailure.endedTwice` when the stream already ended.
    public func finish(fileID: String = #fileID, line: Int = #line) throws {
        try write(.finish, ending: "finished at \(fileID):\(line)")
    }

    /// Ends the body with `error`, like a connection lost mid-stream: the request fails with
    /// it once the writes before it are delivered.
    /// - Parameters:
    ///   - error: What the request fails with.
    ///   - fileID: Where the stream ends, for a later error; leave the default.
    ///   - line: The line where the stream ends; leave the default.
    /// - Throws: `StreamFailure.endedTwice` when the stream already ended.
    public func fail(_ error: any Error, fileID: String = #fileID, line: Int = #line) throws {
        try write(.failure(error), ending: "failed at \(fileID):\(line)")
    }
}
