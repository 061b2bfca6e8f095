import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Loads scenarios from folders of fixture files, so a backend can be faked without code.
///
/// The convention uses only characters every file system, zip file and git accepts (no `:`,
/// `?`, `*` or spaces):
///
/// ```text
/// Scenarios/
///   happy/                      ← the scenario "happy"
///     scenario.json             ← optional manifest
///     api/users/GET.json        ← GET /api/users, the file is the body
///     api/users/POST.response   ← POST /api/users, a whole HTTP message (status, headers, body)
///     api/users/_id_/GET.json   ← GET /api/users/:id (a `_name_` folder is a path parameter)
///     api/search/GET[q=tea].json← GET /api/search?q=tea (the query must contain q=tea)
///     assets/logo/GET.png       ← any other extension: the body, Content-Type from the extension
///     api/graphql/GetUser.json  ← the GraphQL operation GetUser sent to /api/graphql (GET or POST)
///     api/graphql/GetUser[id=7].json ← the same operation with the variable id = 7
/// ```
///
/// Inside a folder named `graphql`, a file named after an operation (not a method) answers
/// that operation at the folder's path: `OperationName.json` is the whole response body
/// (`{"data": …}`), `OperationName.response` a whole HTTP message. Variables in brackets
/// compare by their text (`id=7` accepts `7` and `"7"`); a file with variables wins over the
/// one without.
///
/// The manifest (all keys optional):
///
/// ```json
/// {
///   "host": "api.shop.test",
///   "headers": {"X-Backend": "fake"},
///   "delay": 0.2,
///   "profile": {"downloadSpeed": 400, "latency": 0.1, "jitter": 0.05,
///               "failureRate": 0.1, "failures": ["timeout", "offline", "serverError"], "seed": 7},
///   "files": {"api/users/GET.json": {"status": 206, "headers": {"X-Page": "1"}, "delay": 1.5}}
/// }
/// ```
///
/// Every problem in a folder (an unknown method, a bad manifest key, an unreadable file) is
/// reported together in one `FixtureError` of kind `FixtureError.Kind.invalidFolder`, whose
/// `found` lists them, one a line.
extension Scenario {
    /// The methods a file name may start with.
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// The scenario in `folder` (named after the folder unless `name` is given): the
    /// declarations of ``declarations(inFolder:)``, registered through `registry.stub(_:relativeTo:)`
    /// when it is activated.
    /// - Throws: `FixtureError` (`FixtureError.Kind.invalidFolder`) listing every problem of the
    ///   folder, each naming its file.
    public static func folder(
        _ folder: URL, name: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> Scenario {
        try ScenarioFolder(folder, name: name).scenario
    }

    /// `problems` of the folder at `url`, as the error to throw.
    static func invalidFolder(_ url: URL, problems: [String]) -> FixtureError {
        FixtureError.invalidFolder(url.path, readAs: "scenario folder", problems: problems)
    }

    /// The declarations and profile of `folder`, or every problem that keeps it from being a
    /// scenario.
    static func reading(_ folder: URL) -> (declarations: [StubDeclaration], profile: NetworkProfile?, problems: [String]) {
        if let problem = folderProblem(folder) { return ([], nil, [problem]) }
        var problems: [String] = []
        let manifest = readManifest(in: folder, problems: &problems)
        var declarations: [StubDeclaration] = []
        let files = listFiles(in: folder)
        // Files of stubs first: the body files their declarations name are theirs, not fixtures.
        var bodies: Set<String> = []
        for relative in files where isDeclarationFile(relative) {
            let read = makeDeclarations(relative, in: folder, manifest: manifest, problems: &problems)
            for body in read.flatMap({ [$0.response.body] + $0.followingResponses.map(\.body) }) {
                switch body {
                case .file(let path)?, .fixture(let path)?: bodies.insert(path)
                default: break
                }
            }
            declarations += read
        }
        for relative in files where relative != "scenario.json" && !isDeclarationFile(relative) && !bodies.contains(relative) {
            declarations += makeDeclarations(relative, in: folder, manifest: manifest, problems: &problems)
        }
        for key in manifest.files.keys.sorted() where !files.contains(key) {
            problems.append("scenario.json: \"files\" names \(key), which does not exist")
        }
        if files.filter({ $0 != "scenario.json" }).isEmpty {
            problems.append("the folder holds no fixture files")
        }
        guard problems.isEmpty else { return ([], nil, problems) }
        // Most specific last in the folder, so precedence never depends on listing order:
        // literal paths are added after (and so win over) parameterised ones, and a file with a
        // query or variables after the one without.
        declarations = declarations.enumerated().sorted { lhs, rhs in
            func rank(_ declaration: StubDeclaration) -> (Int, Int) {
                let name = declaration.name ?? ""
                return (name.contains("/:") ? 0 : 1, name.contains("[") ? 1 : 0)
            }
            let left = rank(lhs.element), right = rank(rhs.element)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        return (declarations, manifest.profile, [])
    }

    /// Every scenario in `root`: one per sub-folder. Problems of all folders are reported at once.
    /// - Throws: `FixtureError` (`FixtureError.Kind.invalidFolder`) listing every problem of
    ///   every folder, each naming its folder and file.
    public static func folders(in root: URL) throws -> [Scenario] {
        try ScenarioFolder.all(in: root).map(\.scenario)
    }

    // MARK: Manifest

    struct Manifest {
        var host: String?
        var headers: [String: String] = [:]
        var delay: TimeInterval = 0
        var profile: NetworkProfile?
        var files: [String: FileOverride] = [:]
    }

    struct FileOverride {
        var status: Int?
        var headers: [String: String] = [:]
        var delay: TimeInterval?
    }

    private static func readManifest(in folder: URL, problems: inout [String]) -> Manifest {
        var manifest = Manifest()
        let url = folder.appendingPathComponent("scenario.json")
        let data: Data
        do {
            data = try RegularFile.contents(of: url)
        } catch RegularFile.Problem.missing {
            return manifest
        } catch let problem as RegularFile.Problem {
            problems.append("scenario.json \(problem.explanation)")
            return manifest
        } catch {
            problems.append("scenario.json: \(error)")
            return manifest
        }
        let json: JSONValue
        do {
            json = try JSONValue.parsing(data)
        } catch {
            let verdict = JSONValue.verdict(of: error) ?? "is not valid JSON: \(error)"
            problems.append("scenario.json: expected a JSON object, but the file \(verdict)")
            return manifest
        }
        guard case .object(let root) = json else {
            problems.append("scenario.json: expected a JSON object")
            return manifest
        }
        let known: Set<String> = ["host", "headers", "delay", "profile", "files"]
        for key in root.keys.sorted() where !known.contains(key) {
            problems.append("scenario.json: unknown key \"\(key)\" (expected one of \(known.sorted().joined(separator: ", ")))")
        }
        if let host = root["host"] {
            if case .string(let text) = host {
                manifest.host = text.lowercased()
            } else {
                problems.append("scenario.json: \"host\" must be a string")
            }
        }
        manifest.headers = strings(root["headers"], at: "scenario.json: \"headers\"", problems: &problems)
        if let delay = seconds(root["delay"], at: "scenario.json: \"delay\"", problems: &problems) { manifest.delay = delay }
        if let profile = root["profile"] { manifest.profile = readProfile(profile, problems: &problems) }
        if let files = root["files"] {
            guard case .object(let entries) = files else {
                problems.append("scenario.json: \"files\" must be an object keyed by file path")
                return manifest
            }
            for (path, value) in entries {
                guard case .object(let fields) = value else { problems.append("scenario.json: files[\"\(path)\"] must be an object"); continue }
                var override = FileOverride()
                for key in fields.keys.sorted() where !["status", "headers", "delay"].contains(key) {
                    problems.append("scenario.json: files[\"\(path)\"] has unknown key \"\(key)\" (expected status, headers, delay)")
                }
                if let status = fields["status"] {
                    if let code = status.numericValue, code >= 100, code < 600 {
                        override.status = Int(code)
                    } else {
                        problems.append("scenario.json: files[\"\(path)\"].status must be a status code from 100 to 599")
                    }
                }
                override.headers = strings(fields["headers"], at: "scenario.json: files[\"\(path)\"].headers", problems: &problems)
                if let delay = seconds(fields["delay"], at: "scenario.json: files[\"\(path)\"].delay", problems: &problems) {
                    override.delay = delay
                }
                manifest.files[path] = override
            }
        }
        return manifest
    }

    private static func strings(_ value: JSONValue?, at place: String, problems: inout [String]) -> [String: String] {
        guard let value else { return [:] }
        guard case .object(let members) = value else { problems.append("\(place) must be an object of strings"); return [:] }
        var result: [String: String] = [:]
        for (key, member) in members {
            if case .string(let text) = member { result[key] = text } else { problems.append("\(place)[\"\(key)\"] must be a string") }
        }
        return result
    }

    /// A delay in seconds (a number, 0 or more), or `nil` with a problem for anything else.
    private static func seconds(_ value: JSONValue?, at place: String, problems: inout [String]) -> TimeInterval? {
        guard let value else { return nil }
        if let seconds = value.numericValue, seconds >= 0 { return seconds }
        problems.append("\(place) must be a number of seconds")
        return nil
    }

    private static func readProfile(_ value: JSONValue, problems: inout [String]) -> NetworkProfile? {
        guard case .object(let fields) = value else { problems.append("scenario.json: \"profile\" must be an object"); return nil }
        func number(_ key: String) -> Double? {
            guard let field = fields[key] else { return nil }
            if let n = field.numericValue, n >= 0 { return n }
            problems.append("scenario.json: profile.\(key) must be a non-negative number")
            return nil
        }
        let known: Set<String> = ["downloadSpeed", "latency", "jitter", "failureRate", "failures", "seed"]
        for key in fields.keys.sorted() where !known.contains(key) {
            problems.append("scenario.json: profile has unknown key \"\(key)\" (expected \(known.sorted().joined(separator: ", ")))")
        }
        var failures = NetworkProfile.Failure.allCases
        if let list = fields["failures"] {
            if case .array(let names) = list {
                failures = names.compactMap { name in
                    guard case .string(let text) = name, let failure = NetworkProfile.Failure(rawValue: text) else {
                        problems.append("scenario.json: profile.failures holds \(name); expected \"timeout\", \"offline\" or \"serverError\"")
                        return nil
                    }
                    return failure
                }
            } else {
                problems.append("scenario.json: profile.failures must be an array")
            }
        }
        if let seed = number("seed"), UInt64(exactly: seed.rounded(.down)) == nil {
            problems.append("scenario.json: profile.seed must be a whole number below 2^64")
        }
        let downloadSpeed = number("downloadSpeed")
        if let speed = downloadSpeed, !(speed > 0 && speed.isFinite) {
            problems.append("scenario.json: profile.downloadSpeed must be a positive number of KB/s (400 is 3G)")
        }
        if let rate = number("failureRate"), rate > 1 { problems.append("scenario.json: profile.failureRate must be between 0 and 1") }
        return NetworkProfile(
            downloadSpeed: downloadSpeed.map { .kilobytesPerSecond($0) },
            latency: number("latency") ?? 0, jitter: number("jitter") ?? 0,
            failureRate: number("failureRate") ?? 0, failures: failures,
            seed: UInt64(exactly: (number("seed") ?? 0).rounded(.down)) ?? 0)
    }
}
