import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
import URLStubsTesting
import LoopbackTestServer
@testable import TestSupport

/// The per-test cassette: `.replaying` gives a test a registry replaying `Recordings/<name>.har`
/// next to this file (committed, so the tests pass on CI, where nothing is recorded).
@Suite("Cassettes")
struct CassetteTests {
    @Test(.replaying("named-cassette")) func replaysTheCassetteItNames() async throws {
        let result = await fetch(URLRequest(url: URL(string: "https://api.cassette.test/user")!), from: StubRegistry.current)
        #expect(result.statusCode == 200)
        #expect(result.body == #"{"name":"Ada"}"#)
    }

    @Test func theCassetteLivesNextToTheTestFile() throws {
        let trait = CassetteTrait.replaying("fetchUser")
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let test = try #require(Test.current)
        #expect(trait.file(for: test) == here.appendingPathComponent("Recordings/fetchUser.har"))
        #expect(CassetteTrait.replaying.file(for: test).lastPathComponent == "theCassetteLivesNextToTheTestFile.har")
        #expect(CassetteTrait.replaying(in: "Cassettes").file(for: test).deletingLastPathComponent().lastPathComponent == "Cassettes")
        #expect(CassetteTrait.replaying(in: "/tmp/elsewhere").file(for: test).path == "/tmp/elsewhere/theCassetteLivesNextToTheTestFile.har")
    }
}

/// The suite-level form: one cassette per test, named after it.
@Suite(.replaying)
struct CassetteSuiteTests {
    @Test func firstTestOfTheSuite() async throws {
        let result = await fetch(URLRequest(url: URL(string: "https://api.cassette.test/first")!), from: StubRegistry.current)
        #expect(result.body == #"{"n":1}"#)
    }

    @Test func secondTestOfTheSuite() async throws {
        let result = await fetch(URLRequest(url: URL(string: "https://api.cassette.test/second")!), from: StubRegistry.current)
        #expect(result.body == #"{"n":2}"#)
    }
}

// Recording through the trait, against the real server, in a child test process.
#if os(macOS) || os(Linux)
@Suite("Cassettes recorded in a child run")
struct CassetteRecordingTests {
    let server = TestServer.shared

    private static let folderVariable = "URLSTUBS_TEST_CASSETTE_FOLDER"
    private static let urlVariable = "URLSTUBS_TEST_CASSETTE_URL"
    private static let childFolder = ProcessInfo.processInfo.environment[folderVariable] ?? "/nonexistent"

    /// Runs only inside the child: its cassette is `<folder>/childFetchesThroughItsCassette.har`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[folderVariable] != nil), .replaying(in: childFolder))
    func childFetchesThroughItsCassette() async throws {
        let url = try #require(ProcessInfo.processInfo.environment[Self.urlVariable].flatMap(URL.init(string:)))
        #expect(await fetch(URLRequest(url: url), from: StubRegistry.current).statusCode == 200)
    }

    private func runChild(_ environment: [String: String]) async throws -> ChildProcessResult {
        try await runTestInChildProcess("childFetchesThroughItsCassette", environment: environment)
    }

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func aCassetteIsRecordedOnceThenReplayedOnCI() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-cassettes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tag = UUID().uuidString
        let environment = [Self.folderVariable: folder.path, Self.urlVariable: server.url("/json?tag=\(tag)").absoluteString]
        let missing = try await runChild(environment.merging(["CI": "true"]) { $1 })
        #expect(missing.status != 0)
        #expect(missing.output.contains("URLSTUBS_RECORD=once swift test --filter childFetchesThroughItsCassette"), "\(missing.output)")
        let recording = try await runChild(environment)
        #expect(recording.status == 0, "\(recording.output)")
        let cassette = folder.appendingPathComponent("childFetchesThroughItsCassette.har")
        #expect(try HAR.read(contentsOf: cassette).count == 1)
        let replaying = try await runChild(environment.merging(["CI": "true"]) { $1 })
        #expect(replaying.status == 0, "\(replaying.output)")
        #expect(try await server.count("/json", tag: tag) == 1, "only the recording run reached the server")
    }

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func aReRecordWithTheServerDownKeepsTheCassetteAndSaysHowToRetry() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-cassettes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassette = folder.appendingPathComponent("childFetchesThroughItsCassette.har")
        let up = server.url("/json?tag=\(UUID().uuidString)").absoluteString
        let recording = try await runChild([Self.folderVariable: folder.path, Self.urlVariable: up])
        #expect(recording.status == 0, "\(recording.output)")
        let good = try Data(contentsOf: cassette)
        let down = "http://127.0.0.1:\(try closedLoopbackPort())/json?token=SECRET-CHILD-TOKEN"
        let reRecording = try await runChild([Self.folderVariable: folder.path, Self.urlVariable: down, "URLSTUBS_RECORD": "all"])
        #expect(reRecording.status != 0)
        let output = reRecording.output
        #expect(output.contains("the recording \(cassette.path) was not saved: 1 exchange failed at the network"), "\(output)")
        #expect(output.contains("The previous cassette was kept as it was"), "\(output)")
        #expect(output.contains("URLSTUBS_RECORD=all swift test --filter childFetchesThroughItsCassette"), "\(output)")
        #expect(!output.contains("SECRET"), "\(output)")
        #expect(try Data(contentsOf: cassette) == good, "the cassette the first run recorded")
        #expect(!output.contains("already holds"), "the trait's registry holds no stub of the test's before its recorder")
        // Replayed, the request it lacks names the cassette and the commands that record it.
        let replaying = try await runChild([Self.folderVariable: folder.path, Self.urlVariable: down, "CI": "true"])
        #expect(replaying.status != 0)
        #expect(replaying.output.contains("Not in the cassette \(cassette.path) (1 entry), which this registry replays"), "\(replaying.output)")
        #expect(replaying.output.contains("URLSTUBS_RECORD=newEpisodes swift test --filter childFetchesThroughItsCassette"), "\(replaying.output)")
        #expect(!replaying.output.contains("SECRET"), "\(replaying.output)")
    }
}
#endif
