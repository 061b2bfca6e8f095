import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// Registers a declared stub: it answers like a stub made in code, ranks by its
    /// ``StubDeclaration/priority`` (then newest first), and appears in the journal, reports
    /// and ``verify(includePassedThrough:)`` under its name and source.
    ///
    /// ```swift
    /// try registry.stub(StubDeclaration(
    ///     name: "health", request: RequestPattern(path: .equalTo("/health")),
    ///     response: ResponseDefinition(body: .text("ok"))))
    /// ```
    /// - Parameters:
    ///   - declaration: The stub.
    ///   - folder: Where a relative `file` body is found (the folder of the file the
    ///     declaration was read from; the current directory when `nil`).
    /// - Throws: ``StubError/invalidDeclaration(source:path:problem:)`` for a declaration that
    ///   cannot match or be answered; nothing is registered then.
    @discardableResult
    public func stub(_ declaration: StubDeclaration, relativeTo folder: URL? = nil) throws -> StubDescriptor {
        let reader = DeclarationReader(source: declaration.label)
        try declaration.validate(reader: reader)
        try declaration.checkFixtures(relativeTo: folder, reader: reader)
        return add(declaration, relativeTo: folder)
    }

    /// Registers declared stubs, in order (a later one is newer), after checking every one:
    /// a list with one bad declaration registers none.
    /// - Parameters:
    ///   - declarations: The stubs.
    ///   - folder: Where a relative `file` body is found.
    @discardableResult
    public func stub(_ declarations: [StubDeclaration], relativeTo folder: URL? = nil) throws -> [StubDescriptor] {
        for (index, declaration) in declarations.enumerated() {
            let origin = declaration.source?.description ?? "declaration \(index)"
            let label = declaration.name.map { "stub \"\($0)\" (\(origin))" } ?? origin
            let reader = DeclarationReader(source: label)
            try declaration.validate(reader: reader)
            try declaration.checkFixtures(relativeTo: folder, reader: reader)
        }
        return declarations.map { add($0, relativeTo: folder) }
    }

    /// The gate named `name` that declarations hold their answers with
    /// (``ResponseDefinition/gate``), made on first use.
    ///
    /// ```swift
    /// registry.gate(named: "checkout").release()
    /// ```
    public func gate(named name: String) -> ResponseGate {
        namedGates.gate(named: name)
    }

    /// Every stub that data can say, as declarations, in the order they were added.
    public var declarations: [StubDeclaration] { stubs.compactMap(\.declaration) }

    private func add(_ declaration: StubDeclaration, relativeTo folder: URL?) -> StubDescriptor {
        let definitions = [declaration.response] + declaration.followingResponses
        let responses = definitions.map { definition in
            var response = definition.makeResponse(relativeTo: folder, streams: namedStreams)
            if let name = definition.gate { response.gate = gate(named: name) }
            return response
        }
        let source = declaration.source
        let location = StubLocation(fileID: source?.file ?? "declaration", filePath: source?.file ?? "declaration", line: source?.line ?? 0)
        var matcher = RequestMatcher(declaration.request)
        var stepper: ScenarioStepper?
        if let step = declaration.scenario {
            if let stateMatcher = stepStates.matcher(for: step) { matcher = (matcher && stateMatcher).described(by: declaration.request) }
            stepper = ScenarioStepper(step: step, states: stepStates)
        }
        let descriptor = add(
            matcher, name: declaration.name ?? declaration.id, times: declaration.times, location: location,
            answer: Self.answer(definitions, responses), priority: declaration.priority ?? StubDeclaration.defaultPriority,
            origin: declaration, scenarioStepper: stepper)
        for gate in responses.compactMap(\.gate) { gate.bind(to: descriptor) }
        return descriptor
    }

    /// A constant for one response, a sequence for several, and code when a definition names
    /// a transformer (validated already, so it is registered and takes its value).
    private static func answer(_ definitions: [ResponseDefinition], _ responses: [StubResponse]) -> StubAnswer {
        let responders = definitions.map { definition -> (@Sendable (StubRequest) throws -> StubResponse)? in
            guard let transformer = definition.transformer, let registered = ResponseTransformers.transformer(named: transformer.name) else {
                return nil
            }
            return try? registered.responder(for: transformer.value, base: definition)
        }
        guard responders.contains(where: { $0 != nil }) else {
            return responses.count == 1 ? .constant(responses[0]) : .sequence(responses)
        }
        return .closure { request, activation in
            let index = min(activation, responses.count - 1)
            guard let respond = responders[index] else { return responses[index] }
            var made = try respond(request)
            if made.gate == nil { made.gate = responses[index].gate }
            return made
        }
    }
}

/// A registry's gates by name, each made once.
final class NamedGates: @unchecked Sendable {
    private let lock = NSLock()
    private var gates: [String: ResponseGate] = [:]

    func gate(named name: String) -> ResponseGate {
        lock.lock(); defer { lock.unlock() }
        if let gate = gates[name] { return gate }
        let gate = ResponseGate(name: name)
        gates[name] = gate
        return gate
    }
}
