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

/// What is removed from recordings before anything touches disk.
///
/// Values are replaced by ``placeholder``; replay treats the placeholder as "any value", so a
/// scrubbed recording still matches the live requests that produced it.
public struct Scrubbing: Sendable {
    /// Header names (case-insensitive) whose values are scrubbed, in requests and responses.
    public var headers: Set<String>
    /// Query parameter names whose values are scrubbed.
    public var queryParameters: Set<String>
    /// JSON member names whose values are scrubbed wherever they appear in a body.
    public var jsonFields: Set<String>
    /// What replaces a secret.
    public var placeholder: String

    /// `Authorization`, `Cookie`, `Set-Cookie` and `Proxy-Authorization`.
    public static let `default` = Scrubbing()
    /// Nothing is scrubbed.
    public static let nothing = Scrubbing(headers: [], queryParameters: [], jsonFields: [])

    /// A policy; `headers` starts from the four credential headers unless you pass others.
    public init(headers: Set<String> = ["Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization"],
                queryParameters: Set<String> = [], jsonFields: Set<String> = [], placeholder: String = "<scrubbed>") {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = queryParameters
        self.jsonFields = jsonFields
        self.placeholder = placeholder
    }

    /// This policy plus more header names, query parameters and JSON fields.
    public func adding(headers: Set<String> = [], queryParameters: Set<String> = [], jsonFields: Set<String> = []) -> Scrubbing {
        var copy = self
        copy.headers.formUnion(headers.map { $0.lowercased() })
        copy.queryParameters.formUnion(queryParameters)
        copy.jsonFields.formUnion(jsonFields)
        return copy
    }

    func scrub(_ headers: [HAREntry.Header]) -> [HAREntry.Header] {
        headers.map { self.headers.contains($0.name.lowercased()) ? .init(name: $0.name, value: placeholder) : $0 }
    }

    func scrub(_ url: URL) -> URL {
        guard !queryParameters.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let items = components.queryItems else { return url }
        components.queryItems = items.map { queryParameters.contains($0.name) ? URLQueryItem(name: $0.name, value: placeholder) : $0 }
        return components.url ?? url
    }

    func scrub(_ body: Data?) -> Data? {
        guard let body, !jsonFields.isEmpty, let json = try? JSONValue(data: body) else { return body }
        return scrub(json).serialized()
    }

    private func scrub(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(Dictionary(uniqueKeysWithValues: members.map { key, member in
                (key, jsonFields.contains(key) ? .string(placeholder) : scrub(member))
            }))
        case .array(let elements):
            return .array(elements.map(scrub))
        default:
            return value
        }
    }

    func scrub(_ entry: HAREntry) -> HAREntry {
        var copy = entry
        copy.url = scrub(entry.url)
        copy.requestHeaders = scrub(entry.requestHeaders)
        copy.requestBody = scrub(entry.requestBody)
        copy.responseHeaders = scrub(entry.responseHeaders)
        copy.responseBody = scrub(entry.responseBody) ?? entry.responseBody
        return copy
    }
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

    private func capture(_ request: StubRequest, _ response: HTTPURLResponse, _ body: Data) {
        let entry = HAREntry(request: request.urlRequest, body: request.body, response: response, responseBody: body,
                             startedDateTime: Date(), time: 0)
        lock.lock(); recorded.append(scrubbing.scrub(entry)); lock.unlock()
    }

    /// Entries recorded so far in this run (already scrubbed).
    public var recordedEntries: [HAREntry] {
        lock.lock(); defer { lock.unlock() }
        return recorded
    }

    /// Writes the file when this run recorded something: the replayed entries first (in
    /// `newEpisodes` mode), then the new ones in the order they completed.
    public func save() throws {
        lock.lock()
        let entries = replayed.map(scrubbing.scrub) + recorded
        let changed = !recorded.isEmpty || (mode == .all)
        lock.unlock()
        guard isRecording, changed else { return }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try HAR.write(entries).write(to: file, options: .atomic)
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
