import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsRecording
import LoopbackTestServer
@testable import TestSupport

// The server and the child process: macOS and Linux only.
#if os(macOS) || os(Linux)
/// Recording keeps up at scale: the disk is never on a request's path, each exchange costs the
/// same however many came before, a kill never breaks the cassette, and two recorders of one
/// cassette are an error, never a silent loss.
@Suite("Recording at scale")
struct RecordingAtScaleTests {
    let server = TestServer.shared

    @Test func theResponseReachesTheAppBeforeTheFileIsWritten() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        // A disk that never finishes its write until the response has arrived: the writer is
        // stuck until then (120 s at most, so a response that waited for it fails, never hangs).
        // What is asserted is the order, not a duration: the writer was still stuck when the
        // response arrived, however slowly the machine ran.
        let disk = DispatchSemaphore(value: 0)
        let writerFinished = Locked(false)
        recorder.writer.async {
            _ = disk.wait(timeout: .now() + 120)
            writerFinished.withLock { $0 = true }
        }
        let result = await fetch(URLRequest(url: server.url("/json")), from: registry)
        let waitedForTheWriter = writerFinished.withLock { $0 }
        disk.signal()
        #expect(result.statusCode == 200)
        #expect(!waitedForTheWriter, "the response waited for the writer")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the cassette is written by save(), not on the request's path")
        try await onItsOwnThread { try recorder.save() }
        #expect(try HAR.read(contentsOf: file).map(\.url.path) == ["/json"])
        #expect(!FileManager.default.fileExists(atPath: PartialCassette.url(of: file).path), "a saved recording leaves no partial file")
    }

    @Test func eachExchangeCostsTheSameHoweverManyCameBefore() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        // Each recorded exchange is paired with the same exchange through a registry that does
        // not record, made right after it: what the machine's load adds to one adds to both, so
        // the difference is what recording costs at that point of the cassette.
        let control = StubRegistry()
        control.stub(.any) { _ in .passthrough() }
        let controlSession = control.makeSession()
        defer { controlSession.finishTasksAndInvalidate() }
        let count = 150
        var recordingCosts: [TimeInterval] = []
        for index in 0..<count {
            let (result, seconds) = await timedExchange(URLRequest(url: server.url("/bytes?n=20480&i=\(index)")), session: session)
            let (plain, plainSeconds) = await timedExchange(URLRequest(url: server.url("/bytes?n=20480&c=\(index)")), session: controlSession)
            recordingCosts.append(seconds - plainSeconds)
            try #require(result.data?.count == 20_480)
            try #require(plain.data?.count == 20_480)
        }
        // Rewriting the cassette per exchange made #150 about 150 times #1; appending, they match.
        // Medians of 40 at each end; 20 ms of slack for a shared, noisy machine. (Comparing the
        // exchanges' own times failed when the suite's load changed between the two ends: 14 ms
        // for the first 40, 48 ms for the last.)
        func median(_ values: ArraySlice<TimeInterval>) -> TimeInterval { values.sorted()[values.count / 2] }
        let first = median(recordingCosts.prefix(40)), last = median(recordingCosts.suffix(40))
        #expect(last < first + 0.02, "recording cost, first 40: \(first * 1000) ms, last 40: \(last * 1000) ms")
        try await onItsOwnThread { try recorder.save() }
        #expect(try HAR.read(contentsOf: file).count == count)
    }

    @Test func aSecondRecorderOfALiveCassetteIsAnErrorNamingBothTests() async throws {
        let file = temporaryHAR("shared")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let first = StubRegistry()
        let recorder = try first.record(to: file, mode: .all, environment: [:], testName: "UserTests/testLoads")
        #expect(await fetch(URLRequest(url: server.url("/json")), from: first).statusCode == 200)
        let error = #expect(throws: StubError.self) {
            try StubRegistry().record(to: file, mode: .all, environment: [:], testName: "AccountTests/testLoads")
        }
        let message = String(describing: try #require(error))
        #expect(message.contains("UserTests/testLoads"), "\(message)")
        #expect(message.contains("AccountTests/testLoads"), "\(message)")
        #expect(message.contains(file.path), "\(message)")
        #expect(message.contains("pass a name or a folder"), "\(message)")
        // `once` without the file records too: refused the same way.
        #expect(throws: StubError.self) { try StubRegistry().record(to: file, mode: .once, environment: [:]) }
        // Saved, the cassette is free for the next recorder, which keeps what the first recorded.
        try recorder.save()
        let second = StubRegistry()
        let episodes = try second.record(to: file, mode: .newEpisodes, environment: [:], testName: "AccountTests/testLoads")
        #expect(await fetch(URLRequest(url: server.url("/text")), from: second).statusCode == 200)
        // The first recorder records again after its save: the cassette is the second's now.
        #expect(await fetch(URLRequest(url: server.url("/bytes?n=10")), from: first).statusCode == 200)
        #expect(throws: StubError.self) { try recorder.save() }
        try episodes.save()
        #expect(try HAR.read(contentsOf: file).map(\.url.path) == ["/json", "/text"], "nothing overwritten")
        #expect(recorder.recordedEntries.count == 2, "the refused exchange is kept, not lost")
        // Recording again after another recorder saved the cassette is refused too.
        #expect(await fetch(URLRequest(url: server.url("/text")), from: second).statusCode == 200)
        let again = StubRegistry()
        let third = try again.record(to: file, mode: .newEpisodes, environment: [:], testName: "ThirdTests/testLoads")
        #expect(await fetch(URLRequest(url: server.url("/bytes?n=20")), from: again).statusCode == 200)
        try third.save()
        #expect(await fetch(URLRequest(url: server.url("/bytes?n=30")), from: second).statusCode == 200)
        let overwrite = #expect(throws: StubError.self) { try episodes.save() }
        #expect(String(describing: try #require(overwrite)).contains("saved it after this one did"))
        #expect(try HAR.read(contentsOf: file).map(\.url.path) == ["/json", "/text", "/bytes"])
    }

    // MARK: A kill in the middle of recording

    private static let childFileVariable = "URLSTUBS_TEST_KILLED_HAR"
    private static let childURLVariable = "URLSTUBS_TEST_KILLED_URL"

    /// Runs only inside the child process: records exchanges into the cassette it is given
    /// until it is killed.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childFileVariable] != nil))
    func childRecordsUntilKilled() async throws {
        let file = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment[Self.childFileVariable]))
        let url = try #require(ProcessInfo.processInfo.environment[Self.childURLVariable])
        let registry = StubRegistry()
        _ = try registry.record(to: file, mode: .newEpisodes, environment: [:])
        let session = registry.makeSession()
        for index in 0..<100_000 {
            _ = await fetchWithCompletionHandler(URLRequest(url: URL(string: url + "&i=\(index)")!), session: session)
            // Gently: the parent's other tests share the machine's cores.
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// Also: a recorder in another process holds the cassette until it dies.
    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func aKillDuringRecordingLeavesAValidCassetteAndLosesNoExchange() async throws {
        let file = temporaryHAR("killed")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        // The cassette a previous run saved.
        let earlier = StubRegistry()
        let recorder = try earlier.record(to: file, mode: .all, environment: [:])
        #expect(await fetch(URLRequest(url: server.url("/json")), from: earlier).statusCode == 200)
        try recorder.save()
        let partial = PartialCassette.url(of: file)
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        environment["URLSTUBS_RECORD"] = nil
        environment[Self.childFileVariable] = file.path
        environment[Self.childURLVariable] = server.url("/bytes?n=10000").absoluteString
        let childEnvironment = environment
        let binary = try #require(testBinary)
        let (lines, refusal) = try await onItsOwnThread { () -> (Int, String) in
            let process = try SpawnedProcess(
                executable: binary, arguments: ["--testing-library", "swift-testing", "--filter", "childRecordsUntilKilled"],
                environment: childEnvironment, output: .discarded)
            // Killed once it has written 12 exchanges (or after 60 s), in the middle of its run.
            let deadline = Date().addingTimeInterval(60)
            var lines = 0
            while Date() < deadline, process.isRunning {
                lines = ((try? Data(contentsOf: partial)) ?? Data()).filter { $0 == UInt8(ascii: "\n") }.count
                if lines > 12 { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            // While the child records, this process may not record the same cassette.
            var refusal = "no error"
            do {
                _ = try StubRegistry().record(to: file, mode: .newEpisodes, environment: [:], testName: "theParentTest")
            } catch {
                refusal = "\(error)"
            }
            process.killNow()
            process.waitUntilExit()
            return (lines, refusal)
        }
        #expect(lines > 12, "the child recorded: \(lines) lines")
        #expect(refusal.contains("theParentTest") && refusal.contains("childRecordsUntilKilled"), "\(refusal)")
        #expect(refusal.contains("is recording it right now"), "\(refusal)")
        // The cassette is whole (the saved one), and the exchanges wait beside it.
        #expect(try HAR.read(contentsOf: file).map(\.url.path) == ["/json"])
        #expect(FileManager.default.fileExists(atPath: partial.path))
        // The next recorder of the cassette folds them in (a torn last line left out).
        let next = StubRegistry()
        let replaying = try next.record(to: file, mode: .once, environment: [:])
        #expect(!replaying.isRecording)
        let folded = try HAR.read(contentsOf: file)
        #expect(folded.count >= 13, "\(folded.count) entries")
        #expect(folded.first?.url.path == "/json")
        #expect(folded.dropFirst().allSatisfy { $0.url.path == "/bytes" && $0.responseBody.count == 10_000 })
        #expect(!FileManager.default.fileExists(atPath: partial.path), "folded, the partial file is gone")
    }
}
#endif
