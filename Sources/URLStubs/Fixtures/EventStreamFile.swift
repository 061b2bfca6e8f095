import Foundation

extension StubResponse {
    /// A `text/event-stream` response replayed from a file (an `.sse` fixture), one event per
    /// write, with the file's timing.
    ///
    /// The file is what the server sent: events separated by blank lines. A comment line
    /// `: delay 0.5s` (or `: delay 250ms`) pauses that long before the event it belongs to, and
    /// is not sent; after the last event it holds the stream open that long before it ends.
    /// Every other line, comments included, goes out byte for byte.
    ///
    /// ```text
    /// event: price
    /// data: {"teapot":12}
    ///
    /// : delay 1s
    /// event: price
    /// data: {"teapot":13}
    ///
    /// ```
    ///
    /// The response is paced like any other body on top of those pauses (`.requestTime(_:responseTime:)`,
    /// `.downloadSpeed(_:)`). `StubResponse(fixture: "prices.sse", in: .module)` reads a fixture
    /// this way too.
    ///
    /// The 0.1 spelling `StubResponse(eventStreamAt:)`, which URLStubsMigration keeps, reads the
    /// file this way.
    ///
    /// - Throws: ``FixtureError``: ``FixtureError/Kind/notFound`` or
    ///   ``FixtureError/Kind/unreadable`` for the path, ``FixtureError/Kind/malformed`` naming
    ///   the line of a `: delay` whose duration cannot be read.
    package init(eventStreamFileAt url: URL, statusCode: Int, headers: HeaderFields) throws {
        try self.init(eventStream: try FixtureFileCheck.contents(of: url), path: url.path, statusCode: statusCode, headers: headers)
    }

    /// The event stream in `contents`, the bytes of the `.sse` file at `path`.
    /// - Throws: ``FixtureError`` (``FixtureError/Kind/malformed``) naming the line of a
    ///   `: delay` whose duration cannot be read.
    init(eventStream contents: Data, path: String, statusCode: Int, headers: HeaderFields) throws {
        let steps = try EventStreamFile.steps(of: contents, path: path)
        self.init(streamedBody: { _, _, _ in .scripted(steps) }, statusCode: statusCode, headers: Self.eventStreamHeaders(headers))
    }

    /// `headers` with `text/event-stream`'s `Content-Type` and `Cache-Control: no-cache` unless
    /// given: what an `.sse` fixture answers with, and URLStubsMigration's `eventStream`
    /// spellings and the UI-test link's event streams too.
    package static func eventStreamHeaders(_ headers: HeaderFields) -> HeaderFields {
        var headers = headers
        if !headers.contains(name: "Content-Type") {
            headers["Content-Type"] = "text/event-stream"
        }
        if !headers.contains(name: "Cache-Control") {
            headers["Cache-Control"] = "no-cache"
        }
        return headers
    }
}

/// Reads a recorded `text/event-stream` into a script: an event (with the blank line that
/// ends it) per write, after the pause of its `: delay` comments.
enum EventStreamFile {
    static func steps(of contents: Data, path: String) throws -> [(pause: TimeInterval, write: StreamedWrite)] {
        var steps: [(pause: TimeInterval, write: StreamedWrite)] = []
        var block = Data()
        var pause: TimeInterval = 0
        func flush() {
            guard !block.isEmpty else { return }
            steps.append((pause, .data(block)))
            block = Data()
            pause = 0
        }
        for (number, line) in lines(of: contents).enumerated() {
            let text = String(decoding: line.content, as: UTF8.self)
            switch delay(in: text) {
            case .pause(let seconds):
                pause += seconds
                continue
            case .unreadable(let expected, let found):
                throw FixtureError.malformed(path, line: number + 1, expected: expected, found: found)
            case .notADelay:
                break
            }
            block.append(line.content)
            block.append(line.terminator)
            if line.content.isEmpty, !line.terminator.isEmpty { flush() }
        }
        flush()
        // A pause after the last event holds the stream open that long before it ends.
        steps.append((pause, .finish))
        return steps
    }

    /// The lines of `contents`, each with the terminator it had (CRLF, CR, LF, or none at the end).
    static func lines(of contents: Data) -> [(content: Data, terminator: Data)] {
        var lines: [(Data, Data)] = []
        let bytes = [UInt8](contents)
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                var end = index + 1
                if byte == UInt8(ascii: "\r"), end < bytes.count, bytes[end] == UInt8(ascii: "\n") { end += 1 }
                lines.append((Data(bytes[start..<index]), Data(bytes[index..<end])))
                start = end
                index = end
            } else {
                index += 1
            }
        }
        if start < bytes.count { lines.append((Data(bytes[start...]), Data())) }
        return lines
    }

    enum DelayLine: Equatable {
        case notADelay
        case pause(TimeInterval)
        /// A `: delay` line whose duration cannot be read: what a delay line looks like, and the line.
        case unreadable(expected: String, found: String)
    }

    /// What a line says about timing.
    static func delay(in line: String) -> DelayLine {
        guard line.hasPrefix(":") else { return .notADelay }
        let afterColon = line.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard afterColon.hasPrefix("delay") else { return .notADelay }
        let afterWord = afterColon.dropFirst("delay".count)
        guard let separator = afterWord.first, separator == " " || separator == "\t" else { return .notADelay }
        var value = afterWord.trimmingCharacters(in: .whitespaces)
        var scale = 1.0
        if value.hasSuffix("ms") {
            value.removeLast(2)
            scale = 0.001
        } else if value.hasSuffix("s") {
            value.removeLast()
        }
        guard let number = Double(value.trimmingCharacters(in: .whitespaces)), number.isFinite, number >= 0 else {
            return .unreadable(expected: "a pause such as \": delay 0.5s\" or \": delay 250ms\"", found: line.debugDescription)
        }
        return .pause(number * scale)
    }
}
