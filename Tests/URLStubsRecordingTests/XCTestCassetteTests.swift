import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import URLStubsTesting
import LoopbackTestServer
@testable import TestSupport

/// The XCTest cassette: `makeReplayingRegistry()` replays `Recordings/<test method>.har` next to
/// this file, recording it when missing, and saves and verifies at tear-down.
final class XCTestCassetteTests: FailureCapturingTestCase {
    private var temporaryFolders: [URL] = []
    /// What a capturing test expects at tear-down: one failure at this line naming this text,
    /// or none when `nil`.
    private var expectedFailure: (line: Int, text: String)?
    /// Checks of what the tear-down blocks left (a saved cassette), run by `tearDown()`.
    private var afterTearDownBlocks: [() -> Void] = []

    private func makeTemporaryFolder() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-xctest-cassettes-\(UUID().uuidString)")
        temporaryFolders.append(folder)
        return folder
    }

    override func tearDown() {
        // The tear-down blocks, where cassettes are saved and registries verified, have run.
        for check in afterTearDownBlocks { check() }
        if capturing {
            capturing = false
            if let expectedFailure {
                XCTAssertEqual(captured.count, 1, "\(captured.map(\.message))")
                XCTAssertEqual(captured.first?.line, expectedFailure.line)
                XCTAssertTrue(captured.first?.file.hasSuffix("XCTestCassetteTests.swift") ?? false)
                XCTAssertTrue(captured.first?.message.contains(expectedFailure.text) ?? false, "\(captured.map(\.message))")
            } else {
                XCTAssertTrue(captured.isEmpty, "\(captured.map(\.message))")
            }
        }
        for folder in temporaryFolders { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    /// Committed next to this file, so it replays on CI too, where nothing is recorded.
    func testReplaysItsCommittedCassette() async throws {
        let registry = try makeReplayingRegistry()
        let result = await fetch("https://api.cassette.test/xctest/profile", from: registry)
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(result.body, #"{"name":"Ada"}"#)
    }

    func testTheCassetteIsNamedAfterTheTestMethodOnEveryPlatform() {
        XCTAssertEqual(Self.testMethodName(ofTestNamed: "-[UserTests testFetchesUser]"), "testFetchesUser")
        XCTAssertEqual(Self.testMethodName(ofTestNamed: "-[MyAppTests.UserTests testFetchesUser]"), "testFetchesUser")
        XCTAssertEqual(Self.testMethodName(ofTestNamed: "-[UserTests testFetchesUserWithCompletionHandler:]"), "testFetchesUser")
        XCTAssertEqual(Self.testMethodName(ofTestNamed: "UserTests.testFetchesUser"), "testFetchesUser")
        XCTAssertEqual(Self.testMethodName(ofTestNamed: name), "testTheCassetteIsNamedAfterTheTestMethodOnEveryPlatform")
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        XCTAssertEqual(
            CassetteFile.url(named: "testFetchesUser", in: nil, testFilePath: #filePath),
            here.appendingPathComponent("Recordings/testFetchesUser.har"))
        XCTAssertEqual(
            CassetteFile.url(named: "checkout", in: "Cassettes/Shop", testFilePath: #filePath),
            here.appendingPathComponent("Cassettes/Shop/checkout.har"))
        XCTAssertEqual(CassetteFile.url(named: "checkout", in: "/tmp/elsewhere", testFilePath: #filePath).path, "/tmp/elsewhere/checkout.har")
    }

    func testAMissingCassetteInNoneModeThrowsTheCommandThatRecordsIt() throws {
        let folder = makeTemporaryFolder()
        let cassette = folder.appendingPathComponent("testAMissingCassetteInNoneModeThrowsTheCommandThatRecordsIt.har")
        XCTAssertThrowsError(try makeReplayingRegistry(in: folder.path, environment: ["CI": "true"])) { error in
            let message = String(describing: error)
            guard case .library(RecordingFailure.recordingMissing(let path, let reason, _))? = error as? StubError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, cassette.path)
            XCTAssertEqual(reason, "CI is set and URLSTUBS_RECORD is not")
            XCTAssertTrue(
                message.contains(
                    "URLSTUBS_RECORD=once swift test --filter XCTestCassetteTests/testAMissingCassetteInNoneModeThrowsTheCommandThatRecordsIt"),
                message)
        }
        XCTAssertThrowsError(try makeReplayingRegistry("named", in: folder.path, mode: .none, environment: [:])) { error in
            XCTAssertTrue(String(describing: error).contains("named.har does not exist, and the record mode is none (as the test says)"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), "nothing was written")
    }
}

// The real server (TestServer) and child processes: macOS and Linux only.
#if os(macOS) || os(Linux)
extension XCTestCassetteTests {
    private var server: TestServer { TestServer.shared }

    func testRecordsIntoThePartialFileThenSavesTheCassetteAtTearDown() async throws {
        let folder = makeTemporaryFolder()
        let tag = UUID().uuidString
        let url = server.url("/json?tag=\(tag)")
        let recording = try makeReplayingRegistry(in: folder.path, environment: [:])
        let live = await fetch(URLRequest(url: url), from: recording)
        XCTAssertEqual(live.statusCode, 200)
        let cassette = folder.appendingPathComponent("testRecordsIntoThePartialFileThenSavesTheCassetteAtTearDown.har")
        let partial = folder.appendingPathComponent(cassette.lastPathComponent + ".partial")
        // The writer appends the exchange soon after the response (a crash from then on keeps it).
        // Read again after every sleep before the deadline is checked: this task may resume from
        // a sleep tens of seconds late (the cooperative pool is that far behind while the suite
        // runs), and the file it finds then is what counts.
        let deadline = Date().addingTimeInterval(10)
        var lines = 0
        while true {
            lines = ((try? Data(contentsOf: partial)) ?? Data()).filter { $0 == UInt8(ascii: "\n") }.count
            if lines >= 2 || Date() >= deadline { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        XCTAssertEqual(lines, 2, "the header and the exchange")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cassette.path), "the cassette is written by the save at tear-down")
        afterTearDownBlocks.append {
            XCTAssertEqual((try? HAR.read(contentsOf: cassette))?.map(\.url), [url])
            XCTAssertFalse(FileManager.default.fileExists(atPath: partial.path), "saved, the partial file is gone")
        }
    }

    /// A recording of GET /json and GET /text in `folder`, saved (the helper saves at
    /// tear-down, too late for these tests; testACIRunWithoutTheCassette… records through it).
    private func recordProfile(in folder: URL, tag: String) async throws {
        let recording = StubRegistry()
        let recorder = try recording.record(to: folder.appendingPathComponent("profile.har"), mode: .once, environment: [:])
        _ = await fetch(URLRequest(url: server.url("/json?tag=\(tag)")), from: recording)
        _ = await fetch(URLRequest(url: server.url("/text?tag=\(tag)")), from: recording)
        try recorder.save()
    }

    #if !canImport(ObjectiveC)
    func testRecordedRequestsTheTestNeverMadeFailAtTheCallLine() async throws {
        let folder = makeTemporaryFolder()
        let tag = UUID().uuidString
        try await recordProfile(in: folder, tag: tag)
        capturing = true
        let line = #line + 1
        let replaying = try makeReplayingRegistry("profile", in: folder.path, environment: ["CI": "true"])
        let replayed = await fetch(URLRequest(url: server.url("/json?tag=\(tag)")), from: replaying)
        XCTAssertEqual(replayed.statusCode, 200)
        expectedFailure = (line, "recorded request never made: \"profile.har: GET \(server.url("/text?tag=\(tag)").absoluteString)\"")
    }

    func testTheUnusedEntryReportCanBeTurnedOff() async throws {
        let folder = makeTemporaryFolder()
        let tag = UUID().uuidString
        try await recordProfile(in: folder, tag: tag)
        capturing = true
        let replaying = try makeReplayingRegistry("profile", in: folder.path, reportsUnusedEntries: false, environment: ["CI": "true"])
        let replayed = await fetch(URLRequest(url: server.url("/json?tag=\(tag)")), from: replaying)
        XCTAssertEqual(replayed.statusCode, 200)
        expectedFailure = nil
    }
    #endif

    // MARK: A whole XCTest run in a child process, with CI set

    private static let childFolderVariable = "URLSTUBS_TEST_XCTEST_CASSETTE_FOLDER"
    private static let childURLVariable = "URLSTUBS_TEST_XCTEST_CASSETTE_URL"

    /// Runs only inside the child: the public helper, reading `CI` and `URLSTUBS_RECORD` from
    /// the process's environment as a user's test does.
    func testChildFetchesThroughItsCassette() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let folder = environment[Self.childFolderVariable], let url = environment[Self.childURLVariable].flatMap(URL.init(string:))
        else { throw XCTSkip("runs in the child process of testACIRunWithoutTheCassetteFailsWithTheCommandThatRecordsIt") }
        let registry = try makeReplayingRegistry(in: folder)
        let result = await fetch(URLRequest(url: url), from: registry)
        XCTAssertEqual(result.statusCode, 200)
    }

    private func runChild(_ environment: [String: String]) async throws -> ChildProcessResult {
        try await runTestInChildProcess(
            "URLStubsRecordingTests.XCTestCassetteTests/testChildFetchesThroughItsCassette", library: "xctest", environment: environment)
    }

    func testACIRunWithoutTheCassetteFailsWithTheCommandThatRecordsIt() async throws {
        guard testBinary != nil else { throw XCTSkip("the child is the .xctest binary swift test runs on Linux") }
        let folder = makeTemporaryFolder()
        let tag = UUID().uuidString
        let environment = [Self.childFolderVariable: folder.path, Self.childURLVariable: server.url("/json?tag=\(tag)").absoluteString]
        let onCI = try await runChild(environment.merging(["CI": "true"]) { $1 })
        XCTAssertNotEqual(onCI.status, 0, onCI.output)
        XCTAssertTrue(
            onCI.output.contains("URLSTUBS_RECORD=once swift test --filter XCTestCassetteTests/testChildFetchesThroughItsCassette"), onCI.output)
        let cassette = folder.appendingPathComponent("testChildFetchesThroughItsCassette.har")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cassette.path))
        let recording = try await runChild(environment.merging(["CI": "true", "URLSTUBS_RECORD": "once"]) { $1 })
        XCTAssertEqual(recording.status, 0, recording.output)
        XCTAssertEqual(try HAR.read(contentsOf: cassette).count, 1)
        let replaying = try await runChild(environment.merging(["CI": "true"]) { $1 })
        XCTAssertEqual(replaying.status, 0, replaying.output)
        let count = try await server.count("/json", tag: tag)
        XCTAssertEqual(count, 1, "only the recording run reached the server")
    }

    func testAReRecordWithTheServerDownKeepsTheCassetteAndSaysHowToRetry() async throws {
        guard testBinary != nil else { throw XCTSkip("the child is the .xctest binary swift test runs on Linux") }
        let folder = makeTemporaryFolder()
        let cassette = folder.appendingPathComponent("testChildFetchesThroughItsCassette.har")
        let up = server.url("/json?tag=\(UUID().uuidString)").absoluteString
        let recording = try await runChild([Self.childFolderVariable: folder.path, Self.childURLVariable: up])
        XCTAssertEqual(recording.status, 0, recording.output)
        let good = try Data(contentsOf: cassette)
        let down = "http://127.0.0.1:\(try closedLoopbackPort())/json?token=SECRET-CHILD-TOKEN"
        let reRecording = try await runChild([Self.childFolderVariable: folder.path, Self.childURLVariable: down, "URLSTUBS_RECORD": "all"])
        XCTAssertNotEqual(reRecording.status, 0)
        let output = reRecording.output
        XCTAssertTrue(output.contains("the recording \(cassette.path) was not saved: 1 exchange failed at the network"), output)
        XCTAssertTrue(output.contains("URLSTUBS_RECORD=all swift test --filter XCTestCassetteTests/testChildFetchesThroughItsCassette"), output)
        XCTAssertFalse(output.contains("SECRET"), output)
        XCTAssertEqual(try Data(contentsOf: cassette), good, "the cassette the first run recorded")
    }
}
#endif
