import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records real traffic to a HAR file, or replays a recording, VCR style.
///
/// ```swift
/// let registry = StubRegistry()
/// let recorder = try registry.record(to: fixtures.appendingPathComponent("profile.har"), mode: .once)
/// let session = registry.makeSession()
/// _ = try await session.data(from: URL(string: "https://api.example.com/profile")!)
/// try recorder.save()     // writes the file when something was recorded
/// ```
///
/// Secrets are scrubbed (``Scrubbing/default``) before anything is written.
public final class HARRecorder: @unchecked Sendable {
    /// The file recorded to or replayed from.
    public let file: URL
    /// The mode in force: the one in code unless `URLSTUBS_RECORD` or `CI` says otherwise (see
    /// ``RecordMode``).
    public let mode: RecordMode
    /// What is scrubbed.
    public let scrubbing: Scrubbing
    /// What replay leaves out when it decides whether a live request is a recorded one: a
    /// request differing from a recorded one only there is replayed, never recorded again.
    public let volatileFields: VolatileFields
    /// `true` when this recorder talks to the network (`once` without a file, `newEpisodes`, `all`).
    public let isRecording: Bool

    private let lock = NSLock()
    private var replayed: [HAREntry]
    private var recorded: [HAREntry] = []
    /// `newEpisodes`: the requests recorded in this run, as replay tells requests apart.
    private var recordedRequests: Set<String> = []
    /// `newEpisodes`: where an exchange just recorded becomes a replayed one.
    private weak var registry: StubRegistry?
    private let replayOptions: HARReplayOptions
    private let location: StubLocation

    init(
        registry: StubRegistry, file: URL, mode inCode: RecordMode, scrubbing: Scrubbing, volatileFields: VolatileFields, reportsUnusedEntries: Bool,
        environment: [String: String], testName: String, fileID: String, filePath: String, line: Int
    ) throws {
        let (mode, reason) = try RecordMode.inForce(inCode: inCode, environment: environment)
        self.file = file
        self.mode = mode
        self.scrubbing = scrubbing
        self.volatileFields = volatileFields
        let exists = FileManager.default.fileExists(atPath: file.path)
        switch mode {
        case .none:
            guard exists else {
                throw StubError.recordingMissing(
                    path: file.path, reason: reason,
                    command: RecordMode.recordingCommand(testName: testName))
            }
            isRecording = false
        case .once:
            isRecording = !exists
        case .newEpisodes:
            isRecording = true
        case .all:
            isRecording = true
        }
        registry.scrubbing = scrubbing
        self.location = StubLocation(fileID: fileID, filePath: filePath, line: line)
        var options = HARReplayOptions()
        options.scrubbing = scrubbing
        options.volatileFields = volatileFields
        options.reportsUnusedEntries = reportsUnusedEntries
        replayOptions = options
        if mode == .newEpisodes { self.registry = registry }
        replayed = (exists && mode != .all) ? try HAR.read(contentsOf: file) : []
        if mode == .none { registry.unmatchedRequestPolicy = .fail }
        if isRecording {
            // Added first, so every replayed entry (added after) takes precedence over it.
            let recorder = self
            _ = registry.add(.any, name: "HAR recorder (\(file.lastPathComponent))", times: nil, location: location) { request, _ in
                .passthrough(
                    ResponseTransform("record to \(file.lastPathComponent)") { response, body in
                        recorder.capture(request, response, body)
                        return (response, body)
                    })
            }
        }
        registry.stubs(
            fromHAREntries: replayed, named: file.lastPathComponent, options: options,
            fileID: fileID, filePath: filePath, line: line)
    }

