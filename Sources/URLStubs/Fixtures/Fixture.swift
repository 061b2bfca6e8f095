import Foundation

/// Finds fixture files in a bundle (SwiftPM's `Bundle.module`) or a folder.
public enum Fixture {
    /// How many files of a bundle are looked at to find a fixture in its folders.
    static let bundleFileLimit = 20_000

    /// The URL of `name` in `bundle`.
    ///
    /// Without `subdirectory`, `name` is looked for at the top of the bundle's resources, then in
    /// every folder below (SwiftPM's `.copy("Fixtures")` keeps the folder, so `users.json` is
    /// at `Fixtures/users.json`). With `subdirectory`, only in that folder.
    ///
    /// ```swift
    /// try Fixture.url("users.json", in: .module)                            // Fixtures/users.json
    /// try Fixture.url("users.json", in: .module, subdirectory: "Fixtures/v2") // when several hold it
    /// ```
    /// - Throws: ``FixtureError`` (``FixtureError/Kind/notFound``) with the closest existing
    ///   names, or (``FixtureError/Kind/ambiguous``) every folder that holds `name` when there
    ///   are several.
    public static func url(_ name: String, in bundle: Bundle, subdirectory: String? = nil) throws -> URL {
        // Apple bundles keep resources in `Contents/Resources` (macOS) or at the top (iOS); on
        // Linux `resourceURL` is a top-level `Resources` folder when one exists (as with
        // `.copy("Resources")`), the bundle itself otherwise. Look in both.
        var roots = [bundle.resourceURL, bundle.bundleURL].compactMap { $0?.standardizedFileURL }
        if roots.count == 2, roots[0].path == roots[1].path { roots.removeLast() }
        if let subdirectory {
            for root in roots {
                let candidate = root.appendingPathComponent(subdirectory).appendingPathComponent(name)
                if isFile(candidate) { return candidate }
            }
            let folders = roots.map { $0.appendingPathComponent(subdirectory).appendingPathComponent(name).deletingLastPathComponent() }
            let folder = folders.first { FileManager.default.fileExists(atPath: $0.path) } ?? folders[0]
            let here = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            var suggestions = closest(to: (name as NSString).lastPathComponent, among: here)
            let files = roots.lazy.map(bundleFiles(under:)).first { !$0.isEmpty } ?? []
            // The right name in the wrong folder: point at the folder that has it.
            suggestions += files.filter { $0 == name || $0.hasSuffix("/" + name) }
            throw FixtureError.notFound(name, in: folder.path, suggestions: suggestions, bundleFileCount: files.count)
        }
        for root in roots where isFile(root.appendingPathComponent(name)) {
            return root.appendingPathComponent(name)
        }
        var listings: [[String]] = []
        for root in roots {
            let files = bundleFiles(under: root)
            listings.append(files)
            let matches = files.filter { $0.hasSuffix("/" + name) }
            if matches.count == 1 { return root.appendingPathComponent(matches[0]) }
            if matches.count > 1 {
                throw FixtureError.ambiguous(name, in: root.path, matches: matches, bundleFileCount: files.count)
            }
        }
        let files = listings.first { !$0.isEmpty } ?? []
        throw FixtureError.notFound(
            name, in: roots[0].path, suggestions: closestPaths(to: name, among: files), bundleFileCount: files.count)
    }

    private static func isFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Every file below `root` as a relative path, shallowest first, then alphabetically.
    static func bundleFiles(under root: URL) -> [String] {
        let rootPath = root.standardizedFileURL.resolvingSymlinksInPath().path
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        var files: [String] = []
        for case let url as URL in enumerator {
            guard files.count < bundleFileLimit else { break }
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard path.hasPrefix(rootPath + "/") else { continue }
            files.append(String(path.dropFirst(rootPath.count + 1)))
        }
        return files.sorted { lhs, rhs in
            let (left, right) = (lhs.split(separator: "/").count, rhs.split(separator: "/").count)
            return left != right ? left < right : lhs < rhs
        }
    }

    /// Up to three paths whose file name is close to `name`'s, closest first.
    private static func closestPaths(to name: String, among paths: [String]) -> [String] {
        let wanted = (name as NSString).lastPathComponent
        let byFileName = Dictionary(grouping: paths) { ($0 as NSString).lastPathComponent }
        return closest(to: wanted, among: Array(byFileName.keys)).flatMap { byFileName[$0] ?? [] }.prefix(3).map { $0 }
    }

