import Foundation
import Testing
import URLStubs
import URLStubsScenarios
@testable import TestSupport

/// A scenario folder is a folder of files the test names: its problems are a `FixtureError`.
/// A scenario asked for by a name no scenario has is a selection of stubs that does not exist,
/// as a record mode that does not exist is: a `StubError`.
@Suite("Scenario errors by domain")
struct ScenarioErrorDomainTests {
    @Test func aFolderWithProblemsIsAFixtureErrorListingThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("api/users"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent("api/users/FETCH.json"))
        var thrown: (any Error)?
        do { _ = try Scenario.folder(folder) } catch { thrown = error }
        let error = try #require(thrown as? FixtureError, "\(String(describing: thrown))")
        #expect(error.kind == .invalidFolder && error.source == folder.path && error.expected == "scenario folder", "\(error)")
        #expect(error.found.hasPrefix("api/users/FETCH.json"), "\(error.found)")
        #expect(error.description.hasPrefix("URLStubs: the scenario folder \(folder.path) has 1 problem:\n- api/users/FETCH.json"), "\(error)")
    }

    @Test func anUnknownScenarioNameIsAStubErrorListingTheKnownOnes() throws {
        var thrown: (any Error)?
        do {
            try ScenarioLauncher.activate(names: ["emtpy-cart"], available: [Scenario("empty-cart") { _ in }], into: StubRegistry())
        } catch { thrown = error }
        let error = try #require(thrown as? StubError, "\(String(describing: thrown))")
        #expect(error == .library(ScenarioFailure.unknownScenarios(["emtpy-cart"], known: ["empty-cart"])))
        #expect(error.description == "URLStubs: unknown scenario \"emtpy-cart\". Known scenarios: \"empty-cart\".")
    }
}
