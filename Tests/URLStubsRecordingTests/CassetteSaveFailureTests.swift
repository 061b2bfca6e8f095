import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsRecording
import LoopbackTestServer
@testable import TestSupport

// The server and the child processes: macOS and Linux only.
#if os(macOS) || os(Linux)
/// A save that fails or is killed never loses the good cassette, never duplicates an exchange,
/// leaves no file behind, and says what happened: a full disk (simulated through `FileFaults`,
/// the writes' test seam), a folder this process may not write, a `kill -9` in the middle of a
/// save.
@Suite("Cassettes when a save fails or is killed")
struct CassetteSaveFailureTests {
    let server = TestServer.shared

    /// A cassette of `paths`, as a previous run saved it; its bytes.
    private func recordGoodCassette(_ file: URL, paths: [String]) async throws -> Data {
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        for path in paths {
            #expect(await fetch(URLRequest(url: server.url(path)), from: registry).statusCode == 200)
        }
        try recorder.save()
        return try Data(contentsOf: file)
    }

    private static func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    // MARK: A full disk

    /// Re-records `file` with room on its disk for the partial file's first exchanges only;
    /// returns the save's error. The recorder is gone when this returns, as at a process's end.
    private func reRecordOntoAFullDisk(_ file: URL) async throws -> FixtureError {
        let folder = file.deletingLastPathComponent()
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:], testName: "fetchUser()")
        FileFaults.limitSpace(in: folder, to: 5_000)
        defer { FileFaults.removeSpaceLimit(in: folder) }
        for index in 0..<5 {
            #expect(await fetch(URLRequest(url: server.url("/bytes?n=2000&i=\(index)")), from: registry).statusCode == 200)
        }
        #expect(recorder.recordedEntries.count == 5)
        return try #require(throws: FixtureError.self) { try recorder.save() }
    }

    @Test func aFullDiskNeverReplacesTheGoodCassetteAndTheSaveSaysWhatStayed() async throws {
        let file = temporaryHAR("fetchUser")
        let folder = file.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try await recordGoodCassette(file, paths: ["/json", "/text", "/bytes?n=100"])
        let error = try await reRecordOntoAFullDisk(file)
        let partial = PartialCassette.url(of: file).path
        let message = "\(error)"
        // A cassette not written is a FixtureError (the domain of files the test names).
        #expect(error.kind == .unwritable)
        #expect(error.source == file.path)
        #expect(error.found == String(cString: strerror(ENOSPC)))
        #expect(
            message.hasPrefix("URLStubs: the recording \(file.path) was not saved: writing \(file.path).saving failed: the disk is full ("),
            "\(message)")
        #expect(message.contains("The previous cassette was kept as it was."), "\(message)")
        #expect(message.contains("This run's exchanges could not be kept in \(partial) either"), "\(message)")
        #expect(
            message.hasSuffix("Free space on the disk, then record again with:\n    URLSTUBS_RECORD=all swift test --filter fetchUser"), "\(message)")
        #expect(try Data(contentsOf: file) == good)
        #expect(Self.contents(of: folder) == ["fetchUser.har"], "nothing is left behind")
        // The next run keeps the good cassette: nothing of the failed run is folded in.
        let replaying = try StubRegistry().record(to: file, mode: .once, environment: [:])
        #expect(!replaying.isRecording)
        #expect(try HAR.read(contentsOf: file).count == 3)
        #expect(try Data(contentsOf: file) == good)
    }

    @Test func aSaveThatFailsWithTheWholeRunInThePartialFileSaysTheNextRecordingFoldsItIn() async throws {
        let file = temporaryHAR("fetchUser")
        let folder = file.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try await recordGoodCassette(file, paths: ["/json"])
        let message = try await { () async throws -> String in
            let registry = StubRegistry()
            let recorder = try registry.record(to: file, mode: .newEpisodes, environment: [:], testName: "fetchUser()")
            #expect(await fetch(URLRequest(url: server.url("/text")), from: registry).statusCode == 200)
            // The partial file holds the exchange; the disk fills before the save.
            _ = recorder.recordedEntries
            FileFaults.limitSpace(in: folder, to: 0)
            defer { FileFaults.removeSpaceLimit(in: folder) }
            return "\(try #require(throws: FixtureError.self) { try recorder.save() })"
        }()
        #expect(
            message.contains(
                "This run's exchanges not yet saved stay in \(PartialCassette.url(of: file).path), which the next recording of this cassette folds in (delete that file to drop them)."
            ), "\(message)")
        #expect(try Data(contentsOf: file) == good)
        _ = try StubRegistry().record(to: file, mode: .once, environment: [:])
        #expect(try HAR.read(contentsOf: file).map(\.url.path) == ["/json", "/text"])
        #expect(Self.contents(of: folder) == ["fetchUser.har"])
    }

    // MARK: A folder this process may not write

    private static let readOnlyVariable = "URLSTUBS_TEST_READ_ONLY_FOLDER"

    /// Recording into a read-only folder, and saving into a folder made read-only meanwhile.
    private static func checkReadOnlyFolder() throws {
        let folder = try temporaryFolder()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try? FileManager.default.removeItem(at: folder)
        }
        let file = folder.appendingPathComponent("profile.har")
        let recorder = try StubRegistry().record(to: file, mode: .all, environment: [:], testName: "profile()")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        let saveError = "\(try #require(throws: FixtureError.self) { try recorder.save() })"
        #expect(
            saveError.hasPrefix(
                "URLStubs: the recording \(file.path) was not saved: creating \(file.path).saving failed: this process may not write there ("),
            "\(saveError)")
        #expect(saveError.contains("No cassette was written."), "\(saveError)")
        #expect(
            saveError.contains(
                "Make the folder \(folder.path) writable by this process, or record into another folder, then record again with:\n    URLSTUBS_RECORD=all swift test --filter profile"
            ), "\(saveError)")

        let other = folder.appendingPathComponent("other.har")
        let error = try #require(throws: FixtureError.self) { try StubRegistry().record(to: other, mode: .once, environment: [:]) }
        let message = "\(error)"
        #expect(
            message.hasPrefix(
                "URLStubs: cannot record into the cassette \(other.path): creating \(other.path).partial, where the exchanges wait until save(), failed: this process may not write there ("
            ), "\(message)")
        #expect(
            message.hasSuffix("Nothing was recorded. Make the folder \(folder.path) writable by this process, or record into another folder."),
            "\(message)")
        #expect(!message.contains("could not be read"))
    }

    @Test func aFolderThisProcessMayNotWriteIsSaidSoNotThatAFileCouldNotBeRead() async throws {
        guard geteuid() == 0 else { return try Self.checkReadOnlyFolder() }
        // Root writes into any folder: the check runs in a child process as the user nobody.
        let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
        guard let binary = testBinary, FileManager.default.isExecutableFile(atPath: setpriv.path) else { return }
        // The child reads the checkout (its binary, the fixtures) as nobody: a checkout in a
        // folder only root may enter (`mktemp -d` makes one) cannot run it, and says so.
        guard Self.othersMayEnterEveryFolder(above: binary) else {
            print("read-only folder check skipped: user nobody cannot reach \(binary.path)")
            return
        }
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        environment["URLSTUBS_RECORD"] = nil
        environment[Self.readOnlyVariable] = "1"
        let result = try await runChildProcess(
            setpriv,
            arguments: [
                "--reuid=65534", "--regid=65534", "--clear-groups", binary.path, "--testing-library", "swift-testing", "--filter",
                "childChecksAReadOnlyFolder",
            ], environment: environment)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Test run with 1 test") && result.output.contains("passed"), "\(result.output)")
    }

    /// `true` when every folder above `file` lets other users through (`o+x`).
    private static func othersMayEnterEveryFolder(above file: URL) -> Bool {
        var folder = file.deletingLastPathComponent()
        while folder.path != "/" {
            var info = stat()
            guard stat(folder.path, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
            folder = folder.deletingLastPathComponent()
        }
        return true
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[readOnlyVariable] != nil))
    func childChecksAReadOnlyFolder() throws {
        try Self.checkReadOnlyFolder()
    }

    // MARK: A kill in the middle of a save

    private static let childFileVariable = "URLSTUBS_TEST_SAVE_KILLED_HAR"
    private static let childURLVariable = "URLSTUBS_TEST_SAVE_KILLED_URL"
    private static let childPointVariable = "URLSTUBS_TEST_SAVE_KILLED_AT"
    private static let childMarkerVariable = "URLSTUBS_TEST_SAVE_KILLED_MARKER"

    /// Runs only inside the child process: records 10 exchanges, and stops its save at the
    /// point it is given (saying so by creating the marker file) until it is killed.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childFileVariable] != nil))
    func childStopsInTheMiddleOfItsSave() async throws {
        let environment = ProcessInfo.processInfo.environment
        let file = URL(fileURLWithPath: try #require(environment[Self.childFileVariable]))
        let url = try #require(environment[Self.childURLVariable])
        let marker = try #require(environment[Self.childMarkerVariable])
        let point: FileFaults.Point = environment[Self.childPointVariable] == "half" ? .temporaryFileHalfWritten : .cassetteReplaced
        FileFaults.pause(at: point, savingCassette: file) {
            _ = FileManager.default.createFile(atPath: marker, contents: Data())
            Thread.sleep(forTimeInterval: 300)
        }
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .newEpisodes, environment: [:])
        for index in 0..<10 {
            #expect(await fetch(URLRequest(url: URL(string: url + "&i=\(index)")!), from: registry).statusCode == 200)
        }
        try recorder.save()
    }

    /// `replaced`: killed between the rename of the new cassette and the truncation of the
    /// partial file, whose exchanges the cassette then already holds. `half`: killed with the
    /// temporary file half written.
    @Test(
        .enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"),
        arguments: ["replaced", "half"])
    func aKillInTheMiddleOfASaveKeepsEachExchangeOnceAndLeavesNoFileBehind(point: String) async throws {
        let file = temporaryHAR("killedSave")
        let folder = file.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await recordGoodCassette(file, paths: ["/json"])
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-stopped-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: marker) }
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        environment["URLSTUBS_RECORD"] = nil
        environment[Self.childFileVariable] = file.path
        environment[Self.childURLVariable] = server.url("/bytes?n=5000").absoluteString
        environment[Self.childPointVariable] = point
        environment[Self.childMarkerVariable] = marker.path
        let childEnvironment = environment
        let binary = try #require(testBinary)
        let stopped = try await onItsOwnThread { () -> Bool in
            let process = try SpawnedProcess(
                executable: binary, arguments: ["--testing-library", "swift-testing", "--filter", "childStopsInTheMiddleOfItsSave"],
                environment: childEnvironment, output: .discarded)
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline, process.isRunning, !FileManager.default.fileExists(atPath: marker.path) {
                Thread.sleep(forTimeInterval: 0.02)
            }
            let stopped = FileManager.default.fileExists(atPath: marker.path)
            process.killNow()
            _ = process.waitUntilExit()
            return stopped
        }
        #expect(stopped, "the child's save reached the point \(point)")
        // The next recorder of the cassette folds in what the cassette lacks, once, and removes
        // whatever the killed save left.
        let replaying = try StubRegistry().record(to: file, mode: .once, environment: [:])
        #expect(!replaying.isRecording)
        let paths = try HAR.read(contentsOf: file).map(\.url.path)
        #expect(paths.count == 11, "each exchange once: \(paths.count) entries")
        #expect(paths.first == "/json")
        #expect(Self.contents(of: folder) == ["killedSave.har"], "nothing is left behind")
    }
}
#endif
