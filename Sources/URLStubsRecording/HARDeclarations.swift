import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

extension HAR {
    /// The stubs of the HAR archive at `url`, each with the file as its source: the recorded exchanges as stubs that can be written
    /// to JSON, sent to another process, put in a scenario folder or checked against a document.
    ///
    /// ```swift
    /// let recorded = try HAR.declarations(contentsOf: url)
    /// try registry.stub(recorded)                       // answers as registry.stubs(fromHAR: url) does
    /// ```
    ///
    /// One declaration stands for each distinct request of the archive, as
    /// `StubRegistry.stubs(fromHAREntries:named:options:fileID:filePath:line:)` makes one stub for
    /// it, and answers identically. Its request pattern names the method, host, path and the
    /// query values that must be as recorded (a reader, the stub index and a contract check read
    /// them), and the
    /// `harRequest` pattern kind, whose value is the recorded request (as HAR writes it) and the replay options as data
    /// (`replaysTimings`, `ignoredHeaders`, `volatileFields`, `scrubbing`): what makes a live
    /// request "the same request" (a query in any order, a GraphQL operation by its meaning, the
    /// volatile fields left out, the live request scrubbed as the recording was) is no text,
    /// header or body pattern. A request recorded once answers with its response as data; one
    /// recorded several times, or a recorded failure (whose text a `URLError` code alone does
    /// not keep), answers through the `harReplay` transformer, which picks the entry
    /// sharing the most headers with the live request and plays identical ones in turn.
    ///
    /// `HARReplayOptions.reportsUnusedEntries` is not said by declarations (it is a check of the
    /// test, not of a stub): use `stubs(fromHAR:options:fileID:filePath:line:)` for it.
    /// - Throws: `FixtureError` naming the file and the JSON path of the first problem.
    public static func declarations(contentsOf url: URL, options: HARReplayOptions = HARReplayOptions()) throws -> [StubDeclaration] {
        declarations(try read(contentsOf: url), named: url.lastPathComponent, options: options).map { declaration in
            var declaration = declaration
            declaration.source = StubDeclaration.Source(file: url.path)
            return declaration
        }
    }

    /// Makes `.har` files a declaration file format (`DeclarationFileFormats`), so a scenario
    /// folder and `Scenario.har(_:name:profile:fileID:filePath:line:)` read them with the
    /// default options, and
    /// registers the `harRequest` pattern kind and the `harReplay` transformer that their
    /// declarations name. Later calls are free.
    public static func registerFormat() { _ = registration }

    private static let registration: Void = {
        RequestPatternKinds.register(HARRequestKind())
        ResponseTransformers.register(HARReplayTransformer())
        DeclarationFileFormats.register(HARFormat())
    }()
}

extension HAR {
    /// One declaration per distinct request of `entries` (see ``HAR/declarations(contentsOf:options:)``), named as
    /// `StubRegistry.stubs(fromHAREntries:named:options:fileID:filePath:line:)` names its stubs.
    static func declarations(_ entries: [HAREntry], named archive: String = "HAR", options: HARReplayOptions = HARReplayOptions())
        -> [StubDeclaration]
    {
        registerFormat()
        let optionsJSON = options.json
        return StubRegistry.harGroups(entries, volatile: options.volatileFields).map { group in
            let name = StubRegistry.harName(of: group.entries[0], identity: group.identity, archive: archive)
            let recorded: JSONValue = .object(["archive": .string(archive), "entries": entriesJSON([group.entries[0]]), "options": optionsJSON])
            var response = ResponseDefinition()
            // A recorded failure keeps its text (`net::ERR_…`) only through the transformer.
            let first = group.entries[0]
            let single = group.entries.count == 1 && first.failure == nil ? first.stubResponse(replayingTime: options.replaysTimings).definition : nil
            if let single {
                response = single
            } else {
                response = group.entries[0].stubResponse().definition ?? ResponseDefinition()
                response.transformer = ResponseDefinition.Transformer(
                    name: HARReplayTransformer.name,
                    value: .object(["archive": .string(archive), "entries": entriesJSON(group.entries), "options": optionsJSON]))
            }
            // Method, host and path as plain parts too: what a reader, an index or a contract
            // check reads first; the kind decides the rest.
            let components = URLComponents(url: group.entries[0].url, resolvingAgainstBaseURL: false)
            let host = components?.host.map { $0.lowercased() }.flatMap { $0.allSatisfy(\.isASCII) && !$0.contains("%") ? $0 : nil }
            let path = components?.path ?? ""
            // Query values every matching request carries as recorded (not volatile, not
            // scrubbed, not part of a format's identity), once each.
            let items = HARIndexKeys.indexableQueryItems(of: first, identity: group.identity, options: options)
            let names = Dictionary(grouping: items, by: \.name).filter { $0.value.count == 1 }
            let query = names.compactMapValues { $0[0].value.map { TextPattern.equalTo($0) } }
            let request = RequestPattern(
                method: first.method, host: host.map { .equalTo($0) }, path: path.isEmpty ? nil : .equalTo(path), query: query,
                body: [.kind(HARRequestKind.name, recorded)])
            return StubDeclaration(
                name: name, request: request, response: response,
                source: StubDeclaration.Source(file: archive))
        }
    }

