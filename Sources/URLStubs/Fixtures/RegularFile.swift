import Foundation

/// Reads a file that must be a regular file (a cassette, a scenario's manifest), checking its
/// kind first: a folder, a FIFO or a device at the path is a clear problem, never a raw
/// `NSError` and never a read that waits (opening a FIFO for reading blocks until a writer
/// comes).
package enum RegularFile {
    /// Why the path cannot be read as a regular file.
    package enum Problem: Error, Equatable {
        /// Nothing is at the path.
        case missing
        /// The path is a folder.
        case directory
        /// The path is a FIFO, a socket or a device: `kind` names it.
        case special(kind: String)
        /// The file exists but could not be read: `reason` says why.
        case unreadable(reason: String)
        /// The URL is not a file's (`https://…`): nothing on disk was looked at.
        case notAFileURL

        /// `is a folder`, for "<path> is a folder": what the path is, and what to do.
        package var explanation: String {
            switch self {
            case .missing: return "does not exist"
            case .directory: return "is a folder, not a file: pass the path of the file inside it"
            case .special(let kind): return "is \(kind), not a regular file: pass the path of a file (it is not read, a read could wait forever)"
            case .unreadable(let reason): return "cannot be read (\(reason)): check that the file's permissions let this process read it"
            case .notAFileURL:
                return "is not a file URL: pass a file's URL, such as URL(fileURLWithPath: path) or Bundle.module.url(forResource:withExtension:)"
            }
        }
    }

    /// What is wrong with the kind of thing at `url` (symbolic links followed), without opening
    /// it; `nil` for a regular file.
    static func kindProblem(at url: URL) -> Problem? {
        guard url.isFileURL else { return .notAFileURL }
        let path = url.resolvingSymlinksInPath().path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            return FileManager.default.fileExists(atPath: path) ? Problem.unreadable(reason: reason(of: error)) : Problem.missing
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeRegular?: return nil
        case .typeDirectory?: return Problem.directory
        case .typeCharacterSpecial?, .typeBlockSpecial?: return Problem.special(kind: "a device")
        case .typeSocket?: return Problem.special(kind: "a socket")
        default: return Problem.special(kind: "a FIFO (named pipe) or another special file")
        }
    }

    /// The bytes of the regular file at `url` (symbolic links followed).
    package static func contents(of url: URL) throws -> Data {
        if let problem = kindProblem(at: url) { throw problem }
        let path = url.resolvingSymlinksInPath().path
        guard FileManager.default.isReadableFile(atPath: path) else { throw Problem.unreadable(reason: "permission denied") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Problem.unreadable(reason: reason(of: error))
        }
    }

    /// The bytes of the regular file at `url`; a ``Problem`` is thrown as the error `failure`
    /// makes of it.
    static func contents(of url: URL, failing failure: (Problem) -> any Error) throws -> Data {
        do {
            return try contents(of: url)
        } catch let problem as Problem {
            throw failure(problem)
        }
    }

    /// How a message names `url`: its path for a file URL, the whole URL otherwise (the path
    /// of `https://host/a/b` alone would read as a file `/a/b`).
    package static func displayName(of url: URL) -> String {
        url.isFileURL ? url.path : url.absoluteString
    }

    /// The POSIX reason behind a Foundation file error when there is one (`Permission denied`),
    /// else the error's own description.
    private static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}

/// An archive path (a HAR file) that is not a readable regular file, as a ``FixtureError`` naming
/// the full path.
package enum ArchiveFileCheck {
    /// The bytes of the cassette at `url`.
    /// - Throws: ``FixtureError``: ``FixtureError/Kind/notFound`` with the closest names in its
    ///   folder when nothing is there, ``FixtureError/Kind/unreadable`` when the path is a
    ///   folder, a special file or unreadable.
    package static func contents(of url: URL) throws -> Data {
        try RegularFile.contents(of: url) { $0 == .missing ? Fixture.notFoundError(at: url) : error(url, $0) }
    }

    /// Throws when something other than a regular file is at `url` (nothing there is fine: a
    /// recording writes it), before a recorder records into it.
    package static func checkWritable(_ url: URL) throws {
        guard let problem = RegularFile.kindProblem(at: url), problem != .missing else { return }
        if case .unreadable = problem { return }
        throw error(url, problem)
    }

    private static func error(_ url: URL, _ problem: RegularFile.Problem) -> FixtureError {
        let name = RegularFile.displayName(of: url)
        return FixtureError.unreadable(name, expected: "a HAR file, but \(name) \(problem.explanation)")
    }
}

/// A fixture path (`StubResponse(fixture:)`) that is not a readable regular file, as a
/// ``FixtureError``: nothing there is ``FixtureError/Kind/notFound`` with the closest names in
/// its folder, anything else (a folder, a FIFO, a file this process may not read)
/// ``FixtureError/Kind/unreadable`` with the path and the reason. Nothing is opened before the
/// kind is known, so a FIFO never stalls the caller.
enum FixtureFileCheck {
    /// The bytes of the fixture at `url` (a `.response` or `.sse` file, read whole).
    static func contents(of url: URL) throws -> Data {
        try RegularFile.contents(of: url) { error(url, $0) }
    }

    /// Throws when the fixture at `url` could not be read, without reading it (a body streamed
    /// when a request comes).
    static func checkReadable(_ url: URL) throws {
        if let problem = RegularFile.kindProblem(at: url) { throw error(url, problem) }
        guard FileManager.default.isReadableFile(atPath: url.resolvingSymlinksInPath().path) else {
            throw error(url, .unreadable(reason: "permission denied"))
        }
    }

    /// `problem` of the fixture at `url`, as the error to throw.
    static func error(_ url: URL, _ problem: RegularFile.Problem) -> FixtureError {
        if problem == .missing { return Fixture.notFoundError(at: url) }
        let name = RegularFile.displayName(of: url)
        return FixtureError.unreadable(name, expected: "a fixture file, but \(name) \(problem.explanation)")
    }
}
