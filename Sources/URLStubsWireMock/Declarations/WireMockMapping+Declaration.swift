import Foundation
import URLStubs

extension WireMockMapping {
    /// The engine's declaration of this mapping: registered with `registry.stub(_:)`, it
    /// answers as WireMock would.
    ///
    /// What the declarative vocabulary says directly goes there (method, path, plain text
    /// patterns, status, headers, body, `fixedDelayMilliseconds` as the request time,
    /// `chunkedDribbleDelay` as the response time, `fault`, priority, scenario); the rest is
    /// WireMock's own JSON under the pattern kinds and the response transformer this library
    /// registers (`wireMock.*`, `wireMock`). WireMock's `matches` is a whole-value match with
    /// `.` matching a line break, written `\A(?s:…)\z`.
    ///
    /// ```swift
    /// let declaration = try mapping.declaration(source: "mappings/users.json", files: root.appendingPathComponent("__files"))
    /// try registry.stub(declaration)
    /// ```
    ///
    /// - Parameters:
    ///   - source: The mapping's file, for errors and reports.
    ///   - files: The folder's `__files/`, where `bodyFileName` is found.
    ///   - globalTemplating: Render every response as a template (`--global-response-templating`).
    ///   - seed: Seeds the draws of `delayDistribution`, so a run repeats its delays.
    /// - Throws: `FixtureError` (`.malformed`) naming `source` and the JSON path of what
    ///   URLStubs cannot serve yet (`proxyBaseUrl`), or a `bodyFileName` without `files`.
    public func declaration(source: String? = nil, files: URL? = nil, globalTemplating: Bool = false, seed: UInt64? = nil) throws
        -> StubDeclaration
    {
        var prepared: [PreparedResponse] = []
        return try declaration(
            source: source, files: files, globalTemplating: globalTemplating, seed: seed, templates: nil, jsonBodyText: nil, keeping: &prepared)
    }

    /// The declaration, with the response's templates when they were read already; the
    /// response prepared for the `wireMock` transformer goes into `keeping`, which the caller
    /// holds until the declaration is registered (``PreparedResponses``).
    func declaration(
        source: String?, files: URL?, globalTemplating: Bool, seed: UInt64?, templates: WireMockResponseTemplates?, jsonBodyText: String?,
        keeping prepared: inout [PreparedResponse]
    ) throws -> StubDeclaration {
        _ = WireMockPatternKinds.registered
        let file = source ?? "mapping"
        let requestPattern: URLStubs.RequestPattern
        do {
            requestPattern = try request.declared()
        } catch {
            throw FixtureError.malformed(file, jsonPath: "$.request", expected: "a request URLStubs can match, but \(error)")
        }
        var scenario: StubDeclaration.ScenarioStep?
        if let scenarioName {
            scenario = .init(name: scenarioName, requiredState: requiredScenarioState, newState: newScenarioState)
        }
        return StubDeclaration(
            id: id?.uuidString.lowercased(), name: name, request: requestPattern,
            response: try response.declared(
                source: file, files: files, globalTemplating: globalTemplating, seed: seed, request: request, templates: templates,
                jsonBodyText: jsonBodyText, keeping: &prepared),
            priority: priority, scenario: scenario, metadata: metadata.map(JSONValue.object), source: .init(file: file))
    }
}

extension WireMockMapping.ResponseDefinition {
    func declared(
        source: String, files: URL?, globalTemplating: Bool, seed: UInt64?, request: WireMockMapping.RequestPattern,
        templates: WireMockResponseTemplates?, jsonBodyText: String?, keeping prepared: inout [PreparedResponse]
    ) throws -> URLStubs.ResponseDefinition {
        if proxyBaseUrl != nil {
            let extra = [
                proxyUrlPrefixToRemove.map { _ in "proxyUrlPrefixToRemove" },
                additionalProxyRequestHeaders.isEmpty ? nil : "additionalProxyRequestHeaders",
                removeProxyRequestHeaders.isEmpty ? nil : "removeProxyRequestHeaders",
            ].compactMap { $0 }
            if let member = extra.first {
                throw FixtureError.malformed(
                    source, jsonPath: "$.response." + member,
                    expected: "a proxy URLStubs can serve: the request goes to proxyBaseUrl as it came; changing its path or headers "
                        + "on the way is not supported yet, stub the answer instead")
            }
        }
        var definition = URLStubs.ResponseDefinition(status: status)
        for name in headers.keys.sorted() {
            for value in headers[name]! { definition.headers.append(name: name, value: value) }
        }
        var bodyFile: URL?
        switch body {
        case .text(let text)?: definition.body = .text(text)
        // The text cut from the file when the folder was read, else written from the value.
        case .json(let json)?: definition.body = .text(jsonBodyText ?? json.compactJSON)
        case .base64(let data)?: definition.body = .bytes(data)
        case .file(let name)?:
            guard let files else {
                throw FixtureError.malformed(
                    source, jsonPath: "$.response.bodyFileName",
                    expected: "a folder's __files/ to find \"\(name)\" in; read the mapping from its folder")
            }
            if !(isTemplated(globalTemplating: globalTemplating) && name.contains("{{")) {
                do {
                    bodyFile = try BodyFiles(folder: files).resolve(name)
                } catch {
                    throw FixtureError.malformed(
                        source, jsonPath: "$.response.bodyFileName", expected: (error as? BodyFiles.Problem)?.text ?? "\(error)")
                }
                definition.body = .file(bodyFile!.path)
            }
        case nil: break
        }
        if let fixedDelayMilliseconds { definition.requestTime = Double(fixedDelayMilliseconds) / 1000 }
        if let chunkedDribbleDelay { definition.responseTime = Double(chunkedDribbleDelay.totalDuration) / 1000 }
        switch fault {
        case .connectionResetByPeer?: definition.failure = .fault(.connectionReset)
        case .emptyResponse?: definition.failure = .fault(.emptyResponse)
        case .malformedResponseChunk?: definition.failure = .fault(.malformedResponseChunk)
        case .randomDataThenClose?: definition.failure = .fault(.randomDataThenClose)
        case nil: break
        }
        // WireMock forwards to the base, path and query appended; a server never to itself.
        if let proxyBaseUrl { definition.failure = .proxy(baseURL: proxyBaseUrl) }
        let templated = isTemplated(globalTemplating: globalTemplating)
        if templated || delayDistribution != nil {
            var options: [String: JSONValue] = ["response": try JSONValueEncoder.encode(self)]
            if templated { options["templated"] = true }
            if let seed { options["seed"] = .integer(Int(truncatingIfNeeded: seed)) }
            if case .urlPathTemplate(let text)? = request.url { options["urlPathTemplate"] = .string(text) }
            if let bodyFile { options["bodyFile"] = .string(bodyFile.path) }
            if let files { options["files"] = .string(files.path) }
            let json = options["response"]!
            let made =
                try templated && templates == nil
                ? WireMockResponseTransformer.prepare(json, templated: true, bodyFile: bodyFile)
                : PreparedResponse(response: self, templates: templated ? templates : nil, json: json)
            options[PreparedResponses.tokenMember] = .string(PreparedResponses.remember(made))
            prepared.append(made)
            definition.transformer = .init(name: WireMockResponseTransformer.transformerName, value: .object(options))
        }
        return definition
    }
}
