import Foundation
import URLStubs

extension Scenario {
    /// The scenario folder at `url` read into declarations: one `StubDeclaration` per fixture
    /// file (and every declaration of a file a registered format reads, such as a `.har`
    /// archive), each named after its file and with the file as its source. (The manifest's
    /// network profile decides per request, so it is code: `Scenario.folder(_:)` applies it.)
    ///
    /// ```swift
    /// let folderURL = Bundle.main.url(forResource: "Scenarios/happy", withExtension: nil)!
    /// let happy = try Scenario.declarations(inFolder: folderURL)
    /// try registry.stub(happy, relativeTo: folderURL)     // or registry.activate(try Scenario.folder(folderURL))
    /// let json = try JSONEncoder().encode(happy)          // the same stubs, as one file
    /// ```
    ///
    /// The declarations say what the folder's convention says (``Scenario/folder(_:name:fileID:filePath:line:)``):
    /// `api/users/_id_/GET.json` is `{"method": "GET", "path": {"template": "/api/users/:id"}}`
    /// answered by `{"fixture": "api/users/_id_/GET.json"}` (typed by its extension); the
    /// manifest's host, headers, statuses and delays are parts of each declaration; a `graphql`
    /// folder's files name URLStubsGraphQL's pattern kinds. Their `fixture` and `file` bodies
    /// are relative to the folder.
    /// - Throws: `FixtureError` (`FixtureError.Kind.invalidFolder`) listing every problem of the
    ///   folder, each naming its file (and, for a file of declarations, the JSON path).
    public static func declarations(inFolder url: URL) throws -> [StubDeclaration] {
        try ScenarioFolder(url).declarations
    }
}

/// A scenario folder read: its declarations and its manifest's profile.
struct ScenarioFolder: Sendable {
    /// The folder.
    let url: URL
    /// The scenario's name (the folder's, unless given).
    let name: String
    /// The stubs of the folder, in the order they are registered (a later one wins where two
    /// answer the same request: literal paths after `_id_` folders, a query after none).
    let declarations: [StubDeclaration]
    /// The manifest's network profile, if any.
    let profile: NetworkProfile?

    /// Reads the scenario folder at `url`.
    /// - Throws: `FixtureError` (`FixtureError.Kind.invalidFolder`) listing every problem of the
    ///   folder, each naming its file (and, for a file of declarations, the JSON path).
    init(_ url: URL, name: String? = nil) throws {
        let read = Scenario.reading(url)
        guard read.problems.isEmpty else { throw Scenario.invalidFolder(url, problems: read.problems) }
        self.url = url
        self.name = name ?? url.lastPathComponent
        self.declarations = read.declarations
        self.profile = read.profile
    }

    /// Every scenario folder in `root`: one per sub-folder, by name. Problems of all folders
    /// are reported at once.
    /// - Throws: `FixtureError` (`FixtureError.Kind.invalidFolder`) listing every problem of
    ///   every folder, each naming its folder and file.
    static func all(in root: URL) throws -> [ScenarioFolder] {
        if let problem = Scenario.folderProblem(root) { throw Scenario.invalidFolder(root, problems: [problem]) }
        let children = ((try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.isDirectoryKey])) ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var folders: [ScenarioFolder] = []
        var problems: [String] = []
        for child in children {
            let read = Scenario.reading(child)
            if read.problems.isEmpty {
                folders.append(ScenarioFolder(url: child, name: child.lastPathComponent, declarations: read.declarations, profile: read.profile))
            }
            problems += read.problems.map { "\(child.lastPathComponent)/: \($0)" }
        }
        if children.isEmpty { problems.append("no scenario folders in \(root.path)") }
        guard problems.isEmpty else { throw Scenario.invalidFolder(root, problems: problems) }
        return folders
    }

    private init(url: URL, name: String, declarations: [StubDeclaration], profile: NetworkProfile?) {
        self.url = url
        self.name = name
        self.declarations = declarations
        self.profile = profile
    }

    /// The folder as a scenario to activate.
    var scenario: Scenario {
        Scenario(name: name, profile: profile, specs: [], declarations: declarations, folder: url)
    }
}
