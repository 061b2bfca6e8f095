import Foundation

/// A kind of file that holds stubs, read into declarations: the engine's seam for files, as
/// ``RequestPatternKind`` is for patterns, shared by this package's libraries (a program
/// registers a format by calling its library's function, such as `HAR.registerFormat()`).
/// URLStubsRecording registers HAR archives (`.har`) here; the engine reads its own JSON form
/// (`.stubs.json`, ``StubDeclaration/read(from:source:)``).
///
/// Whatever reads a folder of stubs (a scenario folder, `Scenario.har`) reads every registered
/// format by the file's name, so it needs no import of the library that defines the format.
///
/// ```swift
/// struct LinesFormat: DeclarationFileFormat {
///     let fileExtension = "paths"
///     func declarations(inFileAt url: URL) throws -> [StubDeclaration] {
///         try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { path in
///             StubDeclaration(request: RequestPattern(path: .equalTo(String(path))), response: ResponseDefinition(body: .text("ok")))
///         }
///     }
/// }
/// DeclarationFileFormats.register(LinesFormat())
/// ```
package protocol DeclarationFileFormat: Sendable {
    /// The end of the file names it reads, without the leading dot, lower-cased: `"har"`,
    /// `"stubs.json"`. The longest registered ending a file name has decides its format.
    var fileExtension: String { get }
    /// The declarations of the file at `url`, in order (a later one is newer), each with a
    /// ``StubDeclaration/source`` naming the file. A `file` body is relative to the file's folder.
    /// - Throws: An error naming the file and, where the format has one, the place in it.
    func declarations(inFileAt url: URL) throws -> [StubDeclaration]
}

/// The declaration file formats known in this process, by file name ending.
package enum DeclarationFileFormats {
    private static let formats = Locked<[String: any DeclarationFileFormat]>(["stubs.json": DeclarationJSONFile()])

    /// Libraries that define a format and how a program makes it known, for the error on a
    /// file no registered format reads.
    private static let knownProviders = ["har": "import URLStubsRecording and call HAR.registerFormat()"]

    /// Adds `format`, replacing one for the same file name ending.
    package static func register(_ format: some DeclarationFileFormat) {
        formats.withLock { $0[format.fileExtension.lowercased()] = format }
    }

    /// The registered format that reads a file named `fileName`: the one whose ending is the
    /// longest the name has (`users.stubs.json` is read as `stubs.json`, not `json`).
    package static func format(forFileNamed fileName: String) -> (any DeclarationFileFormat)? {
        let name = fileName.lowercased()
        return formats.withLock { formats in
            formats.filter { name.hasSuffix("." + $0.key) && name.count > $0.key.count + 1 }.max { $0.key.count < $1.key.count }?.value
        }
    }

    /// The registered file name endings, sorted (`["har", "stubs.json"]`).
    package static var fileExtensions: [String] {
        formats.withLock { $0.keys.sorted() }
    }

    /// The declarations in the file at `url`, read by the format its name ends with; a
    /// `StubError.invalidDeclaration` naming the file (and what to import and call for a
    /// format this package defines) when no registered format reads it.
    package static func declarations(inFileAt url: URL) throws -> [StubDeclaration] {
        guard let format = format(forFileNamed: url.lastPathComponent) else {
            throw StubError.invalidDeclaration(source: url.path, path: "$", problem: unknownFormatProblem(fileNamed: url.lastPathComponent))
        }
        return try format.declarations(inFileAt: url)
    }

    /// Why no registered format reads a file named `fileName`, and what to do.
    package static func unknownFormatProblem(fileNamed fileName: String) -> String {
        let ending = (fileName as NSString).pathExtension.lowercased()
        let hint = knownProviders[ending].map { "; to read .\(ending) files, \($0)" } ?? "; register a DeclarationFileFormat for it"
        return "no declaration file format reads \"\(fileName)\" (registered: "
            + fileExtensions.map { ".\($0)" }.joined(separator: ", ") + ")" + hint
    }
}

/// The engine's own JSON form in a file (`users.stubs.json`): what ``StubDeclaration/read(from:source:)`` reads.
private struct DeclarationJSONFile: DeclarationFileFormat {
    let fileExtension = "stubs.json"

    func declarations(inFileAt url: URL) throws -> [StubDeclaration] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StubError.invalidDeclaration(source: url.path, path: "$", problem: "the file cannot be read: \(error.localizedDescription)")
        }
        return try StubDeclaration.read(from: data, source: url.path)
    }
}

extension VolatileFields {
    /// The fields as data (`{"queryParameters": […], "headers": […], "jsonPaths": […]}`), for a
    /// format that writes its replay options into declarations; `VolatileFields(json:)` reads it.
    package var json: JSONValue {
        .object([
            "queryParameters": .array(queryParameters.sorted().map(JSONValue.string)), "headers": .array(headers.sorted().map(JSONValue.string)),
            "jsonPaths": .array(jsonPaths.map(JSONValue.string)),
        ])
    }
}
