import Foundation

/// A file a test names that could not be found, read, parsed or written: a fixture, an HTTP
/// message (`.response`), an event stream (`.sse`), a HAR archive, a scenario folder, a
/// recording's cassette, or a body file missing when its request runs.
///
/// Every spelling that reads or writes such a file throws it for every problem with the file:
/// missing, in several folders, unreadable (a folder, a FIFO or a file this process may not
/// read), malformed, not written (a full disk), or a folder with problems
/// (``StubResponse/init(fixture:in:subdirectory:statusCode:headers:)``,
/// ``StubResponse/init(fixture:statusCode:headers:)``, ``Fixture/url(_:in:subdirectory:)``,
/// ``Fixture/url(_:inDirectory:)``, `HAR.read(contentsOf:)`,
/// `StubRegistry.stubs(fromHAR:options:fileID:filePath:line:)`, `Scenario.folder(_:name:fileID:filePath:line:)`,
/// a recorder's `save()`), so one `catch` covers them. A body file that disappears after its
/// stub was made fails its request with this error too. ``kind`` says which problem it is;
/// ``description`` is the sentence to read, naming the file, the line or JSON path, what was
/// expected there and what was found:
///
/// ```swift
/// do {
///     try registry.stubs(fromHAR: try Fixture.url("checkout.har", in: .module))
/// } catch let error as FixtureError where error.kind == .notFound {
///     print(error.suggestions)   // the closest names that do exist
/// }
/// ```
public struct FixtureError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What is wrong with the file.
    public enum Kind: Sendable, Hashable {
        /// No file has the name asked for; ``suggestions`` holds the closest names.
        case notFound
        /// The name is in several folders of a bundle; ``suggestions`` holds each, to choose
        /// one with `subdirectory:`.
        case ambiguous
        /// The path is a folder, a FIFO or another special file, or a file this process may
        /// not read: ``source`` is the full path, ``description`` says which and what to do.
        case unreadable
        /// The file was read, but its content is not what its format needs.
        case malformed
        /// A file URLStubs writes (a recording's cassette) could not be written: ``source`` is
        /// its path, ``found`` what the system said (`No space left on device`); ``description``
        /// says what was kept and what to do.
        case unwritable
        /// A folder of fixture files (a scenario folder) has problems: ``source`` is the
        /// folder, ``expected`` what it was read as (`scenario folder`), ``found`` every
        /// problem, one a line, each naming its file.
        case invalidFolder
    }

    /// What is wrong with the file.
    public let kind: Kind
    /// The file: the name asked for when it is missing or ambiguous (`users.json`), the file
    /// read otherwise (`users.response`; the full path when the path itself is the problem),
    /// or the source name given for bytes in memory.
    public let source: String
    /// The folder searched for a missing or ambiguous name; empty for the other kinds.
    public let searchedPath: String
    /// The 1-based line of the problem in a text file (`.response`, `.sse`); 0 when the
    /// problem is not on a line (a missing file, a HAR document, which ``jsonPath`` places).
    public let line: Int
    /// Where in a JSON document the problem is (`$.log.entries[3].response.status`; `$` for
    /// the whole document); empty for other files.
    public let jsonPath: String
    /// What was expected there (`a header line "Name: value"`, `a number`).
    public let expected: String
    /// What was found instead, shortened; empty where ``expected`` already says it. For a file
    /// not written, what the system said; for a folder, its problems, one a line.
    public let found: String
    /// For a missing name, existing files with the most similar names, closest first; for a
    /// name in several folders, each of them. In a bundle, as paths relative to its resources
    /// (`Fixtures/users.json`).
    public let suggestions: [String]
    /// For a lookup in a bundle, how many files it holds (its resources may not be declared).
    let bundleFileCount: Int?
    /// The whole sentence, where the code that met the problem knows more than the fields
    /// hold (what a failed write kept, the problems of a folder as a list); `nil` otherwise.
    let explanation: String?

    private init(
        kind: Kind, source: String, searchedPath: String = "", line: Int = 0, jsonPath: String = "", expected: String,
        found: String = "", suggestions: [String] = [], bundleFileCount: Int? = nil, explanation: String? = nil
    ) {
        self.kind = kind
        self.source = source
        self.searchedPath = searchedPath
        self.line = line
        self.jsonPath = jsonPath
        self.expected = expected
        self.found = found
        self.suggestions = suggestions
        self.bundleFileCount = bundleFileCount
        self.explanation = explanation
    }

    /// No file named `name` in `folder`.
    static func notFound(_ name: String, in folder: String, suggestions: [String], bundleFileCount: Int? = nil) -> FixtureError {
        FixtureError(
            kind: .notFound, source: name, searchedPath: folder, expected: "a file named \"\(name)\"", found: "no such file",
            suggestions: suggestions, bundleFileCount: bundleFileCount)
    }

    /// `name` is at each of `matches` (relative to `folder`).
    static func ambiguous(_ name: String, in folder: String, matches: [String], bundleFileCount: Int?) -> FixtureError {
        FixtureError(
            kind: .ambiguous, source: name, searchedPath: folder, expected: "one file named \"\(name)\"",
            found: "\(matches.count) files", suggestions: matches, bundleFileCount: bundleFileCount)
    }

    /// A text file (`.response`, `.sse`) that does not read at `line`.
    static func malformed(_ source: String, line: Int, expected: String, found: String) -> FixtureError {
        FixtureError(kind: .malformed, source: source, line: line, expected: expected, found: found)
    }

    /// A JSON document (HAR) that does not read at `jsonPath`.
    package static func malformed(_ source: String, jsonPath: String, expected: String) -> FixtureError {
        FixtureError(kind: .malformed, source: source, jsonPath: jsonPath, expected: expected)
    }

    /// A path that is no readable regular file; `expected` says what it is and what to do.
    package static func unreadable(_ path: String, expected: String) -> FixtureError {
        FixtureError(kind: .unreadable, source: path, jsonPath: "$", expected: expected)
    }

    /// The file at `path` could not be written: `reason` is what the system said, `explanation`
    /// the whole sentence (which file, what was kept, what to do).
    package static func unwritable(_ path: String, reason: String, explanation: String) -> FixtureError {
        FixtureError(kind: .unwritable, source: path, expected: "a file this process can write", found: reason, explanation: explanation)
    }

    /// The folder at `path`, read as a `what` (`scenario folder`), has `problems`, each naming
    /// its file.
    package static func invalidFolder(_ path: String, readAs what: String, problems: [String]) -> FixtureError {
        let count = "\(problems.count) problem\(problems.count == 1 ? "" : "s")"
        return FixtureError(
            kind: .invalidFolder, source: path, expected: what, found: problems.joined(separator: "\n"),
            explanation: "URLStubs: the \(what) \(path) has \(count):\n" + problems.map { "- " + $0 }.joined(separator: "\n"))
    }

    /// The whole sentence: `users.response:3: expected a header line "Name: value", found
    /// "Content-Type application/json"`, `session.har: $.log.entries[3].response.status:
    /// expected a number`, or, for a missing name, the folder searched and the closest names;
    /// a lookup in a bundle that holds no files or has no close name adds a hint to declare the
    /// folder in the target's `resources:`. A file not written says what the system said, what
    /// was kept and what to do; a folder lists each of its problems on a line of its own.
    public var description: String {
        if let explanation { return explanation }
        switch kind {
        case .ambiguous:
            let folders = suggestions.map { "\"\($0)\"" }.joined(separator: ", ")
            let first = suggestions.first ?? source
            let folder = (first as NSString).deletingLastPathComponent
            return "URLStubs: \"\(source)\" is in several folders of \(searchedPath): \(folders). Choose one with "
                + "`subdirectory:`, e.g. `StubResponse(fixture: \"\((first as NSString).lastPathComponent)\", in: .module, subdirectory: \"\(folder)\")`."
        case .notFound:
            var text = "URLStubs: no file named \"\(source)\" in \(searchedPath)."
            if !suggestions.isEmpty {
                text += " Did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
            }
            if let bundleFileCount, bundleFileCount == 0 || suggestions.isEmpty {
                text +=
                    " Is it in the target's `resources:`? `.copy(\"Fixtures\")` copies the folder (its files are then found by"
                    + " name, or with `subdirectory: \"Fixtures\"`); `.process(\"Fixtures\")` copies the files alone."
            }
            return text
        case .unreadable, .malformed, .unwritable, .invalidFolder:
            if line > 0 { return "\(source):\(line): expected \(expected), found \(found)" }
            let place = jsonPath.isEmpty ? "" : "\(jsonPath): "
            return "\(source): \(place)expected \(expected)" + (found.isEmpty ? "" : ", found \(found)")
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
