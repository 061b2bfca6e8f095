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
    public init(
        headers: Set<String> = ["Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization"],
        queryParameters: Set<String> = [], jsonFields: Set<String> = [], placeholder: String = "<scrubbed>"
    ) {
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
            let items = components.queryItems
        else { return url }
        components.queryItems = items.map { queryParameters.contains($0.name) ? URLQueryItem(name: $0.name, value: placeholder) : $0 }
        return components.url ?? url
    }

    /// The body with its secret JSON members replaced; byte for byte the same body when it
    /// holds none (a replay then serves exactly what the server sent).
    func scrub(_ body: Data?) -> Data? {
        guard let body, !jsonFields.isEmpty, let json = try? JSONValue(data: body) else { return body }
        let scrubbed = scrub(json)
        return scrubbed == json ? body : scrubbed.serialized()
    }

    private func scrub(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                Dictionary(
                    uniqueKeysWithValues: members.map { key, member in
                        (key, jsonFields.contains(key) ? .string(placeholder) : scrub(member))
                    }))
        case .array(let elements):
            return .array(elements.map(scrub))
        default:
            return value
        }
    }

    /// The entry with every secret replaced: the named headers, query parameters and JSON
    /// members, and then any copy of their values found elsewhere (a server that echoes the
    /// request, an error page quoting the token, a session id in both a cookie and a body).
    func scrub(_ entry: HAREntry) -> HAREntry {
        var copy = entry
        copy.url = scrub(entry.url)
        copy.requestHeaders = scrub(entry.requestHeaders)
        copy.requestBody = scrub(entry.requestBody)
        copy.responseHeaders = scrub(entry.responseHeaders)
        copy.responseBody = scrub(entry.responseBody) ?? entry.responseBody
        let secrets = secretValues(in: entry)
        guard !secrets.isEmpty else { return copy }
        let placeholderBytes = Data(placeholder.utf8)
        func erase(_ text: String) -> String {
            secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
        }
        func erase(_ data: Data) -> Data {
            secrets.reduce(data) { Self.replacing(Data($1.utf8), with: placeholderBytes, in: $0) }
        }
        copy.url = URL(string: erase(copy.url.absoluteString)) ?? copy.url
        copy.requestHeaders = copy.requestHeaders.map { .init(name: $0.name, value: erase($0.value)) }
        copy.responseHeaders = copy.responseHeaders.map { .init(name: $0.name, value: erase($0.value)) }
        copy.requestBody = copy.requestBody.map(erase)
        copy.responseBody = erase(copy.responseBody)
        return copy
    }

    /// A live request's URL and body as a recording of it would hold them.
    func scrubRequest(of request: StubRequest) -> (url: URL, body: Data?) {
        let headers = (request.urlRequest.allHTTPHeaderFields ?? [:]).map { HAREntry.Header(name: $0.key, value: $0.value) }
        let entry = HAREntry(
            method: request.method, url: request.url ?? URL(fileURLWithPath: "/"), requestHeaders: headers,
            requestBody: request.body, status: 0)
        let scrubbed = scrub(entry)
        return (scrubbed.url, scrubbed.requestBody)
    }

    /// The values this policy scrubs in `entry`, longest first, ignoring values shorter than
    /// four characters (replacing every "1" or "ok" would mangle the recording). An
    /// `Authorization` value also yields its credential alone, a cookie header each value.
    private func secretValues(in entry: HAREntry) -> [String] {
        var secrets: Set<String> = []
        for header in entry.requestHeaders + entry.responseHeaders where headers.contains(header.name.lowercased()) {
            secrets.insert(header.value)
            let name = header.name.lowercased()
            if name == "authorization" || name == "proxy-authorization", let space = header.value.firstIndex(of: " ") {
                secrets.insert(String(header.value[header.value.index(after: space)...]).trimmingCharacters(in: .whitespaces))
            }
            if name == "cookie" || name == "set-cookie" {
                let pairs = header.value.split(separator: ";")
                // A Set-Cookie line's first pair is the cookie; the rest are its attributes.
                for pair in name == "cookie" ? pairs[...] : pairs.prefix(1) {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    secrets.insert(String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        if !queryParameters.isEmpty, let items = URLComponents(url: entry.url, resolvingAgainstBaseURL: false)?.queryItems {
            for item in items where queryParameters.contains(item.name) {
                if let value = item.value { secrets.insert(value) }
            }
        }
        if !jsonFields.isEmpty {
            for body in [entry.requestBody, entry.responseBody] {
                guard let body, let json = try? JSONValue(data: body) else { continue }
                collectJSONSecrets(json, into: &secrets)
            }
        }
        return secrets.filter { $0.count >= 4 && $0 != placeholder }.sorted { $0.count > $1.count }
    }

    private func collectJSONSecrets(_ value: JSONValue, into secrets: inout Set<String>) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                if jsonFields.contains(key) {
                    switch member {
                    case .string(let text): secrets.insert(text)
                    case .integer(let number): secrets.insert(String(number))
                    default: break
                    }
                } else {
                    collectJSONSecrets(member, into: &secrets)
                }
            }
        case .array(let elements):
            for element in elements { collectJSONSecrets(element, into: &secrets) }
        default:
            break
        }
    }

    /// `data` with every occurrence of `target` replaced.
    private static func replacing(_ target: Data, with replacement: Data, in data: Data) -> Data {
        guard !target.isEmpty, data.count >= target.count, data.range(of: target) != nil else { return data }
        var result = Data()
        var rest = data[...]
        while let found = rest.range(of: target) {
            result.append(rest[rest.startIndex..<found.lowerBound])
            result.append(replacement)
            rest = rest[found.upperBound...]
        }
        result.append(rest)
        return result
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

    init(
        registry: StubRegistry, file: URL, mode: RecordMode, scrubbing: Scrubbing,
        fileID: String, filePath: String, line: Int
    ) throws {
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
            _ = registry.add(
                .any, name: "HAR recorder (\(file.lastPathComponent))", times: nil,
                location: StubLocation(fileID: fileID, filePath: filePath, line: line)
            ) { request, _ in
                .passthrough(
                    ResponseTransform("record to \(file.lastPathComponent)") { response, body in
                        recorder.capture(request, response, body)
                        return (response, body)
                    })
            }
        }
        var options = HARReplayOptions()
        options.scrubbing = scrubbing
        registry.stubs(
            fromHAREntries: replayed, named: file.lastPathComponent, options: options,
            fileID: fileID, filePath: filePath, line: line)
    }

    /// Adds the exchange and writes the file at once, before the caller gets the response:
    /// a test that crashes, or forgets ``save()``, still leaves every exchange it saw on disk.
    private func capture(_ request: StubRequest, _ response: HTTPURLResponse, _ body: Data) {
        let entry = HAREntry(
            request: request.urlRequest, body: request.body, response: response, responseBody: body,
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
    public func record(
        to file: URL, mode: RecordMode = .once, scrubbing: Scrubbing = .default,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> HARRecorder {
        try HARRecorder(registry: self, file: file, mode: mode, scrubbing: scrubbing, fileID: fileID, filePath: filePath, line: line)
    }
}
