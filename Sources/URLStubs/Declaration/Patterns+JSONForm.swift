import Foundation

// The JSON form of request patterns (documented in the "Stubs as data" article): one object
// per pattern, named after its case, read strictly and written in the same shape.

extension TextPattern {
    private static let kinds = [
        "equalTo", "contains", "doesNotContain", "hasPrefix", "hasSuffix", "matches", "doesNotMatch", "template", "absent",
        "present", "allOf", "anyOf", "not",
    ]

    init(json: JSONValue, at path: String, reader: DeclarationReader) throws {
        if case .string(let text) = json {
            self = .equalTo(text)
            return
        }
        let (kind, value, members) = try reader.tagged(json, at: path, kinds: Self.kinds, options: ["caseInsensitive"])
        let inner = "\(path).\(kind)"
        if members["caseInsensitive"] != nil, kind != "equalTo" {
            throw reader.fail("\(path).caseInsensitive", "\"caseInsensitive\" goes with \"equalTo\" only")
        }
        switch kind {
        case "equalTo":
            let caseInsensitive = try members["caseInsensitive"].map { try reader.bool($0, at: "\(path).caseInsensitive") } ?? false
            self = .equalTo(try reader.string(value, at: inner), caseInsensitive: caseInsensitive)
        case "contains": self = .contains(try reader.string(value, at: inner))
        case "doesNotContain": self = .doesNotContain(try reader.string(value, at: inner))
        case "hasPrefix": self = .hasPrefix(try reader.string(value, at: inner))
        case "hasSuffix": self = .hasSuffix(try reader.string(value, at: inner))
        case "matches": self = .matches(try reader.string(value, at: inner))
        case "doesNotMatch": self = .doesNotMatch(try reader.string(value, at: inner))
        case "template": self = .template(try reader.string(value, at: inner))
        case "absent", "present":
            guard try reader.bool(value, at: inner) else {
                throw reader.fail(inner, "expected true (write the other of \"absent\" and \"present\" instead of false)")
            }
            self = kind == "absent" ? .absent : .present
        case "allOf", "anyOf":
            let patterns = try reader.array(value, at: inner).enumerated().map { index, element in
                try TextPattern(json: element, at: "\(inner)[\(index)]", reader: reader)
            }
            self = kind == "allOf" ? .allOf(patterns) : .anyOf(patterns)
        default:
            self = .not(try TextPattern(json: value, at: inner, reader: reader))
        }
    }

    var json: JSONValue {
        switch self {
        case .equalTo(let text, let caseInsensitive):
            return caseInsensitive ? .object(["equalTo": .string(text), "caseInsensitive": .bool(true)]) : .object(["equalTo": .string(text)])
        case .contains(let text): return .object(["contains": .string(text)])
        case .doesNotContain(let text): return .object(["doesNotContain": .string(text)])
        case .hasPrefix(let text): return .object(["hasPrefix": .string(text)])
        case .hasSuffix(let text): return .object(["hasSuffix": .string(text)])
        case .matches(let expression): return .object(["matches": .string(expression)])
        case .doesNotMatch(let expression): return .object(["doesNotMatch": .string(expression)])
        case .template(let template): return .object(["template": .string(template)])
        case .absent: return .object(["absent": .bool(true)])
        case .present: return .object(["present": .bool(true)])
        case .allOf(let patterns): return .object(["allOf": .array(patterns.map(\.json))])
        case .anyOf(let patterns): return .object(["anyOf": .array(patterns.map(\.json))])
        case .not(let pattern): return .object(["not": pattern.json])
        }
    }
}

extension BodyPattern {
    init(json: JSONValue, at path: String, reader: DeclarationReader) throws {
        let kinds = ["equalTo", "binaryEqualTo", "contains", "matches", "equalToJson", "matchesJsonPath", "kind"]
        let (kind, value, members) = try reader.tagged(
            json, at: path, kinds: kinds, options: ["ignoreArrayOrder", "ignoreExtraElements", "value"])
        let inner = "\(path).\(kind)"
        let allowedOptions: [String: [String]] = ["equalToJson": ["ignoreArrayOrder", "ignoreExtraElements"], "kind": ["value"]]
        for option in ["ignoreArrayOrder", "ignoreExtraElements", "value"] where members[option] != nil {
            guard allowedOptions[kind]?.contains(option) == true else {
                throw reader.fail("\(path).\(option)", "\"\(option)\" does not go with \"\(kind)\"")
            }
        }
        switch kind {
        case "equalTo": self = .equalTo(try reader.string(value, at: inner))
        case "binaryEqualTo":
            guard let bytes = Data(base64Encoded: try reader.string(value, at: inner)) else {
                throw reader.fail(inner, "expected the bytes in base64")
            }
            self = .binaryEqualTo(bytes)
        case "contains": self = .contains(try reader.string(value, at: inner))
        case "matches": self = .matches(try reader.string(value, at: inner))
        case "equalToJson":
            let unordered = try members["ignoreArrayOrder"].map { try reader.bool($0, at: "\(path).ignoreArrayOrder") } ?? false
            let extra = try members["ignoreExtraElements"].map { try reader.bool($0, at: "\(path).ignoreExtraElements") } ?? false
            self = .json(value, ignoreArrayOrder: unordered, ignoreExtraElements: extra)
        case "matchesJsonPath":
            if case .string(let expression) = value {
                self = .jsonPath(expression)
            } else {
                var members = try reader.object(value, at: inner, allowed: ["expression"] + TextPattern.jsonKinds)
                guard let expression = members.removeValue(forKey: "expression") else {
                    throw reader.fail(inner, "expected \"expression\" beside the pattern the selected value must hold")
                }
                let pattern = try TextPattern(json: .object(members), at: inner, reader: reader)
                self = .jsonPath(try reader.string(expression, at: "\(inner).expression"), pattern)
            }
        default:
            guard let payload = members["value"] else { throw reader.fail(path, "expected \"value\" beside \"kind\"") }
            self = .kind(try reader.string(value, at: inner), payload)
        }
    }

