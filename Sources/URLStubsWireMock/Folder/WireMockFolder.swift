import Foundation
import URLStubs

/// A WireMock mapping folder, read as WireMock's standalone server reads its root:
/// `mappings/**/*.json` (each file one mapping or `{"mappings": [ … ]}`) and `__files/`, where a
/// response's `bodyFileName` is found.
///
/// ```swift
/// let folder = try WireMockFolder(contentsOf: URL(fileURLWithPath: "Fixtures/wiremock"))
/// for entry in folder.mappings {   // the order WireMock tries them in
///     print(entry.file, entry.mapping.request.url as Any)
/// }
/// ```
///
/// Only the mappings are kept in memory: a body file is referenced by its URL (checked to be a
/// regular file inside `__files/`) and read when its response is sent, so a folder of
/// thousands of mappings with large bodies loads in memory proportional to the mappings.
///
/// - Important: The order is WireMock's: priority first (1 before 5), then the mapping loaded
///   last first. WireMock loads files in the order the file system lists them, which differs
///   between machines; URLStubs loads them in sorted path order (`a/x.json` before `b.json`
///   before `c/`, comparing path components as text), and a file's mappings in the order it
///   lists them, so that of two mappings with the same priority the later one in that order
///   wins, on every machine.
public struct WireMockFolder: Sendable {
    /// One mapping of the folder and where it came from.
    public struct Entry: Sendable {
        /// The mapping as read.
        public let mapping: WireMockMapping
        /// Its file, relative to the folder (`mappings/users/get.json`).
        public let file: String
        /// Its place in the file (0 for a file of one mapping).
        public let indexInFile: Int
        /// Its place in the order mappings were loaded: a higher number is newer.
        public let loadIndex: Int
        /// The body file of a `bodyFileName` response, resolved inside `__files/`; `nil` for
        /// other bodies, and for a templated name (resolved per request with
        /// ``WireMockFolder/bodyFileURL(for:)``).
        public let bodyFile: URL?
        /// The response's templates, read at load, when the response is templated; `nil` otherwise.
        public let templates: WireMockResponseTemplates?
        /// A `jsonBody`'s compact text, cut from the file (members in the file's order, as
        /// WireMock sends them); `nil` for other bodies.
        let jsonBodyText: String?
    }

    /// The folder.
    public let root: URL
    /// The mappings, in the order WireMock tries them: priority ascending, then newest first.
    public let mappings: [Entry]

    /// Reads the folder at `root`. Every problem of every file is collected, so one error lists
    /// them all.
    ///
    /// A templated response (`"transformers": ["response-template"]`) has its templates read
    /// now, its body file's too (unless `disableBodyFileTemplating`); a template that does not
    /// parse is one of the problems, with its file, JSON path and position.
    ///
    /// - Parameters:
    ///   - root: the folder holding `mappings/` and `__files/` (WireMock's `--root-dir`).
    ///   - globalTemplating: read every response as a template (WireMock's
    ///     `--global-response-templating`); templated body file names are then checked per request.
    /// - Throws: `FixtureError`: `.unreadable` when `root` is no folder or holds no `mappings/`
    ///   folder; `.invalidFolder` listing each problem (a file that is not JSON, with its line and
    ///   column; a mapping WireMock or URLStubs refuses, with its JSON path; a `bodyFileName`
    ///   that leaves `__files/` or names no file), each naming its file.
    public init(contentsOf root: URL, globalTemplating: Bool = false) throws {
        try self.init(contentsOf: root, globalTemplating: globalTemplating, keepsJSONBodyValues: true)
    }

