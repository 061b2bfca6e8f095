import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsMigration
import URLStubsRecording
import URLStubsScenarios
import URLStubsTesting
@testable import TestSupport

/// The error names 0.2 folded into one type per domain still compile with URLStubsMigration: a
/// `catch` by the old name catches what the library now throws, and the old cases still build
/// the values the library throws. (Tests marked deprecated may call deprecated API without a
/// warning.)
@Suite("Retired error names forward")
struct RetiredErrorSpellingTests {
    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func requestWaitTimeoutCatchesATimedOutWaitWithWhatMatchedAndTheOthers() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(statusCode: 204) }
        _ = await fetch("https://api.test/ping", from: registry)
        _ = await fetch("https://api.test/pong", from: registry)
        do {
            _ = try await registry.waitForRequests(matching: isPath("/ping"), count: 2, timeout: 0.2)
            Issue.record("expected a timeout")
        } catch let error as RequestWaitTimeout {
            #expect(error.matched.map(\.request.description) == ["GET https://api.test/ping"])
            #expect(error.others.map(\.request.description) == ["GET https://api.test/pong"])
            #expect(error.description.hasPrefix("URLStubs: waited 0.2 s for 2 requests matching path is \"/ping\"; 1 arrived:"), "\(error)")
        }
        #expect(registry.verify().matched.isEmpty && registry.verify().others.isEmpty)
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func cassetteWriteErrorCatchesACassetteThatCannotBeWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("Recordings")
        try Data("not a folder".utf8).write(to: blocker)
        let cassette = blocker.appendingPathComponent("profile.har")
        do {
            _ = try StubRegistry().record(to: cassette, mode: .all, environment: [:])
            Issue.record("expected the recording to fail")
        } catch let error as CassetteWriteError {
            #expect(error.path == cassette.path && error.reason == error.found && !error.reason.isEmpty, "\(error)")
        }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func scenarioErrorCatchesAFolderWithProblemsAndItsCasesStillBuild() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try Scenario.folder(folder)
            Issue.record("expected an empty folder to fail")
        } catch let error as ScenarioError {
            #expect(error == ScenarioError.invalidFolder(path: folder.path, problems: ["the folder holds no fixture files"]), "\(error)")
        }
        let unknown: StubError = ScenarioError.unknownScenarios(["nope"], known: ["happy"])
        #expect(unknown == .library(ScenarioFailure.unknownScenarios(["nope"], known: ["happy"])))
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func theStubErrorFileCasesBuildTheFixtureErrorsTheLibraryThrows() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("x".utf8).write(to: folder.appendingPathComponent("users.json"))
        let missing = folder.appendingPathComponent("user.json")
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(bodyFileAt: missing) }
        let result = await fetch("https://api.test/users", from: registry)
        #expect(result.error as? FixtureError == StubError.fileNotFound(path: missing.path))
        let unreadable = StubError.fileUnreadable(path: folder.path, reason: "it is a folder")
        #expect(unreadable.kind == .unreadable && unreadable.source == folder.path && unreadable.description.contains("it is a folder"))
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func appBackendErrorIsTheLinksErrorAndNoAnswerStillBuilds() async throws {
        let backend = try AppBackend(connectTimeout: 0.2)
        backend.close()
        do {
            try await backend.waitForApp(timeout: 0.2)
            Issue.record("expected a closed backend to throw")
        } catch AppBackendError.closed {
        }
        #expect(AppBackendError.noAnswer(command: "verify", timeout: 2) == .appDidNotAnswer(command: "verify", timeout: 2))
    }
}
