import Foundation

// A declaration as the Swift that makes it: what a near-miss report prints beside the JSON form
// (``StubRegistry/nearMissDeclarationForms``), ready to paste into a test.

extension StubDeclaration {
    /// The Swift expression that makes this declaration: `StubDeclaration(name: …, request: …)`.
    public var swiftSource: String {
        var arguments: [String] = []
        if let id { arguments.append("id: \(literal(id))") }
        if let name { arguments.append("name: \(literal(name))") }
        if !request.acceptsEverything { arguments.append("request: \(request.swiftSource)") }
        arguments.append("response: \(response.swiftSource)")
        if !followingResponses.isEmpty {
            arguments.append("followingResponses: [" + followingResponses.map(\.swiftSource).joined(separator: ", ") + "]")
        }
        if let priority { arguments.append("priority: \(priority)") }
        if let scenario {
            var step = ["name: \(literal(scenario.name))"]
            if let required = scenario.requiredState { step.append("requiredState: \(literal(required))") }
            if let new = scenario.newState { step.append("newState: \(literal(new))") }
            arguments.append("scenario: .init(\(step.joined(separator: ", ")))")
        }
        if let times { arguments.append("times: \(times)") }
        if let metadata { arguments.append("metadata: \(metadata.swiftSource)") }
        if let source { arguments.append("source: .init(file: \(literal(source.file))" + (source.line.map { ", line: \($0)" } ?? "") + ")") }
        return "StubDeclaration(\n    " + arguments.joined(separator: ",\n    ") + ")"
    }
}

extension RequestPattern {
    var swiftSource: String {
        var arguments: [String] = []
        if let method { arguments.append("method: \(literal(method))") }
        for (label, pattern) in [("url", url), ("host", host), ("path", path)] {
            if let pattern { arguments.append("\(label): \(pattern.swiftSource)") }
        }
        for (label, patterns) in [("query", query), ("headers", headers), ("cookies", cookies)] where !patterns.isEmpty {
            let pairs = patterns.keys.sorted().map { "\(literal($0)): \(patterns[$0]!.swiftSource)" }
            arguments.append("\(label): [\(pairs.joined(separator: ", "))]")
        }
        if !body.isEmpty { arguments.append("body: [" + body.map(\.swiftSource).joined(separator: ", ") + "]") }
        for (label, patterns) in [("anyOf", anyOf), ("noneOf", noneOf), ("allOf", allOf)] where !patterns.isEmpty {
            arguments.append("\(label): [" + patterns.map(\.swiftSource).joined(separator: ", ") + "]")
        }
        return "RequestPattern(\(arguments.joined(separator: ", ")))"
    }
}

extension TextPattern {
    var swiftSource: String {
        switch self {
        case .equalTo(let text, let caseInsensitive): return ".equalTo(\(literal(text))" + (caseInsensitive ? ", caseInsensitive: true)" : ")")
        case .contains(let text): return ".contains(\(literal(text)))"
        case .doesNotContain(let text): return ".doesNotContain(\(literal(text)))"
        case .hasPrefix(let text): return ".hasPrefix(\(literal(text)))"
        case .hasSuffix(let text): return ".hasSuffix(\(literal(text)))"
        case .matches(let expression): return ".matches(\(literal(expression)))"
        case .doesNotMatch(let expression): return ".doesNotMatch(\(literal(expression)))"
        case .template(let template): return ".template(\(literal(template)))"
        case .absent: return ".absent"
        case .present: return ".present"
        case .allOf(let patterns): return ".allOf([" + patterns.map(\.swiftSource).joined(separator: ", ") + "])"
        case .anyOf(let patterns): return ".anyOf([" + patterns.map(\.swiftSource).joined(separator: ", ") + "])"
        case .not(let pattern): return ".not(\(pattern.swiftSource))"
        }
    }
}

extension BodyPattern {
    var swiftSource: String {
        switch self {
        case .equalTo(let text): return ".equalTo(\(literal(text)))"
        case .binaryEqualTo(let bytes): return ".binaryEqualTo(Data(base64Encoded: \(literal(bytes.base64EncodedString())))!)"
        case .contains(let text): return ".contains(\(literal(text)))"
        case .matches(let expression): return ".matches(\(literal(expression)))"
        case .json(let value, let unordered, let extra):
            return ".json(\(value.swiftSource)" + (unordered ? ", ignoreArrayOrder: true" : "") + (extra ? ", ignoreExtraElements: true" : "") + ")"
        case .jsonPath(let path, let pattern): return ".jsonPath(\(literal(path))" + (pattern.map { ", \($0.swiftSource)" } ?? "") + ")"
        case .kind(let name, let value): return ".kind(\(literal(name)), \(value.swiftSource))"
        }
    }
}

extension ResponseDefinition {
    var swiftSource: String {
        var arguments: [String] = []
        if status != 200 { arguments.append("status: \(status)") }
        if !headers.isEmpty {
            arguments.append("headers: [" + headers.map { "\(literal($0.name)): \(literal($0.value))" }.joined(separator: ", ") + "]")
        }
        switch body {
        case .text(let text): arguments.append("body: .text(\(literal(text)))")
        case .bytes(let bytes): arguments.append("body: .bytes(Data(base64Encoded: \(literal(bytes.base64EncodedString())))!)")
        case .json(let value): arguments.append("body: .json(\(value.swiftSource))")
        case .file(let path): arguments.append("body: .file(\(literal(path)))")
        case .fixture(let name): arguments.append("body: .fixture(\(literal(name)))")
        case .stream(let name): arguments.append("body: .stream(\(literal(name)))")
        case nil: break
        }
        for (label, seconds) in [("requestTime", requestTime), ("responseTime", responseTime), ("downloadSpeed", downloadSpeed)] {
            if let seconds { arguments.append("\(label): \(JSONValue.number(seconds).swiftSource)") }
        }
        if let gate { arguments.append("gate: \(literal(gate))") }
        if let failure { arguments.append("failure: \(failure.swiftSource)") }
        if let transformer {
            arguments.append("transformer: .init(name: \(literal(transformer.name)), value: \(transformer.value.swiftSource))")
        }
        return "ResponseDefinition(\(arguments.joined(separator: ", ")))"
    }
}

extension ResponseDefinition.Failure {
    var swiftSource: String {
        switch self {
        case .error(let code): return ".error(code: \(code))"
        case .afterBytes(let bytes, let code): return ".afterBytes(\(bytes), errorCode: \(code))"
        case .truncated(let bytes): return ".truncated(afterBytes: \(bytes))"
        case .never: return ".never"
        case .passthrough: return ".passthrough"
        case .fault(let fault): return ".fault(.\(fault.rawValue))"
        case .proxy(let base): return ".proxy(baseURL: \(literal(base)))"
        }
    }
}

extension JSONValue {
    /// A `JSONValue` literal (`null` is `.null`: the type has no `nil` literal).
    var swiftSource: String {
        switch self {
        case .null: return ".null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .number(let number):
            if number.rounded() == number, abs(number) < 9.0e15 { return String(Int(number)) }
            return String(number)
        case .string(let text): return literal(text)
        case .array(let values): return "[" + values.map(\.swiftSource).joined(separator: ", ") + "]"
        case .object(let members):
            if members.isEmpty { return "[:]" }
            return "[" + members.keys.sorted().map { "\(literal($0)): \(members[$0]!.swiftSource)" }.joined(separator: ", ") + "]"
        }
    }
}
