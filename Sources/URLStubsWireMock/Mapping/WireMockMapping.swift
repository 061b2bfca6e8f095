import Foundation
import URLStubs

/// One WireMock stub mapping: a request pattern, the response for requests that match it, and
/// its priority and scenario state, exactly as WireMock's JSON mapping format writes them.
///
/// Reading is strict: a member WireMock does not have, a matcher or a fault it does not know,
/// or one URLStubs does not serve (`equalToXml`, `matchesXPath`, a Java extension) throws an
/// error naming the member's JSON path, what WireMock would have done and what to write
/// instead. Writing produces WireMock's own JSON, so a folder can be written back.
///
/// ```swift
/// let mappings = try WireMockMapping.mappings(in: Data(#"""
///     {"request": {"method": "GET", "urlPath": "/users"},
///      "response": {"status": 200, "jsonBody": [{"id": 1}]}}
///     """#.utf8), source: "users.json")
/// mappings[0].response.status   // 200
/// ```
public struct WireMockMapping: Sendable, Hashable {
    /// `id` (or `uuid`): the mapping's identifier; `nil` when the file has none.
    public var id: UUID?
    /// `name`.
    public var name: String?
    /// `priority`: 1 is the highest; `nil` is WireMock's default, 5.
    public var priority: Int?
    /// `request`: what the mapping matches.
    public var request: RequestPattern
    /// `response`: what it answers.
    public var response: ResponseDefinition
    /// `metadata`: any JSON object, kept as written.
    public var metadata: [String: JSONValue]?
    /// `persistent`: whether WireMock saves a mapping made through its admin API to disk.
    public var persistent: Bool?
    /// `scenarioName`: the scenario the mapping belongs to.
    public var scenarioName: String?
    /// `requiredScenarioState`: the state the scenario must be in for the mapping to match.
    public var requiredScenarioState: String?
    /// `newScenarioState`: the state the scenario moves to once the mapping answered.
    public var newScenarioState: String?

    /// WireMock's priority when a mapping sets none.
    public static let defaultPriority = 5

    /// The priority WireMock orders the mapping by: ``priority``, or 5.
    public var effectivePriority: Int { priority ?? Self.defaultPriority }

    /// A mapping; a request pattern left out matches any request, a response left out is a 200
    /// with no body.
    public init(
        id: UUID? = nil, name: String? = nil, priority: Int? = nil, request: RequestPattern = RequestPattern(),
        response: ResponseDefinition = ResponseDefinition(), metadata: [String: JSONValue]? = nil, persistent: Bool? = nil,
        scenarioName: String? = nil, requiredScenarioState: String? = nil, newScenarioState: String? = nil
    ) {
        self.id = id
        self.name = name
        self.priority = priority
        self.request = request
        self.response = response
        self.metadata = metadata
        self.persistent = persistent
        self.scenarioName = scenarioName
        self.requiredScenarioState = requiredScenarioState
        self.newScenarioState = newScenarioState
    }
}

extension WireMockMapping: Codable {
    static let members = [
        "id", "uuid", "name", "priority", "request", "response", "metadata", "persistent", "scenarioName", "requiredScenarioState",
        "newScenarioState", "insertionIndex", "$schema",
    ]

    static let unsupported: [String: (wireMock: String, instead: String)] = [
        "postServeActions": ("runs after answering (webhooks, Java extensions)", "URLStubs has no post-serve actions; remove them"),
        "serveEventListeners": ("runs Java listeners around the request (webhooks)", "URLStubs has no serve event listeners; remove them"),
    ]

