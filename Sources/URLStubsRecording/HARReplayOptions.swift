import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// How HAR entries become stubs.
public struct HARReplayOptions: Sendable {
    /// Use each entry's `time` as the stub's request time.
    public var replaysTimings = false
    /// Request headers ignored when ranking entries that share method, URL and body.
    public var ignoredHeaders: Set<String> = ["user-agent", "accept-encoding", "connection", "content-length", "host"]

    /// Recorded values replaced by this policy's placeholder match any live value.
    public var scrubbing: Scrubbing?

    /// Query parameters, headers and JSON body paths that change on every run (a cache
    /// buster, a request id, a timestamp): left out when deciding which recorded request a
    /// live one is, so a recording made yesterday still matches today's requests.
    ///
    /// ```swift
    /// var options = HARReplayOptions()
    /// options.volatileFields = VolatileFields(queryParameters: ["_"], jsonPaths: ["$.sentAt", "$.variables.clientTime"])
    /// ```
    public var volatileFields: VolatileFields = VolatileFields()

    /// When `true`, every recorded request the test never made is a problem of
    /// `StubRegistry.verify(includePassedThrough:)`, named by method and URL: the recording
    /// holds requests the code no longer sends and should be re-recorded. `false` by default
    /// here (a shared fixture archive may hold more than one test uses); recordings made by
    /// `StubRegistry.record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`
    /// turn it on.
    public var reportsUnusedEntries = false

    /// The defaults: no timing, common transport headers ignored, nothing volatile.
    public init(replaysTimings: Bool = false, volatileFields: VolatileFields = VolatileFields()) {
        self.replaysTimings = replaysTimings
        self.volatileFields = volatileFields
    }
}

extension HARReplayOptions {
    /// The options as data, as HAR declarations carry them (`reportsUnusedEntries` aside):
    /// `{"replaysTimings": false, "ignoredHeaders": […], "volatileFields": {…}, "scrubbing": {…}}`.
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "replaysTimings": .bool(replaysTimings), "ignoredHeaders": .array(ignoredHeaders.sorted().map(JSONValue.string)),
            "volatileFields": volatileFields.json,
        ]
        if let scrubbing {
            members["scrubbing"] = .object([
                "headers": .array(scrubbing.headers.sorted().map(JSONValue.string)),
                "queryParameters": .array(scrubbing.queryParameters.sorted().map(JSONValue.string)),
                "jsonFields": .array(scrubbing.jsonFields.sorted().map(JSONValue.string)), "placeholder": .string(scrubbing.placeholder),
            ])
        }
        return .object(members)
    }

    /// Reads ``json``; a member of the wrong shape is an error naming it.
    init(json: JSONValue) throws {
        guard case .object(let members) = json else { throw HARDeclarationProblem(description: "expected the replay options as an object") }
        func strings(_ value: JSONValue?, _ name: String) throws -> [String]? {
            guard let value else { return nil }
            guard case .array(let elements) = value else { throw HARDeclarationProblem(description: "expected \(name) as an array of strings") }
            return try elements.map { element in
                guard case .string(let text) = element else { throw HARDeclarationProblem(description: "expected \(name) as an array of strings") }
                return text
            }
        }
        self.init()
        if case .bool(let replays)? = members["replaysTimings"] { replaysTimings = replays }
        if let headers = try strings(members["ignoredHeaders"], "ignoredHeaders") { ignoredHeaders = Set(headers) }
        if case .object(let volatile)? = members["volatileFields"] {
            volatileFields = VolatileFields(
                queryParameters: Set(try strings(volatile["queryParameters"], "volatileFields.queryParameters") ?? []),
                headers: Set(try strings(volatile["headers"], "volatileFields.headers") ?? []),
                jsonPaths: try strings(volatile["jsonPaths"], "volatileFields.jsonPaths") ?? [])
        }
        if case .object(let rules)? = members["scrubbing"] {
            scrubbing = Scrubbing(
                headers: Set(try strings(rules["headers"], "scrubbing.headers") ?? []),
                queryParameters: Set(try strings(rules["queryParameters"], "scrubbing.queryParameters") ?? []),
                jsonFields: Set(try strings(rules["jsonFields"], "scrubbing.jsonFields") ?? []),
                placeholder: { if case .string(let text)? = rules["placeholder"] { return text } else { return "<scrubbed>" } }())
        }
    }
}
