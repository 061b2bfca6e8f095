import Foundation
import URLStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension OpenAPIDocument {
    /// The violations of the request parts `pattern` pins, against `operation`, each with the
    /// declaration's JSON path of the part: the values of an exact path (`pathParameters`),
    /// query parameters and headers given with `equalTo` (or required but pinned `absent`), and
    /// JSON body patterns. A part the pattern leaves open is not a violation: the request may
    /// carry it.
    func pinnedRequestViolations(_ pattern: RequestPattern, _ operation: OpenAPIOperation, pathParameters: [String: String]?)
        -> [(ContractViolation, String)]
    {
        var query: [String: (pattern: TextPattern, at: String)] = [:]
        for (name, value) in pattern.query { query[name] = (value, Self.member("$.request.query", name)) }
        if case .equalTo(let text, _) = pattern.url, let items = URLComponents(string: text)?.queryItems {
            for item in items where query[item.name] == nil { query[item.name] = (.equalTo(item.value ?? ""), "$.request.url") }
        }
        var headers: [String: (pattern: TextPattern, at: String)] = [:]
        for (name, value) in pattern.headers { headers[name.lowercased()] = (value, Self.member("$.request.headers", name)) }
        var found: [(ContractViolation, String)] = []
        for parameter in operation.parameters {
            let pinned: (pattern: TextPattern, at: String)?
            switch parameter.location {
            case .path: pinned = pathParameters?[parameter.name].map { (.equalTo($0), "$.request.path") }
            case .query where parameter.objectStyle == nil: pinned = query[parameter.name]
            case .header where !["accept", "content-type", "authorization"].contains(parameter.name.lowercased()):
                pinned = headers[parameter.name.lowercased()]
            case .query, .header, .cookie: pinned = nil
            }
            guard let pinned else { continue }
            let part = "\(parameter.location.rawValue) parameter \"\(parameter.name)\""
            switch pinned.pattern {
            case .absent where parameter.isRequired:
                found.append(
                    (
                        ContractViolation(
                            operation: operation.description, part: part, jsonPath: nil, schemaPath: parameter.pointer,
                            expected: "the required \(parameter.location.rawValue) parameter", found: "a pattern that requires it absent"),
                        pinned.at
                    ))
            case .equalTo(let value, _):
                guard let schema = parameter.schema else { continue }
                let json = parameterValue([value], schema: schema, explode: parameter.explode)
                for violation in SchemaValidator.violations(of: json, against: schema, in: schemas, limit: 5).violations {
                    found.append(
                        (
                            ContractViolation(
                                operation: operation.description, part: part, jsonPath: violation.jsonPath == "$" ? nil : violation.jsonPath,
                                schemaPath: violation.schemaPath, expected: violation.expected, found: violation.found),
                            pinned.at
                        ))
                }
            default: continue
            }
        }
        found += pinnedBodyViolations(pattern, operation, contentType: headers["content-type"])
        return found.map { violation, path in
            var marked = violation
            marked.isAboutRequest = true
            return (marked, path)
        }
    }

    /// The violations of the JSON body patterns (`equalToJson`, or `equalTo` text that is
    /// JSON) against the operation's request body. With `ignoreExtraElements` the pattern is a
    /// part of the body, so what only a whole body must have (required members, minimum
    /// counts) is not asked of it.
    private func pinnedBodyViolations(
        _ pattern: RequestPattern, _ operation: OpenAPIOperation, contentType: (pattern: TextPattern, at: String)?
    ) -> [(ContractViolation, String)] {
        var found: [(ContractViolation, String)] = []
        for (index, body) in pattern.body.enumerated() {
            let data: Data
            let isPart: Bool
            switch body {
            case .json(let value, _, let ignoreExtraElements):
                data = value.serialized()
                isPart = ignoreExtraElements
            case .equalTo(let text) where (try? JSONValue(data: Data(text.utf8))) != nil:
                data = Data(text.utf8)
                isPart = false
            default: continue
            }
            let at = "$.request.body[\(index)]"
            guard let documented = operation.requestBody else {
                found.append(
                    (
                        ContractViolation(
                            operation: operation.description, part: "request body", jsonPath: nil, schemaPath: operation.pointer,
                            expected: "no body (the operation documents no requestBody)", found: "a JSON body pattern"),
                        at
                    ))
                continue
            }
            var type = "application/json"
            if case .equalTo(let pinned, _)? = contentType?.pattern { type = pinned }
            let violations = bodyViolations(
                data, contentType: type, content: documented.content, operation: operation, part: "request",
                listPointer: operation.pointer + "/requestBody/content", scrubbing: .default)
            for violation in violations {
                let rule = violation.schemaPath?.split(separator: "/").last ?? ""
                if isPart, ["required", "minProperties", "minItems"].contains(rule) { continue }
                found.append((violation, violation.part.hasSuffix("Content-Type") ? contentType?.at ?? at : at))
            }
        }
        return found
    }

    /// A JSON path member step: `.name`, or `['name']` when the name is not a plain word.
    static func member(_ path: String, _ name: String) -> String {
        let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" }
        return plain ? "\(path).\(name)" : "\(path)['\(name.replacingOccurrences(of: "'", with: "\\'"))']"
    }
}
