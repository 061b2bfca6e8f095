import Foundation

// The JSON form of a response definition and of a whole declaration (documented in the
// "Stubs as data" article), read strictly and written in the same shape.

extension ResponseDefinition {
    private static let members = [
        "status", "headers", "body", "requestTime", "responseTime", "downloadSpeed", "gate", "failure", "transformer",
    ]

    init(json: JSONValue, at path: String, reader: DeclarationReader) throws {
        let members = try reader.object(json, at: path, allowed: Self.members)
        func number(_ name: String) throws -> Double? { try members[name].map { try reader.double($0, at: "\(path).\(name)") } }
        self.init(
            status: try members["status"].map { try reader.int($0, at: "\(path).status") } ?? 200,
            headers: try members["headers"].map { try Self.headers($0, at: "\(path).headers", reader: reader) } ?? [:],
            body: try members["body"].map { try Self.body($0, at: "\(path).body", reader: reader) },
            requestTime: try number("requestTime"), responseTime: try number("responseTime"), downloadSpeed: try number("downloadSpeed"),
            gate: try members["gate"].map { try reader.string($0, at: "\(path).gate") },
            failure: try members["failure"].map { try Self.failure($0, at: "\(path).failure", reader: reader) },
            transformer: try members["transformer"].map { value in
                let parts = try reader.object(value, at: "\(path).transformer", allowed: ["name", "value"])
                guard let name = parts["name"] else { throw reader.fail("\(path).transformer", "expected the transformer's \"name\"") }
                return Transformer(name: try reader.string(name, at: "\(path).transformer.name"), value: parts["value"] ?? .null)
            })
    }

