import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// A file that could not be found or read is a `FixtureError` wherever it is met: a fixture, a
/// body file that went missing before its request ran, the readers behind the 0.1 spellings.
/// One `catch` covers them, with the folder searched and the closest names.
@Suite("File problems are FixtureErrors")
struct FixtureErrorDomainTests {
    @Test(arguments: FetchAPI.allCases)
    func aBodyFileMissingWhenItsRequestRunsFailsWithTheFolderSearched(api: FetchAPI) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("[]".utf8).write(to: folder.appendingPathComponent("users.json"))
        let registry = StubRegistry()
        registry.stub(isPath("/users")) { _ in StubResponse(bodyFileAt: folder.appendingPathComponent("user.json")) }
        let result = await fetch("https://api.test/users", from: registry, using: api)
        let error = try #require(result.error as? FixtureError, "\(api): \(String(describing: result.error))")
        #expect(error.kind == .notFound && error.source == "user.json" && error.searchedPath == folder.path, "\(api): \(error)")
        #expect(error.suggestions == ["users.json"], "\(api): \(error)")
        #expect(error.description.contains("\"user.json\" in \(folder.path)") && error.description.contains("\"users.json\""), "\(error)")
    }

    @Test func aBodyFileThatIsAFolderFailsAsUnreadableNamingThePath() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(bodyFileAt: folder) }
        let result = await fetch("https://api.test/folder", from: registry)
        let error = try #require(result.error as? FixtureError, "\(String(describing: result.error))")
        #expect(error.kind == .unreadable && error.source == folder.path, "\(error)")
        #expect(error.description.contains("is a folder, not a file: pass the path of the file inside it"), "\(error)")
    }

    @Test func theReadersBehindTheOldSpellingsThrowFixtureError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("HTTP/1.1 200 OK\r\n\r\n".utf8).write(to: folder.appendingPathComponent("user.response"))
        let missing = #expect(throws: FixtureError.self) { try StubResponse(httpMessageFileAt: folder.appendingPathComponent("users.response")) }
        #expect(missing?.kind == .notFound && missing?.searchedPath == folder.path && missing?.suggestions == ["user.response"])
        let sse = folder.appendingPathComponent("feed.sse")
        try FileManager.default.createDirectory(at: sse, withIntermediateDirectories: true)
        let folderError = #expect(throws: FixtureError.self) { try StubResponse(eventStreamFileAt: sse, statusCode: 200, headers: [:]) }
        #expect(folderError?.kind == .unreadable && folderError?.source == sse.path)
    }
}
