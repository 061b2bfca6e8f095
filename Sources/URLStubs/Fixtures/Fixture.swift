import Foundation

/// A fixture file that could not be found: the name asked for, where it was looked for, and
/// the closest names that do exist.
public struct FixtureNotFoundError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The name asked for (`users.json`).
    public let name: String
    /// The folder that was searched.
    public let searchedPath: String
    /// Existing files with the most similar names, closest first.
    public let suggestions: [String]

    /// One sentence with the suggestions.
    public var description: String {
        var text = "URLStubs: no fixture named \"\(name)\" in \(searchedPath)."
        if !suggestions.isEmpty {
            text += " Did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
        }
        text += " Resources must be listed in the target's `resources:` (e.g. `.copy(\"Fixtures\")`)."
        return text
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

/// Finds fixture files in a bundle (SwiftPM's `Bundle.module`) or a folder.
public enum Fixture {
    /// The URL of `name` in `bundle`, optionally inside `subdirectory` (a folder copied with
    /// `.copy("Fixtures")` is `subdirectory: "Fixtures"`).
    /// - Throws: ``FixtureNotFoundError`` with the closest existing names.
    public static func url(_ name: String, in bundle: Bundle, subdirectory: String? = nil) throws -> URL {
        let base = subdirectory.map { bundle.bundleURL.appendingPathComponent($0) } ?? bundle.bundleURL
        if let resource = bundle.resourceURL {
            let candidate = subdirectory.map { resource.appendingPathComponent($0) } ?? resource
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(name).path) {
                return candidate.appendingPathComponent(name)
            }
        }
        return try url(name, inDirectory: base)
    }

    /// The URL of `name` (a relative path) inside `directory`.
    /// - Throws: ``FixtureNotFoundError`` with the closest existing names.
    public static func url(_ name: String, inDirectory directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return url
        }
        let folder = url.deletingLastPathComponent()
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        throw FixtureNotFoundError(name: name, searchedPath: folder.path,
                                   suggestions: closest(to: url.lastPathComponent, among: existing))
    }

    /// Up to three names within a small edit distance, closest first.
    static func closest(to name: String, among names: [String]) -> [String] {
        let target = Array(name.lowercased())
        let scored = names.map { ($0, editDistance(target, Array($0.lowercased()))) }
        let limit = max(2, target.count / 2)
        return scored.filter { $0.1 <= limit }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// A Content-Type for a file extension, `application/octet-stream` when unknown.
    public static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "json": return "application/json"
        case "html", "htm": return "text/html; charset=utf-8"
        case "txt", "text": return "text/plain; charset=utf-8"
        case "xml": return "application/xml"
        case "csv": return "text/csv"
        case "js": return "application/javascript"
        case "css": return "text/css"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "pdf": return "application/pdf"
        case "zip": return "application/zip"
        case "mp4": return "video/mp4"
        case "mp3": return "audio/mpeg"
        default: return "application/octet-stream"
        }
    }
}

extension StubResponse {
    /// A response whose body is a fixture file from a bundle, streamed, with a Content-Type
    /// from its extension (unless `headers` has one). A `.response` file is parsed as a whole
    /// HTTP message instead (status and headers from the file; `statusCode` is then ignored).
    ///
    /// ```swift
    /// registry.stub(isPath("/users")) { _ in try StubResponse(fixture: "users.json", in: .module, subdirectory: "Fixtures") }
    /// ```
    /// - Throws: ``FixtureNotFoundError`` naming the file, the folder searched and the
    ///   closest names; ``HTTPMessageError`` for a malformed `.response` file.
    public init(fixture name: String, in bundle: Bundle, subdirectory: String? = nil,
                statusCode: Int = 200, headers: [String: String] = [:]) throws {
        try self.init(fixtureAt: try Fixture.url(name, in: bundle, subdirectory: subdirectory),
                      statusCode: statusCode, headers: headers)
    }

    /// ``init(fixture:in:subdirectory:statusCode:headers:)`` for a file in a folder.
    public init(fixture name: String, inDirectory directory: URL,
                statusCode: Int = 200, headers: [String: String] = [:]) throws {
        try self.init(fixtureAt: try Fixture.url(name, inDirectory: directory), statusCode: statusCode, headers: headers)
    }

    private init(fixtureAt url: URL, statusCode: Int, headers: [String: String]) throws {
        if url.pathExtension.lowercased() == "response" {
            try self.init(httpMessageAt: url)
            return
        }
        var headers = headers
        if !headers.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
            headers["Content-Type"] = Fixture.contentType(forExtension: url.pathExtension)
        }
        self.init(fileAt: url, statusCode: statusCode, headers: headers)
    }
}
