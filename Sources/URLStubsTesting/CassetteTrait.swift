#if canImport(Testing)
import Foundation
import Testing
import URLStubs
import URLStubsRecording

/// A Swift Testing trait that gives each test a registry replaying (or recording) a HAR file
/// of its own, a cassette, then saves it and verifies the registry when the test ends.
///
/// ```swift
/// @Test(.replaying) func fetchUser() async throws {          // Recordings/fetchUser.har
///     let session = StubRegistry.current.makeSession()
///     let user = try await APIClient(session: session).user(id: 1)
///     #expect(user.name == "Ada")
/// }
///
/// @Suite(.replaying(in: "Fixtures/Cassettes"))               // one file per test of the suite
/// struct CheckoutTests { … }
/// ```
///
/// The file is `<name>.har` (the test function's name unless you pass one) in a folder named
/// `Recordings` next to the test's source file (the `#filePath` Swift Testing records for the
/// test function), or the folder you pass
/// (relative to the test file's folder, or absolute). Commit it.
///
/// The mode in code is a default: `URLSTUBS_RECORD=once|none|newEpisodes|all` overrides it for
/// the run, and a run with `CI` set and `URLSTUBS_RECORD` unset replays only, failing a test
/// whose cassette is missing with the command that records it
/// (`URLSTUBS_RECORD=once swift test --filter fetchUser`). When the test ends, recorded
/// requests it never made are reported with the other verification problems (turn that off
/// with `reportsUnusedEntries: false`), and every secret of `scrubbing` is kept out of the
/// file and the reports. <doc:RecordingAndReplaying> tells the whole story.
///
/// - Important: The cases of a parameterized test share one cassette; give such a test a
///   cassette per argument by recording in `newEpisodes` mode, or split it.
public struct CassetteTrait: TestTrait, SuiteTrait, TestScoping {
    let name: String?
    let folder: String?
    let mode: RecordMode
    let scrubbing: Scrubbing
    let volatileFields: VolatileFields
    let reportsUnusedEntries: Bool

    /// Applies to every test of a suite that carries it, one cassette per test.
    public var isRecursive: Bool { true }

    /// A scope per test case: suites themselves get none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> CassetteTrait? {
        testCase == nil ? nil : self
    }

    /// The cassette of `test`: `<folder>/<name>.har`.
    public func file(for test: Test) -> URL {
        CassetteFile.url(named: name ?? Self.functionName(of: test.name), in: folder, testFilePath: test.sourceLocation.filePath)
    }

    /// `fetchUser` for `fetchUser()` or `fetchUser(id:)`.
    static func functionName(of name: String) -> String {
        String(name.prefix { $0 != "(" })
    }

    /// Runs the test with a registry replaying its cassette as ``URLStubs/StubRegistry/current``, then
    /// saves what was recorded and verifies the registry, even when the test threw.
    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        KnownStrategies.register()
        let registry = StubRegistry()
        defer { registry.removeAll() }
        let recorder = try registry.record(
            to: file(for: test), mode: mode, scrubbing: scrubbing, volatileFields: volatileFields,
            reportsUnusedEntries: reportsUnusedEntries, testName: Self.functionName(of: test.name),
            fileID: test.sourceLocation.fileID, filePath: test.sourceLocation.filePath,
            line: test.sourceLocation.line)
        try await StubsTrait.run(function, with: registry, for: test, afterTest: { try recorder.save() })
    }
}

extension Trait where Self == CassetteTrait {
    /// Each test replays `Recordings/<test function>.har` next to its source file (recorded on
    /// first run); see ``CassetteTrait``.
    public static var replaying: CassetteTrait {
        replaying()
    }

    /// Each test replays the cassette `name` (its function's name by default) in `folder`
    /// (`Recordings` next to the test file by default; a relative folder starts there).
    ///
    /// ```swift
    /// @Test(.replaying("fetchUser", scrubbing: .default.adding(queryParameters: ["api_key"])))
    /// func fetchesTheUser() async throws { … }
    /// ```
    public static func replaying(
        _ name: String? = nil, in folder: String? = nil, mode: RecordMode = .once,
        scrubbing: Scrubbing = .default, volatileFields: VolatileFields = VolatileFields(),
        reportsUnusedEntries: Bool = true
    ) -> CassetteTrait {
        CassetteTrait(
            name: name, folder: folder, mode: mode, scrubbing: scrubbing, volatileFields: volatileFields,
            reportsUnusedEntries: reportsUnusedEntries)
    }
}
#endif
