import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When a ``HARRecorder`` talks to the real network and when it replays a file.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Record if the file does not exist yet, else replay it (unmatched requests follow the
    /// registry's policy).
    case once
    /// Replay only; the file must exist, and a request it does not hold fails.
    case none
    /// Replay what the file holds, record requests it does not hold, and save both.
    case newEpisodes
    /// Always record afresh, replacing the file.
    case all
}

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
    /// The mode in force.
    public let mode: RecordMode
    /// What is scrubbed.
    public let scrubbing: Scrubbing
    /// `true` when this recorder talks to the network (`once` without a file, `newEpisodes`, `all`).
    public let isRecording: Bool

    private let lock = NSLock()
    private var replayed: [HAREntry]
    private var recorded: [HAREntry] = []

    init(registry: StubRegistry, file: URL, mode: RecordMode, scrubbing: Scrubbing,
         fileID: String, filePath: String, line: Int) throws {
        self.file = file
        self.mode = mode
        self.scrubbing = scrubbing
        let exists = FileManager.default.fileExists(atPath: file.path)
        switch mode {
        case .none:
            guard exists else { throw StubError.fileNotFound(path: file.path) }
            isRecording = false
        case .once:
            isRecording = !exists
        case .newEpisodes:
            isRecording = true
        case .all:
            isRecording = true
        }
        registry.scrubbing = scrubbing
        replayed = (exists && mode != .all) ? try HAR.read(contentsOf: file) : []
        if mode == .none { registry.unmatchedRequestPolicy = .fail }
        if isRecording {
            // Added first, so every replayed entry (added after) takes precedence over it.
            let recorder = self
            _ = registry.add(.any, name: "HAR recorder (\(file.lastPathComponent))", times: nil,
                             location: StubLocation(fileID: fileID, filePath: filePath, line: line)) { request, _ in
                .passthrough(ResponseTransform("record to \(file.lastPathComponent)") { response, body in
                    recorder.capture(request, response, body)
                    return (response, body)
                })
            }
        }
        var options = HARReplayOptions()
        options.scrubbing = scrubbing
        registry.stubs(fromHAREntries: replayed, named: file.lastPathComponent, options: options,
                       fileID: fileID, filePath: filePath, line: line)
    }

    /// Adds the exchange and writes the file at once, before the caller gets the response:
    /// a test that crashes, or forgets ``save()``, still leaves every exchange it saw on disk.
    private func capture(_ request: StubRequest, _ response: HTTPURLResponse, _ body: Data) {
        let entry = HAREntry(request: request.urlRequest, body: request.body, response: response, responseBody: body,
                             startedDateTime: Date(), time: 0)
        lock.lock(); defer { lock.unlock() }
        recorded.append(scrubbing.scrub(entry))
        // A failed write here is reported by save(), which writes again.
        try? writeLocked()
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
    public func record(to file: URL, mode: RecordMode = .once, scrubbing: Scrubbing = .default,
                       fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) throws -> HARRecorder {
        try HARRecorder(registry: self, file: file, mode: mode, scrubbing: scrubbing, fileID: fileID, filePath: filePath, line: line)
    }
}