    /// Reads the folder; with `keepsJSONBodyValues` false, a `jsonBody` is kept only as its
    /// text (``Entry/jsonBodyText``) and its mapping holds `.json(.null)` in its place, unless
    /// the response is templated or has a `delayDistribution` (their JSON travels in the
    /// declaration): for registering, which needs nothing else (see ``JSONBodyCut``).
    init(contentsOf root: URL, globalTemplating: Bool, keepsJSONBodyValues: Bool) throws {
        let root = root.standardizedFileURL
        self.root = root
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FixtureError.unreadable(root.path, expected: "a WireMock folder (holding mappings/ and __files/); there is no folder here")
        }
        let mappingsFolder = root.appendingPathComponent("mappings")
        guard manager.fileExists(atPath: mappingsFolder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FixtureError.unreadable(
                root.path, expected: "a WireMock folder holding a mappings/ folder (as WireMock's --root-dir does); it has none")
        }
        let files = BodyFiles(folder: root.appendingPathComponent("__files"))
        var entries: [Entry] = []
        var problems: [String] = []
        for file in Self.jsonFiles(under: mappingsFolder) {
            let relative = "mappings/" + file.relativePath
            let data: Data
            do {
                data = try Data(contentsOf: file.url)
            } catch {
                problems.append("\(relative): could not be read (\(error.localizedDescription))")
                continue
            }
            var mappings: [WireMockMapping] = []
            var listed = false
            var cutBodies: [Int: String] = [:]
            if !keepsJSONBodyValues, let cut = JSONBodyCut(data), let read = try? WireMockMapping.read(cut.skeleton, source: relative),
                read.mappings.indices.allSatisfy({ cut.bodies[$0] == nil || read.mappings[$0].response.body == .json(.null) })
            {
                (mappings, listed) = read
                cutBodies = cut.bodies
            } else {
                // The whole file, for its values or for the error that names the line and column.
                do {
                    (mappings, listed) = try WireMockMapping.read(data, source: relative)
                } catch {
                    problems.append(String(describing: error))
                    continue
                }
            }
            for (index, read) in mappings.enumerated() {
                var mapping = read
                var bodyFile: URL?
                if case .file(let name)? = mapping.response.body,
                    !(mapping.response.isTemplated(globalTemplating: globalTemplating) && name.contains("{{"))
                {
                    do {
                        bodyFile = try files.resolve(name)
                    } catch {
                        let problem = error as? BodyFiles.Problem ?? BodyFiles.Problem(text: "\(error)")
                        let place = mappings.count > 1 ? "$.mappings[\(index)].response.bodyFileName" : "$.response.bodyFileName"
                        problems.append("\(relative): \(place): \(problem.text)")
                        continue
                    }
                }
                var jsonBodyText: String?
                if let cut = cutBodies[index] {
                    jsonBodyText = cut
                    if mapping.response.isTemplated(globalTemplating: globalTemplating) || mapping.response.delayDistribution != nil {
                        // Checked as JSON when cut: the engine's reader reads it (a surrogate pair aside).
                        mapping.response.body = .json((try? JSONValue.parsing(Data(cut.utf8))) ?? .null)
                    }
                } else if case .json? = mapping.response.body {
                    let place: [RawJSONText.Step] = listed ? [.member("mappings"), .index(index)] : []
                    jsonBodyText = RawJSONText.compactValue(in: data, at: place + [.member("response"), .member("jsonBody")])
                }
                var templates: WireMockResponseTemplates?
                if mapping.response.isTemplated(globalTemplating: globalTemplating) {
                    do {
                        templates = try WireMockResponseTemplates(
                            mapping.response, source: relative, jsonPath: mappings.count > 1 ? "$.mappings[\(index)]" : "$", bodyFile: bodyFile,
                            jsonBodyText: jsonBodyText)
                    } catch {
                        problems.append(String(describing: error))
                        continue
                    }
                }
                entries.append(
                    Entry(
                        mapping: mapping, file: relative, indexInFile: index, loadIndex: entries.count, bodyFile: bodyFile, templates: templates,
                        jsonBodyText: jsonBodyText))
            }
        }
        if !problems.isEmpty { throw FixtureError.invalidFolder(root.path, readAs: "WireMock folder", problems: problems) }
        mappings = Self.wireMockOrder(entries)
    }

    /// `entries` in the order WireMock tries them: priority ascending, then newest (highest
    /// load index) first.
    static func wireMockOrder(_ entries: [Entry]) -> [Entry] {
        entries.sorted {
            $0.mapping.effectivePriority != $1.mapping.effectivePriority
                ? $0.mapping.effectivePriority < $1.mapping.effectivePriority : $0.loadIndex > $1.loadIndex
        }
    }

    /// The body file `name` names (a `bodyFileName`, or a templated one once rendered), checked
    /// as at load: inside `__files/` (no `..` above it, no absolute path, no symbolic link
    /// leading out) and a regular file.
    ///
    /// - Throws: `FixtureError` (`.unreadable`) naming the file and what is wrong.
    public func bodyFileURL(for name: String) throws -> URL {
        do {
            return try BodyFiles(folder: root.appendingPathComponent("__files")).resolve(name)
        } catch {
            let text = (error as? BodyFiles.Problem)?.text ?? "\(error)"
            throw FixtureError.unreadable(root.appendingPathComponent("__files").path + "/" + name, expected: text)
        }
    }

    /// The `.json` files under `folder`, in sorted path order, with their paths relative to it.
    static func jsonFiles(under folder: URL) -> [(url: URL, relativePath: String)] {
        var found: [(URL, String)] = []
        var pending: [(URL, String)] = [(folder, "")]
        let manager = FileManager.default
        while let (directory, prefix) = pending.popLast() {
            let names = ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            var subfolders: [(URL, String)] = []
            for name in names {
                let url = directory.appendingPathComponent(name)
                var isFolder: ObjCBool = false
                guard manager.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
                if isFolder.boolValue {
                    subfolders.append((url, prefix + name + "/"))
                } else if name.hasSuffix(".json") {
                    found.append((url, prefix + name))
                }
            }
            pending += subfolders.reversed()
        }
        return found.sorted { $0.1.split(separator: "/").lexicographicallyPrecedes($1.1.split(separator: "/")) }
    }
}