    /// Headers as HAR writes them (`[{"name": …, "value": …}]`, in order), or as an object
    /// whose value may be a list for a repeated name (ordered by name).
    private static func headers(_ json: JSONValue, at path: String, reader: DeclarationReader) throws -> HeaderFields {
        if case .array(let fields) = json {
            return HeaderFields(
                try fields.enumerated().map { index, field in
                    let members = try reader.object(field, at: "\(path)[\(index)]", allowed: ["name", "value"])
                    guard let name = members["name"], let value = members["value"] else {
                        throw reader.fail("\(path)[\(index)]", "expected \"name\" and \"value\"")
                    }
                    return (
                        name: try reader.string(name, at: "\(path)[\(index)].name"), value: try reader.string(value, at: "\(path)[\(index)].value")
                    )
                })
        }
        let members = try reader.object(json, at: path, allowed: nil)
        var fields: [HeaderFields.Field] = []
        for (name, value) in members.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            let at = DeclarationReader.member(path, name)
            if case .array(let values) = value {
                for (index, value) in values.enumerated() { fields.append((name: name, value: try reader.string(value, at: "\(at)[\(index)]"))) }
            } else {
                fields.append((name: name, value: try reader.string(value, at: at)))
            }
        }
        return HeaderFields(fields)
    }

    private static func body(_ json: JSONValue, at path: String, reader: DeclarationReader) throws -> Body {
        let (kind, value, _) = try reader.tagged(json, at: path, kinds: ["text", "base64", "json", "file", "fixture", "stream"])
        switch kind {
        case "text": return .text(try reader.string(value, at: "\(path).text"))
        case "base64":
            guard let bytes = Data(base64Encoded: try reader.string(value, at: "\(path).base64")) else {
                throw reader.fail("\(path).base64", "expected the bytes in base64")
            }
            return .bytes(bytes)
        case "json": return .json(value)
        case "fixture": return .fixture(try reader.string(value, at: "\(path).fixture"))
        case "stream": return .stream(try reader.string(value, at: "\(path).stream"))
        default: return .file(try reader.string(value, at: "\(path).file"))
        }
    }

    private static func failure(_ json: JSONValue, at path: String, reader: DeclarationReader) throws -> Failure {
        let (kind, value, members) = try reader.tagged(
            json, at: path, kinds: ["error", "afterBytes", "truncatedAfterBytes", "never", "passthrough", "fault", "proxy"], options: ["errorCode"])
        if members["errorCode"] != nil, kind != "afterBytes" {
            throw reader.fail("\(path).errorCode", "\"errorCode\" goes with \"afterBytes\" only")
        }
        switch kind {
        case "error": return .error(code: try reader.int(value, at: "\(path).error"))
        case "afterBytes":
            let code = try members["errorCode"].map { try reader.int($0, at: "\(path).errorCode") } ?? URLError.networkConnectionLost.rawValue
            return .afterBytes(try reader.int(value, at: "\(path).afterBytes"), errorCode: code)
        case "truncatedAfterBytes": return .truncated(afterBytes: try reader.int(value, at: "\(path).truncatedAfterBytes"))
        case "fault":
            let name = try reader.string(value, at: "\(path).fault")
            guard let fault = NetworkFault(rawValue: name) else {
                throw reader.fail(
                    "\(path).fault",
                    "unknown fault \"\(name)\"; expected one of " + NetworkFault.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
            return .fault(fault)
        case "proxy":
            let parts = try reader.object(value, at: "\(path).proxy", allowed: ["baseURL"])
            guard let base = parts["baseURL"] else { throw reader.fail("\(path).proxy", "expected the \"baseURL\" to pass requests to") }
            return .proxy(baseURL: try reader.string(base, at: "\(path).proxy.baseURL"))
        default:
            guard try reader.bool(value, at: "\(path).\(kind)") else { throw reader.fail("\(path).\(kind)", "expected true") }
            return kind == "never" ? .never : .passthrough
        }
    }

    var json: JSONValue {
        var members: [String: JSONValue] = ["status": .integer(status)]
        if !headers.isEmpty {
            members["headers"] = .array(headers.map { .object(["name": .string($0.name), "value": .string($0.value)]) })
        }
        switch body {
        case .text(let text): members["body"] = .object(["text": .string(text)])
        case .bytes(let bytes): members["body"] = .object(["base64": .string(bytes.base64EncodedString())])
        case .json(let value): members["body"] = .object(["json": value])
        case .file(let path): members["body"] = .object(["file": .string(path)])
        case .fixture(let name): members["body"] = .object(["fixture": .string(name)])
        case .stream(let name): members["body"] = .object(["stream": .string(name)])
        case nil: break
        }
        if let requestTime { members["requestTime"] = .number(requestTime) }
        if let responseTime { members["responseTime"] = .number(responseTime) }
        if let downloadSpeed { members["downloadSpeed"] = .number(downloadSpeed) }
        if let gate { members["gate"] = .string(gate) }
        switch failure {
        case .error(let code): members["failure"] = .object(["error": .integer(code)])
        case .afterBytes(let bytes, let code): members["failure"] = .object(["afterBytes": .integer(bytes), "errorCode": .integer(code)])
        case .truncated(let bytes): members["failure"] = .object(["truncatedAfterBytes": .integer(bytes)])
        case .never: members["failure"] = .object(["never": .bool(true)])
        case .passthrough: members["failure"] = .object(["passthrough": .bool(true)])
        case .fault(let fault): members["failure"] = .object(["fault": .string(fault.rawValue)])
        case .proxy(let base): members["failure"] = .object(["proxy": .object(["baseURL": .string(base)])])
        case nil: break
        }
        if let transformer { members["transformer"] = .object(["name": .string(transformer.name), "value": transformer.value]) }
        return .object(members)
    }
}

extension StubDeclaration: Codable {
    private static let members = [
        "version", "id", "name", "request", "response", "followingResponses", "priority", "scenario", "times", "metadata", "source",
    ]

    /// Reads a declaration from its JSON form; `source` names where it came from in errors.
    /// - Throws: ``StubError/invalidDeclaration(source:path:problem:)``.
    public init(json: JSONValue, source: String = "a declaration", at path: String = "$") throws {
        let reader = DeclarationReader(source: source)
        let members = try reader.object(json, at: path, allowed: Self.members)
        if let version = members["version"] {
            let number = try reader.int(version, at: "\(path).version")
            guard (1...Self.formatVersion).contains(number) else {
                throw reader.fail(
                    "\(path).version",
                    "version \(number) is newer than this library reads (\(Self.formatVersion)); update URLStubs, or write version \(Self.formatVersion)"
                )
            }
        }
        guard let response = members["response"] else { throw reader.fail(path, "expected a \"response\" (and usually a \"request\")") }
        let scenario = try members["scenario"].map { value -> ScenarioStep in
            let step = try reader.object(value, at: "\(path).scenario", allowed: ["name", "requiredState", "newState"])
            guard let name = step["name"] else { throw reader.fail("\(path).scenario", "expected the scenario's \"name\"") }
            return ScenarioStep(
                name: try reader.string(name, at: "\(path).scenario.name"),
                requiredState: try step["requiredState"].map { try reader.string($0, at: "\(path).scenario.requiredState") },
                newState: try step["newState"].map { try reader.string($0, at: "\(path).scenario.newState") })
        }
        let origin = try members["source"].map { value -> Source in
            let parts = try reader.object(value, at: "\(path).source", allowed: ["file", "line"])
            guard let file = parts["file"] else { throw reader.fail("\(path).source", "expected \"file\"") }
            return Source(
                file: try reader.string(file, at: "\(path).source.file"),
                line: try parts["line"].map { try reader.int($0, at: "\(path).source.line") })
        }
        self.init(
            id: try members["id"].map { try reader.string($0, at: "\(path).id") },
            name: try members["name"].map { try reader.string($0, at: "\(path).name") },
            request: try members["request"].map { try RequestPattern(json: $0, at: "\(path).request", reader: reader) } ?? RequestPattern(),
            response: try ResponseDefinition(json: response, at: "\(path).response", reader: reader),
            followingResponses: try members["followingResponses"].map { list in
                try reader.array(list, at: "\(path).followingResponses").enumerated().map { index, element in
                    try ResponseDefinition(json: element, at: "\(path).followingResponses[\(index)]", reader: reader)
                }
            } ?? [],
            priority: try members["priority"].map { try reader.int($0, at: "\(path).priority") }, scenario: scenario,
            times: try members["times"].map { try reader.int($0, at: "\(path).times") }, metadata: members["metadata"], source: origin)
        try validate(reader: reader, at: path)
    }

    /// The declaration's JSON form, with its ``formatVersion``.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "version": .integer(Self.formatVersion), "request": request.json, "response": response.json,
        ]
        if !followingResponses.isEmpty { members["followingResponses"] = .array(followingResponses.map(\.json)) }
        if let id { members["id"] = .string(id) }
        if let name { members["name"] = .string(name) }
        if let priority { members["priority"] = .integer(priority) }
        if let times { members["times"] = .integer(times) }
        if let metadata { members["metadata"] = metadata }
        if let scenario {
            var step: [String: JSONValue] = ["name": .string(scenario.name)]
            if let required = scenario.requiredState { step["requiredState"] = .string(required) }
            if let new = scenario.newState { step["newState"] = .string(new) }
            members["scenario"] = .object(step)
        }
        if let source {
            var origin: [String: JSONValue] = ["file": .string(source.file)]
            if let line = source.line { origin["line"] = .integer(line) }
            members["source"] = .object(origin)
        }
        return .object(members)
    }

    /// Reads the JSON form; a problem is a `DecodingError` carrying the
    /// ``StubError/invalidDeclaration(source:path:problem:)`` that names it.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            try self.init(json: json, source: "a declaration")
        } catch let error as StubError {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    /// Writes the JSON form (``json``).
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    /// Reads the declarations of a JSON file: one declaration, an array of them, or an object
    /// whose `stubs` member is that array.
    ///
    /// ```swift
    /// let declarations = try StubDeclaration.read(from: Data(contentsOf: url), source: url.path)
    /// try registry.stub(declarations)
    /// ```
    /// - Throws: ``StubError/invalidDeclaration(source:path:problem:)`` naming `source`, the JSON
    ///   path and what was expected (for text that is not JSON: the line and column).
    public static func read(from data: Data, source: String) throws -> [StubDeclaration] {
        let json: JSONValue
        do {
            json = try JSONValue(data: data)
        } catch {
            throw StubError.invalidDeclaration(source: source, path: "$", problem: "not JSON: \(error)")
        }
        let reader = DeclarationReader(source: source)
        var list = json
        var prefix = "$"
        if case .object(let members) = json, members["stubs"] != nil {
            list = try reader.object(json, at: "$", allowed: ["stubs", "version"])["stubs"] ?? .array([])
            prefix = "$.stubs"
        }
        guard case .array(let elements) = list else { return [try StubDeclaration(json: json, source: source)] }
        return try elements.enumerated().map { index, element in
            var declaration = try StubDeclaration(json: element, source: source, at: "\(prefix)[\(index)]")
            if declaration.source == nil { declaration.source = Source(file: source) }
            return declaration
        }
    }
}