    /// Reads a mapping object, refusing members WireMock does not have. `insertionIndex` and
    /// `$schema` are read and dropped, as WireMock drops them.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: MemberKey.self)
        try object.refuseUnknownMembers(of: "a mapping", known: Self.members, unsupported: Self.unsupported)
        guard object.has("request") || object.has("response") else {
            throw MappingProblem.refused(
                at: decoder.codingPath,
                "a mapping with a \"request\", a \"response\" or both, found neither; WireMock would read it as a mapping that answers "
                    + "every request with an empty 200, which is never what a file means")
        }
        var id: UUID?
        for member in ["id", "uuid"] where object.has(member) && id == nil {
            let text = try object.decode(String.self, forKey: MemberKey(member))
            guard let value = UUID(uuidString: text) else {
                throw MappingProblem.refused(at: decoder.codingPath + [MemberKey(member)], "a UUID, found \"\(text)\"; WireMock refuses it too")
            }
            id = value
        }
        if let priority: Int = try object.value("priority"), priority < 1 {
            throw MappingProblem.refused(at: decoder.codingPath + [MemberKey("priority")], "a priority of 1 (the highest) or more, found \(priority)")
        }
        var metadata: [String: JSONValue]?
        if object.has("metadata") {
            guard case .object(let members)? = try object.json("metadata") else {
                throw MappingProblem.refused(at: decoder.codingPath + [MemberKey("metadata")], "a JSON object; WireMock refuses other values too")
            }
            metadata = members
        }
        self.init(
            id: id, name: try object.value("name"), priority: try object.value("priority"),
            request: try object.value("request") ?? RequestPattern(), response: try object.value("response") ?? ResponseDefinition(),
            metadata: metadata, persistent: try object.value("persistent"), scenarioName: try object.value("scenarioName"),
            requiredScenarioState: try object.value("requiredScenarioState"), newScenarioState: try object.value("newScenarioState"))
    }

    /// Writes the mapping as WireMock writes it (`id` and `uuid` both, as WireMock does).
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: MemberKey.self)
        if let id {
            try object.put(id.uuidString.lowercased(), "id")
        }
        try object.put(name, "name")
        try object.put(request, "request")
        try object.put(response, "response")
        if let id { try object.put(id.uuidString.lowercased(), "uuid") }
        try object.put(persistent, "persistent")
        try object.put(priority, "priority")
        try object.put(scenarioName, "scenarioName")
        try object.put(requiredScenarioState, "requiredScenarioState")
        try object.put(newScenarioState, "newScenarioState")
        if let metadata, !metadata.isEmpty { try object.putJSON(.object(metadata), "metadata") }
    }

    /// The mappings of one mapping file's JSON: a single mapping object, or
    /// `{"mappings": [ … ]}`, in the order written. `source` names the file in errors.
    ///
    /// - Throws: `FixtureError` (`.malformed`): for text that is not JSON, the line and
    ///   column; for a mapping WireMock or URLStubs would refuse, the JSON path and why.
    public static func mappings(in data: Data, source: String) throws -> [WireMockMapping] {
        try read(data, source: source).mappings
    }

    /// The mappings of one file, and whether the file lists them (`{"mappings": [ … ]}`).
    static func read(_ data: Data, source: String) throws -> (mappings: [WireMockMapping], listed: Bool) {
        // Foundation's decoder accepts what Jackson refuses (a trailing comma): the library's
        // reader decides what is JSON, and places the problem.
        let document: JSONValue
        do {
            document = try JSONValue.parsing(data)
        } catch {
            throw FixtureError.malformed(
                source, jsonPath: "$",
                expected:
                    "JSON text, but \(error); WireMock refuses the file too (though it reads comments and single quotes, which URLStubs does not)")
        }
        do {
            let listed: Bool
            if case .object(let members) = document, members["mappings"] != nil { listed = true } else { listed = false }
            return (try JSONValueDecoder.decode(MappingFile.self, from: document).mappings, listed)
        } catch {
            throw MappingProblem.fixtureError(error, source: source)
        }
    }
}

/// A mapping file: one mapping, or `{"mappings": [ … ]}`.
struct MappingFile: Decodable {
    let mappings: [WireMockMapping]

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: MemberKey.self)
        if object.has("mappings") {
            try object.refuseUnknownMembers(of: "a file of several mappings", known: ["mappings", "meta"])
            mappings = try object.decode([WireMockMapping].self, forKey: MemberKey("mappings"))
        } else {
            mappings = [try WireMockMapping(from: decoder)]
        }
    }
}
