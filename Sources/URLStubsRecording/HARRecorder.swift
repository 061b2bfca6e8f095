import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubsGraphQL
import URLStubs

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
/// Secrets are scrubbed (`Scrubbing.default`) before anything is written. Recording never
/// delays a response for the disk, costs the same for the thousandth exchange as for the first,
/// and a crash or a kill never leaves a broken cassette (see ``save()``). A second recorder of
/// a cassette a live recorder holds throws `StubError.library(RecordingFailure.cassetteInUse(path:heldBy:requestedBy:))`.
/// A recording in which an exchange failed at the network (the server down) never replaces the
/// cassette: ``save()`` throws
/// `StubError.library(RecordingFailure.recordingFailed(path:failedExchanges:firstFailure:previousKept:command:))`.
///
/// The recorder is a stub that passes every request through and records it, added when the
/// recording starts. The newest matching stub answers a request, so a stub added after
/// `StubRegistry.record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`
/// answers before the recorder (its exchanges are not recorded, passthrough ones included),
/// and one added before it is never reached while the recorder records.
public final class HARRecorder: @unchecked Sendable {
    /// The file recorded to or replayed from.
    package let cassette: URL
    /// The mode in force: the one in code unless `URLSTUBS_RECORD` or `CI` says otherwise (see
    /// ``RecordMode``).
    public let mode: RecordMode
    /// What is scrubbed (also the registry's `StubRegistry.scrubbing`).
    package let scrubbingRules: Scrubbing
    /// What replay leaves out when it decides whether a live request is a recorded one: a
    /// request differing from a recorded one only there is replayed, never recorded again.
    let volatileFields: VolatileFields
    /// `true` when this recorder talks to the network (`once` without a file, `newEpisodes`, `all`).
    public let isRecording: Bool

    private let lock = NSLock()
    private var replayed: [HAREntry]
    /// `newEpisodes`: the requests recorded in this run, as replay tells requests apart.
    private var recordedRequests: Set<String> = []
    /// `newEpisodes`: where an exchange just recorded becomes a replayed one.
    private weak var registry: StubRegistry?
    private let replayOptions: HARReplayOptions
    private let location: StubLocation
    /// Who records, for the error a second recorder of the cassette gets: the test and the line.
    private let owner: String
    /// The test, for the command that records the cassette again.
    private let testName: String

    /// The recorder's writer: every exchange is scrubbed and written here, one after the other,
    /// never on the request's way back to the app. The fields below are used on it only.
    let writer: DispatchQueue
    private var recorded: [HAREntry] = []
    /// The cassette's lock and the exchanges not yet saved; `nil` after a save, until the next
    /// exchange takes the cassette again.
    private var partial: PartialCassette?
    /// Another recorder took the cassette between a save and a later exchange of this one:
    /// thrown by the next save.
    private var conflict: Error?
    /// Exchanges that failed at the network, and the first of them, scrubbed: a save then
    /// refuses to replace the cassette.
    private var networkFailures = 0
    private var firstNetworkFailure: String?
    /// The file the last save wrote (an atomic save makes a new one each time): a later exchange
    /// finds out whether another recorder saved the cassette since, and refuses to write over it.
    private var savedFileNumber: UInt64?