    var json: JSONValue {
        switch self {
        case .equalTo(let text): return .object(["equalTo": .string(text)])
        case .binaryEqualTo(let bytes): return .object(["binaryEqualTo": .string(bytes.base64EncodedString())])
        case .contains(let text): return .object(["contains": .string(text)])
        case .matches(let expression): return .object(["matches": .string(expression)])
        case .json(let value, let unordered, let extra):
            var members: [String: JSONValue] = ["equalToJson": value]
            if unordered { members["ignoreArrayOrder"] = .bool(true) }
            if extra { members["ignoreExtraElements"] = .bool(true) }
            return .object(members)
        case .jsonPath(let expression, nil): return .object(["matchesJsonPath": .string(expression)])
        case .jsonPath(let expression, let pattern?):
            guard case .object(var members) = pattern.json else { return .null }
            members["expression"] = .string(expression)
            return .object(["matchesJsonPath": .object(members)])
        case .kind(let name, let value): return .object(["kind": .string(name), "value": value])
        }
    }
}

extension TextPattern {
    /// The member names a text pattern's JSON object may hold.
    static let jsonKinds = kinds + ["caseInsensitive"]
}

extension RequestPattern {
    private static let members = [
        "method", "url", "host", "path", "query", "headers", "cookies", "body", "anyOf", "noneOf", "allOf",
    ]

    init(json: JSONValue, at path: String, reader: DeclarationReader) throws {
        let members = try reader.object(json, at: path, allowed: Self.members)
        func text(_ name: String) throws -> TextPattern? {
            try members[name].map { try TextPattern(json: $0, at: "\(path).\(name)", reader: reader) }
        }
        func named(_ name: String) throws -> [String: TextPattern] {
            guard let value = members[name] else { return [:] }
            let entries = try reader.object(value, at: "\(path).\(name)", allowed: nil)
            return try entries.reduce(into: [:]) { result, entry in
                result[entry.key] = try TextPattern(json: entry.value, at: DeclarationReader.member("\(path).\(name)", entry.key), reader: reader)
            }
        }
        func patterns(_ name: String) throws -> [RequestPattern] {
            guard let value = members[name] else { return [] }
            return try reader.array(value, at: "\(path).\(name)").enumerated().map { index, element in
                try RequestPattern(json: element, at: "\(path).\(name)[\(index)]", reader: reader)
            }
        }
        let body = try members["body"].map { value in
            try reader.array(value, at: "\(path).body").enumerated().map { index, element in
                try BodyPattern(json: element, at: "\(path).body[\(index)]", reader: reader)
            }
        }
        self.init(
            method: try members["method"].map { try reader.string($0, at: "\(path).method") }, url: try text("url"),
            host: try text("host"), path: try text("path"), query: try named("query"), headers: try named("headers"),
            cookies: try named("cookies"), body: body ?? [], anyOf: try patterns("anyOf"), noneOf: try patterns("noneOf"),
            allOf: try patterns("allOf"))
    }

    var json: JSONValue {
        var members: [String: JSONValue] = [:]
        if let method { members["method"] = .string(method) }
        if let url { members["url"] = url.json }
        if let host { members["host"] = host.json }
        if let path { members["path"] = path.json }
        if !query.isEmpty { members["query"] = .object(query.mapValues(\.json)) }
        if !headers.isEmpty { members["headers"] = .object(headers.mapValues(\.json)) }
        if !cookies.isEmpty { members["cookies"] = .object(cookies.mapValues(\.json)) }
        if !body.isEmpty { members["body"] = .array(body.map(\.json)) }
        if !anyOf.isEmpty { members["anyOf"] = .array(anyOf.map(\.json)) }
        if !noneOf.isEmpty { members["noneOf"] = .array(noneOf.map(\.json)) }
        if !allOf.isEmpty { members["allOf"] = .array(allOf.map(\.json)) }
        return .object(members)
    }
}
