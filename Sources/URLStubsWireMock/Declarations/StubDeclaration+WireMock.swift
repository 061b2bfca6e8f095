import Foundation
import URLStubs

extension WireMockMapping {
    /// The WireMock mapping of a declaration, for what WireMock's format can say: the inverse
    /// of ``declaration(source:files:globalTemplating:seed:)`` for every mapping it read, and
    /// the same for declarations made in code with the parts WireMock has.
    ///
    /// ```swift
    /// let mappings = try registry.declarations.map { try WireMockMapping(declaration: $0) }
    /// ```
    ///
    /// - Throws: `FixtureError` (`.unwritable`) naming the stub and the part WireMock cannot
    ///   say (a `times` limit, a gate, a download speed, a `URLError`, a closure's pattern
    ///   kind, `anyOf`).
    public init(declaration: StubDeclaration) throws {
        let place = declaration.name ?? declaration.source?.description ?? "a declaration"
        func refuse(_ part: String) -> FixtureError { Self.unsayable(place, part) }
        if declaration.times != nil { throw refuse("times (WireMock mappings answer without limit)") }
        if !declaration.followingResponses.isEmpty { throw refuse("following responses (WireMock says a sequence with a scenario)") }
        var response: ResponseDefinition
        if let transformer = declaration.response.transformer {
            guard transformer.name == WireMockResponseTransformer.transformerName, case .object(let options) = transformer.value,
                let original = options["response"]
            else { throw refuse("the response transformer \"\(transformer.name)\"") }
            response = try WireMockPatternKinds.decode(ResponseDefinition.self, from: original)
        } else {
            response = try ResponseDefinition(declared: declaration.response, refuse: refuse)
        }
        if response.body == nil, case .file(let path)? = declaration.response.body, declaration.response.transformer != nil {
            response.body = .file(StubRegistry.bodyFileName(path))
        }
        var scenario: (String?, String?, String?) = (nil, nil, nil)
        if let step = declaration.scenario { scenario = (step.name, step.requiredState, step.newState) }
        var metadata: [String: JSONValue]?
        if let value = declaration.metadata {
            guard case .object(let members) = value else { throw refuse("metadata that is not a JSON object") }
            metadata = members
        }
        self.init(
            id: declaration.id.flatMap(UUID.init(uuidString:)), name: declaration.name, priority: declaration.priority,
            request: try RequestPattern(declared: declaration.request, refuse: refuse), response: response, metadata: metadata,
            scenarioName: scenario.0, requiredScenarioState: scenario.1, newScenarioState: scenario.2)
    }
}

extension WireMockMapping {
    /// The error for a stub WireMock's format cannot say, naming the part.
    static func unsayable(_ stub: String, _ part: String) -> FixtureError {
        let reason = "WireMock has no member for \(part)"
        return FixtureError.unwritable(stub, reason: reason, explanation: "URLStubs: \(stub) cannot be written as a WireMock mapping: \(reason)")
    }
}

extension WireMockMapping.ResponseDefinition {
    init(declared definition: URLStubs.ResponseDefinition, refuse: (String) -> FixtureError) throws {
        self.init(status: definition.status)
        for (name, value) in definition.headers { headers[name, default: []].append(value) }
        switch definition.body {
        case .text(let text)?: body = .text(text)
        case .bytes(let data)?: body = .base64(data)
        case .json(let json)?: body = .json(json)
        case .file(let path)?: body = .file(path.hasPrefix("/") ? StubRegistry.bodyFileName(path) : path)
        case .fixture?: throw refuse("a fixture body")
        case .stream?: throw refuse("a stream body")
        case nil: break
        }
        if let requestTime = definition.requestTime { fixedDelayMilliseconds = Int((requestTime * 1000).rounded()) }
        if let responseTime = definition.responseTime {
            chunkedDribbleDelay = .init(numberOfChunks: 10, totalDuration: Int((responseTime * 1000).rounded()))
        }
        if definition.downloadSpeed != nil { throw refuse("a download speed") }
        if definition.gate != nil { throw refuse("a gate") }
        switch definition.failure {
        case nil: break
        case .fault(.connectionReset)?: fault = .connectionResetByPeer
        case .fault(.emptyResponse)?: fault = .emptyResponse
        case .fault(.malformedResponseChunk)?: fault = .malformedResponseChunk
        case .fault(.randomDataThenClose)?: fault = .randomDataThenClose
        case .proxy(let base)?: proxyBaseUrl = base
        case let other?: throw refuse("the failure \(other)")
        }
    }
}