    init(
        registry: StubRegistry, file: URL, mode inCode: RecordMode, scrubbing: Scrubbing, volatileFields: VolatileFields, reportsUnusedEntries: Bool,
        environment: [String: String], testName: String, fileID: String, filePath: String, line: Int
    ) throws {
        // The formats the package scrubs (a GraphQL document's inline arguments, a multipart
        // form's fields) are known before the first exchange is scrubbed, also in an app that
        // never names their APIs; replay reads its requests through them too.
        GraphQLStrategy.register()
        let (mode, reason) = try RecordMode.inForce(inCode: inCode, environment: environment)
        self.cassette = file
        self.mode = mode
        self.scrubbingRules = scrubbing
        self.volatileFields = volatileFields
        self.owner = "\(testName) (\(fileID):\(line))"
        self.testName = testName
        writer = DispatchQueue(label: "URLStubs.HARRecorder.\(file.lastPathComponent)")
        let fileManager = FileManager.default
        // A folder or a FIFO at the path: said now, as a FixtureError, not by a failed save.
        try ArchiveFileCheck.checkWritable(file)
        // The cassette's lock: needed to record, and to fold in what a dead run left.
        let wouldRecord = mode == .all || mode == .newEpisodes || (mode == .once && !fileManager.fileExists(atPath: file.path))
        var partial: PartialCassette?
        let leftBehind = [PartialCassette.url(of: file), CassetteReplacement.temporaryURL(of: file)]
        if wouldRecord || leftBehind.contains(where: { fileManager.fileExists(atPath: $0.path) }) {
            do {
                partial = try PartialCassette(cassette: file, recordedBy: owner, mode: mode)
            } catch StubError.library(RecordingFailure.cassetteInUse(let path, let holder, let requester)) {
                // Replaying a cassette another recorder records is only reading it.
                if wouldRecord { throw StubError.library(RecordingFailure.cassetteInUse(path: path, heldBy: holder, requestedBy: requester)) }
            }
            if let partial {
                // A save killed while it wrote; no save runs now, as this recorder holds the lock.
                CassetteReplacement.removeLeftover(of: file)
                // A dead run whose exchange failed at the network would not have saved either.
                if partial.leftover.networkFailures == 0 { try Self.fold(partial, into: file) }
            }
        }
        let exists = fileManager.fileExists(atPath: file.path)
        switch mode {
        case .none:
            guard exists else {
                throw StubError.library(
                    RecordingFailure.recordingMissing(
                        path: file.path, reason: reason,
                        command: RecordMode.recordingCommand(testName: testName)))
            }
            isRecording = false
        case .once:
            isRecording = !exists
        case .newEpisodes:
            isRecording = true
        case .all:
            isRecording = true
        }
        if isRecording {
            try partial?.begin()
            self.partial = partial
        } else {
            partial?.close()
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
        if !isRecording {
            registry.setReportNote(RecorderNotes.notInCassette(file, entries: replayed.count, testName: testName), for: "URLStubsRecording")
        }
        if isRecording {
            let shadowed = registry.stubs
            if !shadowed.isEmpty {
                FileHandle.standardError.write(Data((RecorderNotes.shadowedStubs(shadowed, cassette: file, location: location) + "\n").utf8))
            }
            // Added first, so every replayed entry (added after) takes precedence over it.
            let recorder = self
            _ = registry.add(
                StubSpec(.any, name: "HAR recorder (\(file.lastPathComponent))", times: nil, location: location) { request, _ in
                    .passthrough(
                        ResponseTransform(
                            "record to \(file.lastPathComponent)",
                            { response, body in
                                recorder.capture(request, response, body)
                                return (response, body)
                            },
                            networkFailed: { error in recorder.captureNetworkFailure(of: request, error) }))
                })
        }
        registry.stubs(
            fromHAREntries: replayed, named: file.lastPathComponent, options: options,
            fileID: fileID, filePath: filePath, line: line)
    }

    deinit {
        partial?.close()
    }

    /// Hands the exchange to the writer and returns at once: the response goes on to the app
    /// while the writer scrubs the exchange and appends it to `<cassette>.partial`, a cost that
    /// does not grow with the exchanges before it. The cassette itself changes only in
    /// ``save()``; a test that crashes, or forgets ``save()``, leaves its exchanges in the
    /// partial file, which the next recorder of the cassette folds in.
    ///
    /// In `newEpisodes` mode the exchange then joins the replayed ones: a later request that
    /// replay takes for the same one (equal but for volatile fields) is answered from it, as
    /// it would be from the file in every later run, and is neither sent nor recorded again.
    /// Two such requests in flight at once both reach the network; the second is not recorded.
    private func capture(_ request: StubRequest, _ response: HTTPURLResponse, _ body: Data) {
        let entry = HAREntry(
            exchange: request.urlRequest, body: request.body, response: response, responseBody: body,
            startedDateTime: Date(), time: 0)
        guard mode == .newEpisodes, let registry else {
            writer.async { [self] in record(scrubbingRules.scrub(entry)) }
            return
        }
        // Replay must know this exchange before the app can send the same request again.
        let scrubbed = scrubbingRules.scrub(entry)
        lock.lock()
        let isNew = recordedRequests.insert(HARRequestIdentity(scrubbed, volatile: volatileFields).key).inserted
        lock.unlock()
        guard isNew else { return }
        writer.async { [self] in record(scrubbed) }
        var options = replayOptions
        // Made by this run's test, so never "a recording the test no longer uses".
        options.reportsUnusedEntries = false
        registry.stubs(
            fromHAREntries: [scrubbed], named: cassette.lastPathComponent, options: options,
            fileID: location.fileID, filePath: location.filePath, line: location.line)
    }

    /// On the writer: keeps the exchange, and appends it to the partial file, taking the
    /// cassette again if a save gave it up.
    private func record(_ entry: HAREntry) {
        recorded.append(entry)
        if partial == nil, conflict == nil {
            do {
                let retaken = try PartialCassette(cassette: cassette, recordedBy: owner, mode: mode)
                if let savedFileNumber, Self.fileNumber(of: cassette) != savedFileNumber {
                    retaken.close()
                    throw StubError.library(
                        RecordingFailure.cassetteInUse(
                            path: cassette.path, heldBy: "another recorder, which saved it after this one did", requestedBy: owner))
                }
                try retaken.begin()
                partial = retaken
            } catch {
                conflict = error
            }
        }
        partial?.append(entry)
    }

    /// Notes an exchange that failed at the network (a cancelled request did not fail): the
    /// save will refuse to replace the cassette with a recording that lacks it.
    private func captureNetworkFailure(of request: StubRequest, _ error: any Error) {
        let failure = error as NSError
        if failure.domain == NSURLErrorDomain, failure.code == URLError.cancelled.rawValue { return }
        let description = scrubbingRules.redactor(for: request).redact(
            "\(request): \(failure.localizedDescription) (\(failure.domain) \(failure.code))")
        writer.async { [self] in
            networkFailures += 1
            if firstNetworkFailure == nil { firstNetworkFailure = description }
            partial?.appendNetworkFailure(description)
        }
    }

    /// Entries recorded so far in this run (already scrubbed), once the writer has them all.
    public var recordedEntries: [HAREntry] {
        writer.sync { recorded }
    }

    /// Writes the file when this run recorded something: the replayed entries first (in
    /// `newEpisodes` mode), then the new ones in the order they completed. Call this at the end
    /// of a test: until then the exchanges wait in `<cassette>.partial` beside the cassette (which
    /// a crash leaves whole, and the next recorder of the cassette folds in). The cassette is
    /// replaced atomically. In `.all` mode it writes an empty recording when nothing happened.
    ///
    /// When an exchange of this run failed at the network (the server was down, the VPN off),
    /// the recording lacks it, and a cassette without it would fail every later run: the save
    /// writes nothing, keeps the cassette as it was (and drops the partial file), and throws
    /// `StubError.library(RecordingFailure.recordingFailed(path:failedExchanges:firstFailure:previousKept:command:))`,
    /// whose message is the command that records the cassette again. Stub the requests meant to
    /// fail (`StubResponse.init(error:)`) so that they never reach the recorder.
    ///
    /// A save gives the cassette up: another recorder may then record it. An exchange this
    /// recorder records after the save takes it back, unless another recorder holds it or saved
    /// it in between.
    /// The cassette is written to `<cassette>.saving` beside it, then renamed into place. When
    /// that fails (a full disk, a folder this process may not write), the save throws
    /// `FixtureError` (of kind `unwritable`): the previous cassette is kept, and the message says where this
    /// run's exchanges stay and what to do. A partial file one of whose writes failed is never
    /// folded in, so a full disk never replaces a good cassette with part of a run.
    ///
    /// - Throws: `FixtureError` (of kind `unwritable`) for a cassette that cannot be written,
    ///   `StubError.library(RecordingFailure.recordingFailed(path:failedExchanges:firstFailure:previousKept:command:))`
    ///   when an exchange failed at the network, and
    ///   `StubError.library(RecordingFailure.cassetteInUse(path:heldBy:requestedBy:))` when another recorder held or
    ///   saved the cassette before an exchange this one recorded after a save (that exchange is
    ///   still in `recordedEntries`, never written over the other's).
    public func save() throws {
        try writer.sync {
            if let conflict { throw conflict }
            guard isRecording else { return }
            if networkFailures > 0 {
                // The exchanges that did succeed must not be folded in by a later recorder.
                try? partial?.markSaved()
                partial?.close()
                partial = nil
                throw StubError.library(
                    RecordingFailure.recordingFailed(
                        path: cassette.path, failedExchanges: networkFailures, firstFailure: firstNetworkFailure ?? "",
                        previousKept: FileManager.default.fileExists(atPath: cassette.path),
                        command: RecordMode.recordingCommand(testName: testName, mode: mode)))
            }
            // Without the cassette's lock, this recorder saved and recorded nothing since.
            guard let partial else { return }
            let changed = !recorded.isEmpty || (mode == .all)
            guard changed else { return }
            let entries = replayed.map(scrubbingRules.scrub) + recorded
            do {
                try CassetteReplacement.replace(cassette, with: HAR.write(entries)) { partial.noteSaving($0) }
            } catch let failure as CassetteReplacement.Failure {
                throw saveError(failure, partial: partial)
            }
            savedFileNumber = Self.fileNumber(of: cassette)
            try partial.markSaved()
            partial.close()
            self.partial = nil
        }
    }

    /// What a save that could not write the cassette throws: what failed, that the previous
    /// cassette was kept, where this run's exchanges stay (or that they could not be kept).
    private func saveError(_ failure: CassetteReplacement.Failure, partial: PartialCassette) -> FixtureError {
        let previous =
            FileManager.default.fileExists(atPath: cassette.path) ? "The previous cassette was kept as it was." : "No cassette was written."
        let stayed =
            partial.holdsUnsavedExchanges
            ? "This run's exchanges not yet saved stay in \(partial.url.path), which the next recording of this cassette folds in "
                + "(delete that file to drop them)."
            : "This run's exchanges could not be kept in \(partial.url.path) either (writing it failed too), "
                + "so the next recording leaves the cassette as it is."
        return FixtureError.cassetteNotWritten(
            cassette, headline: "the recording \(cassette.path) was not saved", action: failure.action, code: failure.code,
            outcome: "\(previous) \(stayed)", command: RecordMode.recordingCommand(testName: testName, mode: mode))
    }
}
