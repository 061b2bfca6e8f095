import Foundation

/// Where a stubbed body comes from: ``StubResponse`` says most bodies itself (`data:`,
/// `string:`, `json:`, `fileAt:`, `fixture:`, `.stream(_:)`); a body read from an
/// `InputStream` of your own is ``stream(length:_:)``:
///
/// ```swift
/// StubResponse(body: .stream(length: 4_096) { InputStream(data: generated()) })
/// ```
///
/// Bodies are opened as an `InputStream` only when the
/// response is played, and read chunk by chunk as they are delivered, so a large file or a
/// generated stream never has to fit in memory.
public struct StubBody: Sendable {
    enum Source: Sendable {
        case data(Data)
        case file(URL)
        case stream(length: Int?, open: @Sendable () throws -> InputStream)
        /// Written by the test while the request runs (``LiveStream``).
        case live(LiveStream)
        /// Written on a schedule (``StreamStep``).
        case script([StreamStep])
    }

    let source: Source

    /// A stream made afresh for each request (a stream can be read only once).
    /// - Parameters:
    ///   - length: The number of bytes the stream yields, for `Content-Length` and pacing;
    ///     `nil` when unknown (pacing by `responseTime` then delivers at the end).
    ///   - open: Creates the stream; it may throw, failing the request with that error.
    public static func stream(length: Int?, _ open: @escaping @Sendable () throws -> InputStream) -> StubBody {
        StubBody(source: .stream(length: length, open: open))
    }

    /// `true` for a body sent as a sequence of writes rather than read from bytes
    /// (a ``LiveStream`` or a script of ``StreamStep``s).
    var isStreamed: Bool {
        switch source {
        case .live, .script: return true
        case .data, .file, .stream: return false
        }
    }

    /// The in-memory bytes, when the body is data.
    public var data: Data? {
        if case .data(let data) = source { return data }
        return nil
    }

    /// Opens the body for reading and tells its length. A missing or unreadable file throws a
    /// ``StubError`` naming the path.
    func open() throws -> (stream: InputStream, length: Int?) {
        switch source {
        case .data(let data):
            return (InputStream(data: data), data.count)
        case .file(let url):
            let path = url.path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw StubError.fileNotFound(path: path)
            }
            guard !isDirectory.boolValue else {
                throw StubError.fileUnreadable(path: path, reason: "it is a directory")
            }
            guard FileManager.default.isReadableFile(atPath: path), let stream = InputStream(url: url) else {
                throw StubError.fileUnreadable(path: path, reason: "permission denied")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
            return (stream, size)
        case .stream(let length, let open):
            return (try open(), length)
        case .live, .script:
            // Played write by write (ResponsePlayer+Stream), never read as a stream.
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
        case .live, .script: return nil
        }
    }
}