    /// Adds the exchange and writes the file at once, before the caller gets the response:
    /// a test that crashes, or forgets ``save()``, still leaves every exchange it saw on disk.
    ///
    /// In `newEpisodes` mode the exchange then joins the replayed ones: a later request that
    /// replay takes for the same one (equal but for volatile fields) is answered from it, as
    /// it would be from the file in every later run, and is neither sent nor recorded again.
    /// Two such requests in flight at once both reach the network; the second is not recorded.
    private func capture(_ request: StubRequest, _ response: HTTPURLResponse, _ body: Data) {
        let entry = scrubbing.scrub(
            HAREntry(
                request: request.urlRequest, body: request.body, response: response, responseBody: body,
                startedDateTime: Date(), time: 0))
        lock.lock()
        if mode == .newEpisodes, !recordedRequests.insert(HARRequestIdentity(entry, volatile: volatileFields).key).inserted {
            lock.unlock()
            return
        }
        recorded.append(entry)
        // A failed write here is reported by save(), which writes again.
        try? writeLocked()
        lock.unlock()
        guard let registry else { return }
        var options = replayOptions
        // Made by this run's test, so never "a recording the test no longer uses".
        options.reportsUnusedEntries = false
        registry.stubs(
            fromHAREntries: [entry], named: file.lastPathComponent, options: options,
            fileID: location.fileID, filePath: location.filePath, line: location.line)
    }

    private func writeLocked() throws {
        let entries = replayed.map(scrubbing.scrub) + recorded
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try HAR.write(entries).write(to: file, options: .atomic)
    }

    /// Entries recorded so far in this run (already scrubbed).
    public var recordedEntries: [HAREntry] {
        lock.lock(); defer { lock.unlock() }
        return recorded
    }

    /// Writes the file when this run recorded something: the replayed entries first (in
    /// `newEpisodes` mode), then the new ones in the order they completed. Each exchange is
    /// already written as it completes; call this at the end of a test anyway: it writes once
    /// more and throws when the file cannot be written, and in `.all` mode it writes an empty
    /// recording when nothing happened.
    public func save() throws {
        lock.lock(); defer { lock.unlock() }
        let changed = !recorded.isEmpty || (mode == .all)
        guard isRecording, changed else { return }
        try writeLocked()
    }
}

extension StubRegistry {
    /// Records real traffic into `file` or replays it, as `mode` says (see ``RecordMode``).
    /// Call ``HARRecorder/save()`` when the test is done.
    ///
    /// - Parameters:
    ///   - file: The HAR file to replay, or to record into.
    ///   - mode: The mode in code; `URLSTUBS_RECORD` in `environment` overrides it, and `CI`
    ///     without `URLSTUBS_RECORD` makes it ``RecordMode/none``.
    ///   - scrubbing: What never reaches the file; also becomes the registry's
    ///     ``scrubbing``, which reports use.
    ///   - volatileFields: Query parameters, headers and JSON paths that change on every run
    ///     (a timestamp, a nonce): replay ignores them, so a request differing from a recorded
    ///     one only there is replayed, and `newEpisodes` does not record it a second time.
    ///   - reportsUnusedEntries: Whether ``verify(includePassedThrough:)`` reports the entries
    ///     of the file the test never requested (by method and URL): a recording that rots.
    ///   - environment: Where `URLSTUBS_RECORD` and `CI` are read: the process's environment.
    ///   - testName: The test, named in the command that records a missing file; `#function`,
    ///     the calling test.
    ///   - fileID: Where the recording is declared, for reports; filled in by default.
    ///   - filePath: The same file's full path, for test frameworks; filled in by default.
    ///   - line: The declaration's line; filled in by default.
    /// - Throws: ``StubError/recordingMissing(path:reason:command:)`` when the mode in force is
    ///   `none` and `file` does not exist; ``StubError/invalidRecordMode(value:)`` for an
    ///   unknown `URLSTUBS_RECORD`.
    public func record(
        to file: URL, mode: RecordMode = .once, scrubbing: Scrubbing = .default, volatileFields: VolatileFields = .none,
        reportsUnusedEntries: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment, testName: String = #function,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> HARRecorder {
        try HARRecorder(
            registry: self, file: file, mode: mode, scrubbing: scrubbing, volatileFields: volatileFields,
            reportsUnusedEntries: reportsUnusedEntries, environment: environment, testName: testName,
            fileID: fileID, filePath: filePath, line: line)
    }
}
