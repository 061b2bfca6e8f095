import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

extension StubRegistry {
    /// Records real traffic into `file` or replays it, as `mode` says (see ``RecordMode``).
    /// Call ``HARRecorder/save()`` when the test is done.
    ///
    /// - Parameters:
    ///   - file: The HAR file to replay, or to record into.
    ///   - mode: The mode in code; `URLSTUBS_RECORD` in `environment` overrides it, and `CI`
    ///     without `URLSTUBS_RECORD` makes it ``RecordMode/none``.
    ///   - scrubbing: What never reaches the file; also becomes the registry's
    ///     `scrubbing`, which reports use.
    ///   - volatileFields: Query parameters, headers and JSON paths that change on every run
    ///     (a timestamp, a nonce): replay ignores them, so a request differing from a recorded
    ///     one only there is replayed, and `newEpisodes` does not record it a second time.
    ///   - reportsUnusedEntries: Whether `verify(includePassedThrough:)` reports the entries
    ///     of the file the test never requested (by method and URL): a recording that rots.
    ///   - environment: Where `URLSTUBS_RECORD` and `CI` are read: the process's environment.
    ///   - testName: The test, named in the command that records a missing file; `#function`,
    ///     the calling test.
    ///   - fileID: Where the recording is declared, for reports; filled in by default.
    ///   - filePath: The same file's full path, for test frameworks; filled in by default.
    ///   - line: The declaration's line; filled in by default.
    /// - Throws: `StubError.library(RecordingFailure.recordingMissing(path:reason:command:))` when the mode in force is
    ///   `none` and `file` does not exist; `StubError.library(RecordingFailure.invalidRecordMode(value:))` for an
    ///   unknown `URLSTUBS_RECORD`.
    public func record(
        to file: URL, mode: RecordMode = .once, scrubbing: Scrubbing = .default, volatileFields: VolatileFields = VolatileFields(),
        reportsUnusedEntries: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment, testName: String = #function,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> HARRecorder {
        try HARRecorder(
            registry: self, file: file, mode: mode, scrubbing: scrubbing, volatileFields: volatileFields,
            reportsUnusedEntries: reportsUnusedEntries, environment: environment, testName: testName,
            fileID: fileID, filePath: filePath, line: line)
    }
}
