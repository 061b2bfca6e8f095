#if canImport(XCTest)
import Foundation
import XCTest
import URLStubs
import URLStubsRecording

extension XCTestCase {
    /// A registry for this test that replays a HAR file of its own, a cassette, recording it
    /// from the real network when it is missing; at tear-down the recording is saved and the
    /// registry verified, each problem a failure of this test at the line it concerns.
    ///
    /// ```swift
    /// final class UserTests: XCTestCase {
    ///     func testFetchesUser() async throws {
    ///         let registry = try makeReplayingRegistry()   // Recordings/testFetchesUser.har
    ///         let client = APIClient(session: registry.makeSession())
    ///         let user = try await client.user(id: 1)
    ///         XCTAssertEqual(user.name, "Ada")
    ///     }   // tear-down: saved, then verified
    /// }
    /// ```
    ///
    /// The file is `<name>.har`, named after the test method (`testFetchesUser`) unless you
    /// pass a name, in a folder named `Recordings` next to the test's source file (found from
    /// `#filePath`), or in `folder`: relative to the test file's folder, or absolute. Commit it.
    /// Called from `setUp()`, it gives every test of the class a cassette of its own.
    ///
    /// The mode in code is a default, as with the Swift Testing trait `.replaying`:
    /// `URLSTUBS_RECORD=once|none|newEpisodes|all` overrides it for the whole run, and when `CI`
    /// is set and `URLSTUBS_RECORD` is not, the mode is `RecordMode.none`. A missing
    /// cassette then throws `StubError.library(RecordingFailure.recordingMissing(path:reason:command:))`, whose
    /// message is the command that records it, in XCTest's filter syntax
    /// (`URLSTUBS_RECORD=once swift test --filter UserTests/testFetchesUser`).
    ///
    /// At tear-down, recorded requests the test never made are failures at the line of this
    /// call (a recording that rots; `reportsUnusedEntries: false` turns that off), as are an
    /// unexpected request, a cassette that cannot be written, and a recording in which an
    /// exchange failed at the network (the cassette is then kept as it was:
    /// `StubError.library(RecordingFailure.recordingFailed(path:failedExchanges:firstFailure:previousKept:command:))`). Every secret of `scrubbing`
    /// is kept out of the file and out of those messages. <doc:RecordingAndReplaying> tells the
    /// whole story.
    ///
    /// - Parameters:
    ///   - name: The cassette's name without `.har`; the test method's name by default.
    ///   - folder: Where the cassette lives: `Recordings` next to the test file by default; a
    ///     relative folder starts at the test file's folder.
    ///   - mode: The mode in code; `URLSTUBS_RECORD` and `CI` override it (see
    ///     `RecordMode`).
    ///   - scrubbing: What never reaches the file or a failure message.
    ///   - volatileFields: Query parameters, headers and JSON paths that change on every run:
    ///     replay ignores them, and `newEpisodes` does not record a request twice for them.
    ///   - reportsUnusedEntries: Whether recorded requests the test never made are failures.
    ///   - fileID: The calling file, for reports; filled in by default.
    ///   - file: The calling file's path: where the cassette folder is found; filled in by default.
    ///   - line: The calling line, where registry-wide failures are recorded; filled in by default.
    /// - Throws: `StubError.library(RecordingFailure.recordingMissing(path:reason:command:))` in `none` mode
    ///   without the file, `StubError.library(RecordingFailure.invalidRecordMode(value:))` for an unknown
    ///   `URLSTUBS_RECORD`, and the error of a cassette that cannot be read.
    ///
    /// - Important: Two test classes in one folder with a test method of the same name
    ///   (`testLoads`) share one cassette, and each reports the other's requests as unused:
    ///   pass a `name`, or a `folder` per class.
    public func makeReplayingRegistry(
        _ name: String? = nil, in folder: String? = nil, mode: RecordMode = .once,
        scrubbing: Scrubbing = .default, volatileFields: VolatileFields = VolatileFields(), reportsUnusedEntries: Bool = true,
        fileID: String = #fileID, file: StaticString = #filePath, line: UInt = #line
    ) throws -> StubRegistry {
        try makeReplayingRegistry(
            name, in: folder, mode: mode, scrubbing: scrubbing, volatileFields: volatileFields,
            reportsUnusedEntries: reportsUnusedEntries, environment: ProcessInfo.processInfo.environment,
            fileID: fileID, file: file, line: line)
    }

    /// ``makeReplayingRegistry(_:in:mode:scrubbing:volatileFields:reportsUnusedEntries:fileID:file:line:)``
    /// reading `URLSTUBS_RECORD` and `CI` from `environment` (the tests' way to run both modes).
    func makeReplayingRegistry(
        _ name: String? = nil, in folder: String? = nil, mode: RecordMode = .once, scrubbing: Scrubbing = .default,
        volatileFields: VolatileFields = VolatileFields(), reportsUnusedEntries: Bool = true, environment: [String: String],
        fileID: String = #fileID, file: StaticString = #filePath, line: UInt = #line
    ) throws -> StubRegistry {
        let method = Self.testMethodName(ofTestNamed: self.name)
        let cassette = CassetteFile.url(named: name ?? method, in: folder, testFilePath: "\(file)")
        KnownStrategies.register()
        let registry = StubRegistry()
        let recorder: HARRecorder
        do {
            recorder = try registry.record(
                to: cassette, mode: mode, scrubbing: scrubbing, volatileFields: volatileFields,
                reportsUnusedEntries: reportsUnusedEntries, environment: environment,
                testName: "\(String(describing: type(of: self)))/\(method)",
                fileID: fileID, filePath: "\(file)", line: Int(line))
        } catch {
            registry.removeAll()
            throw error
        }
        let handoff = TearDownHandoff((testCase: self, registry: registry, recorder: recorder))
        addTeardownBlock {
            guard let (testCase, registry, recorder) = handoff.take() else { return }
            defer { registry.removeAll() }
            do {
                try recorder.save()
            } catch  where error is StubError || error is FixtureError {
                // It names the cassette and says what to do.
                XCTFail("\(error)", file: file, line: line)
            } catch {
                XCTFail("URLStubs: the recording \(cassette.path) could not be written: \(error)", file: file, line: line)
            }
            testCase.recordProblems(of: registry, file: file, line: line)
        }
        return registry
    }

    /// `testFetchesUser` from XCTest's test name: `-[UserTests testFetchesUser]` on Apple
    /// platforms (the class may carry its module), `UserTests.testFetchesUser` elsewhere.
    static func testMethodName(ofTestNamed testName: String) -> String {
        var method = Substring(testName)
        if testName.hasPrefix("-["), testName.hasSuffix("]") {
            let inside = testName.dropFirst(2).dropLast()
            method = inside.split(separator: " ").last ?? inside
        } else if let dot = testName.lastIndex(of: ".") {
            method = testName[testName.index(after: dot)...]
        }
        // An `async` test's Objective-C selector; a Swift name never holds a colon.
        let asyncSuffix = "WithCompletionHandler:"
        if method.hasSuffix(asyncSuffix) { method = method.dropLast(asyncSuffix.count) }
        return String(method.filter { $0 != ":" })
    }
}
#endif