    /// The URL of `name` (a relative path) inside `directory`.
    /// - Throws: ``FixtureError`` (``FixtureError/Kind/notFound``) with the closest existing names.
    public static func url(_ name: String, inDirectory directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        var isDirectory: ObjCBool = false
        if url.isFileURL, FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return url
        }
        throw notFoundError(at: url, name: name)
    }

    /// No file at `url` (asked for as `name`): the folder searched and the closest names in it;
    /// for a URL that is not a file's, that it is not.
    package static func notFoundError(at url: URL, name: String? = nil) -> FixtureError {
        guard url.isFileURL else { return FixtureFileCheck.error(url, .notAFileURL) }
        let folder = url.deletingLastPathComponent()
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return FixtureError.notFound(
            name ?? url.lastPathComponent, in: folder.path, suggestions: closest(to: url.lastPathComponent, among: existing))
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
    package static func mediaType(forExtension ext: String) -> String {
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
        case "sse": return "text/event-stream"
        default: return "application/octet-stream"
        }
    }
}

extension StubResponse {
    /// A response whose body is a fixture file from a bundle, streamed, with a Content-Type
    /// from its extension (unless `headers` has one). A `.response` file is parsed as a whole
    /// HTTP message instead (status and headers from the file; `statusCode` is then ignored), and
    /// an `.sse` file is replayed event by event with its timing (`: delay 1s` comment lines pause).
    ///
    /// The file is looked up as ``Fixture/url(_:in:subdirectory:)`` says: with the target's
    /// `resources: [.copy("Fixtures")]`, `"users.json"` finds `Fixtures/users.json`.
    ///
    /// ```swift
    /// registry.stub(isPath("/users")) { _ in try StubResponse(fixture: "users.json", in: .module) }
    /// ```
    /// - Throws: ``FixtureError`` naming the file, the folder searched and the closest names
    ///   (or the folders to choose from with `subdirectory:`), or, for a malformed `.response`
    ///   or `.sse` file, the line and what was expected there.
    public init(
        fixture name: String, in bundle: Bundle, subdirectory: String? = nil,
        statusCode: Int = 200, headers: HeaderFields = [:]
    ) throws {
        try self.init(
            fixtureAt: try Fixture.url(name, in: bundle, subdirectory: subdirectory),
            statusCode: statusCode, headers: headers)
    }

    /// A fixture file at `url`, read as ``init(fixture:in:subdirectory:statusCode:headers:)``
    /// reads it: by its extension (`.response`, `.sse`, or a body streamed with a Content-Type).
    ///
    /// ```swift
    /// let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// registry.stub(isPath("/users")) { _ in try StubResponse(fixture: fixtures.appendingPathComponent("users.response")) }
    /// ```
    /// - Throws: ``FixtureError``: ``FixtureError/Kind/notFound`` with the closest names in the
    ///   file's folder; ``FixtureError/Kind/unreadable`` for a folder, a FIFO or another special
    ///   file, or a file this process may not read; for a malformed `.response` or `.sse` file,
    ///   ``FixtureError/Kind/malformed`` with the line and what was expected there.
    public init(fixture url: URL, statusCode: Int = 200, headers: HeaderFields = [:]) throws {
        try self.init(fixtureAt: url, statusCode: statusCode, headers: headers)
    }

    /// The fixture at `url`, read by its extension. A `.response` or `.sse` file is read whole
    /// now; a body file is checked now and streamed when a request comes.
    /// - Throws: ``FixtureError`` for a missing, unreadable or malformed file.
    package init(fixtureAt url: URL, statusCode: Int, headers: HeaderFields) throws {
        if url.pathExtension.lowercased() == "response" {
            try self.init(httpMessageData: try FixtureFileCheck.contents(of: url), source: url.lastPathComponent)
            return
        }
        if url.pathExtension.lowercased() == "sse" {
            try self.init(eventStream: try FixtureFileCheck.contents(of: url), path: url.path, statusCode: statusCode, headers: headers)
            return
        }
        try FixtureFileCheck.checkReadable(url)
        var headers = headers
        if !headers.contains(name: "Content-Type") {
            headers["Content-Type"] = Fixture.mediaType(forExtension: url.pathExtension)
        }
        self.init(bodyFileAt: url, statusCode: statusCode, headers: headers)
    }
}
