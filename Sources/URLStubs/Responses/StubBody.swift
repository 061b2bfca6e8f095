import Foundation

/// The body of a ``StubResponse``, as its ``StubResponse/body``: the response's initializers
/// and factories say where it comes from (`data:`, `string:`, `json:`, `fixture:`;
/// URLStubsStreaming's `.stream(_:)` for a live stream, `.stream(script:)` for a scripted one),
/// and ``data`` reads the bytes of one held in memory:
///
/// ```swift
/// let example = try StubResponse(fixture: "user.json", in: .module)
/// let bytes = example.body.data    // nil: a fixture file is streamed, not held in memory
/// ```
///
/// Bodies are opened as an `InputStream` only when the
/// response is played, and read chunk by chunk as they are delivered, so a large file never
/// has to fit in memory.
public struct StubBody: Sendable {
    enum Source: Sendable {
        case data(Data)
        case file(URL)
        case stream(length: Int?, open: @Sendable () throws -> InputStream)
        /// Arriving over time: written by the test while the request runs, or on a schedule.
        case streamed(StreamedSource)
    }

    let source: Source

    /// `true` for a body sent as a sequence of writes rather than read from bytes
    /// (a live stream, a script, an `.sse` fixture).
    var isStreamed: Bool {
        switch source {
        case .streamed: return true
        case .data, .file, .stream: return false
        }
    }

    /// The in-memory bytes, when the body is data (`StubResponse(data:)`, `string:`, `json:`,
    /// a `.response` fixture, a HAR entry); `nil` for a file, a stream or a
    /// live body.
    public var data: Data? {
        if case .data(let data) = source { return data }
        return nil
    }

    /// Opens the body for reading and tells its length. A missing or unreadable file throws a
    /// ``FixtureError`` naming the path.
    package func open() throws -> (stream: InputStream, length: Int?) {
        switch source {
        case .data(let data):
            return (InputStream(data: data), data.count)
        case .file(let url):
            guard url.isFileURL else { throw FixtureFileCheck.error(url, .notAFileURL) }
            let path = url.path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Fixture.notFoundError(at: url)
            }
            guard !isDirectory.boolValue else {
                throw FixtureFileCheck.error(url, .directory)
            }
            guard FileManager.default.isReadableFile(atPath: path), let stream = InputStream(url: url) else {
                throw FixtureFileCheck.error(url, .unreadable(reason: "permission denied"))
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
            return (stream, size)
        case .stream(let length, let open):
            return (try open(), length)
        case .streamed:
            // Played write by write (ExchangePlayer+Stream), never read as a stream.
            return (InputStream(data: Data()), nil)
        }
    }

    /// The length known without opening anything.
    var knownLength: Int? {
        switch source {
        case .data(let data): return data.count
        case .file(let url):
            return (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
        case .stream(let length, _): return length
        case .streamed: return nil
        }
    }
}
