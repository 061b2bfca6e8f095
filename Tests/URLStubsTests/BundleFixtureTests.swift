import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// Fixtures in a copied folder: this test target declares `resources: [.copy("Resources")]`,
/// so its bundle holds `Resources/catalog.json`, as `.copy("Fixtures")` holds
/// `Fixtures/users.json` in a user's package.
@Suite("Fixtures in a bundle's copied folders")
struct BundleFixtureTests {
    @Test(arguments: FetchAPI.allCases)
    func fixtureInACopiedFolderIsFoundByName(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/catalog")) { _ in try StubResponse(fixture: "catalog.json", in: .module) }
        let result = await fetch("https://api.test/catalog", from: registry, using: api)
        #expect(result.body.contains("kettle"))
        #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try Fixture.url("catalog.json", in: .module).path.hasSuffix("Resources/catalog.json"))
        #expect(try Fixture.url("catalog.json", in: .module, subdirectory: "Resources").lastPathComponent == "catalog.json")
    }

    @Test func misspelledNameSuggestsThePathThatExists() throws {
        // Relative to the bundle's resources: "Resources/catalog.json" where the copied folder
        // is inside them (Apple platforms), "catalog.json" where Foundation takes a top-level
        // Resources folder for the resources themselves (Linux).
        #expect {
            try StubResponse(fixture: "catalogue.json", in: .module)
        } throws: { error in
            guard let error = error as? FixtureError, let suggestion = error.suggestions.first else { return false }
            return suggestion.hasSuffix("catalog.json")
                && (try? Fixture.url(suggestion, in: .module)) != nil
                && error.description.contains(#"Did you mean "\#(suggestion)"?"#)
                && !error.description.contains("resources:")  // they are declared: no hint to declare them
        }
    }

    @Test func wrongSubdirectoryPointsAtTheFolderThatHasTheFile() {
        #expect {
            try StubResponse(fixture: "catalog.json", in: .module, subdirectory: "Fixtures")
        } throws: { error in
            guard let error = error as? FixtureError else { return false }
            return error.suggestions.count == 1 && error.suggestions[0].hasSuffix("catalog.json")
                && error.searchedPath.hasSuffix("Fixtures")
        }
    }

    @Test func sameNameInSeveralFoldersAsksForASubdirectory() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-bundle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["Fixtures/v1", "Fixtures/v2"] {
            let directory = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(#"{"version":"\#(folder)"}"#.utf8).write(to: directory.appendingPathComponent("users.json"))
        }
        try Data("x".utf8).write(to: root.appendingPathComponent("Fixtures/only-once.txt"))
        let bundle = try #require(Bundle(url: root))

        #expect(try Fixture.url("only-once.txt", in: bundle).lastPathComponent == "only-once.txt")
        #expect {
            try Fixture.url("users.json", in: bundle)
        } throws: { error in
            guard let error = error as? FixtureError else { return false }
            return error.kind == .ambiguous && error.suggestions == ["Fixtures/v1/users.json", "Fixtures/v2/users.json"]
                && error.description.contains(#"subdirectory: "Fixtures/v1""#)
        }
        let chosen = try Fixture.url("users.json", in: bundle, subdirectory: "Fixtures/v2")
        #expect(try String(contentsOf: chosen, encoding: .utf8).contains("v2"))
    }

    @Test func emptyBundleSaysToDeclareTheResources() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let bundle = try #require(Bundle(url: root))
        #expect {
            try Fixture.url("users.json", in: bundle)
        } throws: { error in
            "\(error)".contains(#"`.copy("Fixtures")` copies the folder"#)
        }
    }
}