    /// Entries as HAR writes them (`$.log.entries`).
    static func entriesJSON(_ entries: [HAREntry]) -> JSONValue {
        let dates = entryDateFormatter()
        return .array(entries.map { json(of: $0, dates: dates) })
    }

    /// The entries and options of a `harRequest` or `harReplay` value, or why it is not one.
    static func replayValue(_ value: JSONValue) throws -> (archive: String, entries: [HAREntry], options: HARReplayOptions) {
        guard case .object(let members) = value, case .string(let archive)? = members["archive"], let entries = members["entries"] else {
            throw HARDeclarationProblem(description: "expected {\"archive\": …, \"entries\": [HAR entries], \"options\": {…}}")
        }
        let reader = Reader(source: archive, dates: DateReader())
        let read = try reader.array(entries, at: "$.log.entries").enumerated().map { index, entry in
            try reader.entry(entry, at: "$.log.entries[\(index)]")
        }
        guard !read.isEmpty else { throw HARDeclarationProblem(description: "expected at least one HAR entry in \"entries\"") }
        return (archive, read, try HARReplayOptions(json: members["options"] ?? .object([:])))
    }
}

/// Why a `harRequest` or `harReplay` value cannot be used.
struct HARDeclarationProblem: Error, CustomStringConvertible {
    let description: String
}

/// `{"kind": "harRequest", "value": {…}}`: the request one HAR entry recorded, matched as replay matches it.
struct HARRequestKind: RequestPatternKind {
    static let name = "harRequest"
    var name: String { Self.name }

    func matcher(for value: JSONValue) -> RequestMatcher {
        do {
            let (archive, entries, options) = try HAR.replayValue(value)
            let location = StubLocation(fileID: archive, filePath: archive, line: 0)
            guard let spec = StubRegistry.harSpecs([entries[0]], archive: archive, options: options, location: location).first else {
                return .invalid(Self.name, problem: "expected a HAR entry")
            }
            return spec.matcher
        } catch {
            return .invalid(Self.name, problem: "\(error)")
        }
    }

    /// The recorded body as a body pattern: JSON equal as JSON, text as text, other bytes as
    /// bytes (a request without a body: no body pattern). Replay's own leniency (volatile
    /// fields, a GraphQL operation's meaning, the scrubbed values) has no plain spelling.
    func plainPattern(for value: JSONValue) -> RequestPattern? {
        guard let entry = try? HAR.replayValue(value).entries.first else { return nil }
        guard let body = entry.requestBody, !body.isEmpty else { return RequestPattern() }
        if entry.requestMimeType?.lowercased().contains("json") == true, let json = try? JSONValue(data: body) {
            return RequestPattern(body: [.json(json)])
        }
        if let text = String(data: body, encoding: .utf8) { return RequestPattern(body: [.equalTo(text)]) }
        return RequestPattern(body: [.binaryEqualTo(body)])
    }
}

/// `{"name": "harReplay", "value": {…}}`: the entries recorded for one request, answered as
/// replay answers them (the entry sharing the most headers with the request; identical ones in
/// turn, the last repeating).
struct HARReplayTransformer: ResponseTransformer {
    static let name = "harReplay"
    var name: String { Self.name }

    func responder(for value: JSONValue, base: ResponseDefinition) throws -> @Sendable (StubRequest) throws -> StubResponse {
        let (archive, entries, options) = try HAR.replayValue(value)
        let location = StubLocation(fileID: archive, filePath: archive, line: 0)
        guard let spec = StubRegistry.harSpecs(entries, archive: archive, options: options, location: location).first else {
            throw HARDeclarationProblem(description: "expected HAR entries")
        }
        let responder = spec.responder
        let turns = Turns()
        return { request in try responder(request, turns.next()) }
    }

    /// How many requests the stub answered before: the activation the responder gets.
    private final class Turns: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int {
            lock.lock(); defer { lock.unlock() }
            count += 1
            return count - 1
        }
    }
}

/// `.har` files as a declaration file format.
struct HARFormat: DeclarationFileFormat {
    let fileExtension = "har"

    func declarations(inFileAt url: URL) throws -> [StubDeclaration] { try HAR.declarations(contentsOf: url) }
}
