import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
@testable import TestSupport

/// A cassette is a file the test names: one that cannot be found, read or written is a
/// `FixtureError`, as a fixture is.
@Suite("Cassette problems are FixtureErrors")
struct CassetteErrorDomainTests {
    @Test func aCassetteThatCannotBeWrittenIsAFixtureErrorNamingItsPath() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A regular file where the cassette's folder should be: no process can create it.
        let blocker = folder.appendingPathComponent("Recordings")
        try Data("not a folder".utf8).write(to: blocker)
        let cassette = blocker.appendingPathComponent("profile.har")
        var thrown: (any Error)?
        do { _ = try StubRegistry().record(to: cassette, mode: .all, environment: [:]) } catch { thrown = error }
        let error = try #require(thrown as? FixtureError, "\(String(describing: thrown))")
        #expect(error.kind == .unwritable && error.source == cassette.path && !error.found.isEmpty, "\(error)")
        #expect(error.description.hasPrefix("URLStubs: cannot record into the cassette \(cassette.path): creating its folder failed"), "\(error)")
    }

    @Test func aHARFileThatDoesNotExistIsNotFoundWithTheClosestNames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[]}}"#.utf8)
            .write(to: folder.appendingPathComponent("checkout.har"))
        var thrown: (any Error)?
        do { _ = try HAR.read(contentsOf: folder.appendingPathComponent("checkuot.har")) } catch { thrown = error }
        let error = try #require(thrown as? FixtureError, "\(String(describing: thrown))")
        #expect(error.kind == .notFound && error.searchedPath == folder.path && error.suggestions == ["checkout.har"], "\(error)")
    }
}
