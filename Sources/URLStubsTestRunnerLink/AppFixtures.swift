import Foundation
import URLStubs

/// Where the app finds the fixture files a UI test names (`RemoteResponse(fixture:statusCode:headers:)`
/// in URLStubsTesting: a declaration's `{"fixture": "users.json"}` body), given to
/// ``TestRunnerLink/connectIfLaunchedByTest(into:scenarios:fixtures:timeout:environment:)``.
///
/// The test names files inside that place only: an absolute path, a `..` component, or a
/// symbolic link that leads out of it is refused, so the link never serves the app's other
/// files (its container, its keychain exports) to whoever holds the token.
public enum AppFixtures {
    /// In a bundle, as `Fixture.url(_:in:subdirectory:)` looks (the app's own: `.main`).
    case bundle(Bundle, subdirectory: String? = nil)
    /// In a folder.
    case folder(URL)

    /// The folder a declaration whose body is the fixture `name` is registered relative to,
    /// once `name` is known to be a file inside this place.
    /// - Throws: `FixtureError` with the closest names when there is no such file; an error
    ///   naming the place when `name` leads out of it.
    func folder(for name: String) throws -> URL {
        let place: String
        let roots: [URL]
        let url: URL
        switch self {
        case .bundle(let bundle, let subdirectory):
            place = "the app's bundle \(bundle.bundleURL.lastPathComponent)" + (subdirectory.map { " (\($0))" } ?? "")
            roots = [bundle.resourceURL, bundle.bundleURL].compactMap { $0 }
                .map { subdirectory.map($0.appendingPathComponent) ?? $0 }
            if let escape = Self.escape(in: name) { throw Self.outside(name, place: place, because: escape) }
            url = try Fixture.url(name, in: bundle, subdirectory: subdirectory)
        case .folder(let folder):
            place = "the app's fixtures folder \(folder.path)"
            roots = [folder]
            if let escape = Self.escape(in: name) { throw Self.outside(name, place: place, because: escape) }
            url = try Fixture.url(name, inDirectory: folder)
        }
        // Where the name leads once every symbolic link on the way is followed.
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL
        let inside = roots.contains { root in
            let root = root.resolvingSymlinksInPath().standardizedFileURL.path
            return resolved.path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
        guard inside else { throw Self.outside(name, place: place, because: "a symbolic link leads to \(resolved.path)") }
        // The folder the name is relative to: the file's, less the folders the name has.
        return name.split(separator: "/").reduce(url) { folder, _ in folder.deletingLastPathComponent() }
    }

    /// Why `name` points out of the place by its spelling alone, or `nil`.
    private static func escape(in name: String) -> String? {
        if name.hasPrefix("/") { return "it is an absolute path" }
        if name.split(separator: "/").contains("..") { return "it has a \"..\" component" }
        return nil
    }

    private static func outside(_ name: String, place: String, because reason: String) -> WireProtocolError {
        WireProtocolError(
            "the fixture \"\(name)\" is outside \(place) (\(reason)): the link reads fixtures inside the place the app gave "
                + "connectIfLaunchedByTest only. Name a file inside it, relative to it.")
    }
}
