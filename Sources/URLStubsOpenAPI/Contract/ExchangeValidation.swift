import Foundation
import URLStubs
import URLStubsMultipart

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request and its response as the checks read them.
struct HTTPExchange: Sendable {
    var method: String
    var url: URL?
    var requestHeaders: HeaderFields
    /// `nil`: no body.
    var requestBody: Data?
    /// `false` when a body may have been sent that could not be read: body checks are skipped.
    var isRequestBodyKnown = true
    var status: Int
    var responseHeaders: HeaderFields
    /// `nil` when the body cannot be read again (a stream): body checks are skipped.
    var responseBody: Data?
    /// Whose values violations print as its placeholder: secret parameters, headers and JSON
    /// members (the registry's, when checking its traffic).
    var scrubbing: Scrubbing = .default

    /// Whether `parameter`'s value is a secret `scrubbing` names.
    func isSecret(_ parameter: OpenAPIOperation.Parameter) -> Bool {
        let name = parameter.name.lowercased()
        switch parameter.location {
        case .query: return scrubbing.queryParameters.contains { $0.lowercased() == name }
        case .header: return scrubbing.headers.contains { $0.lowercased() == name }
        case .path, .cookie: return false
        }
    }

    func header(_ name: String, in headers: HeaderFields) -> String? { headers[name] }
}

extension OpenAPIDocument {
    /// The violations of `value` against the schema at `pointer` (`#/components/schemas/Pet`);
    /// a schema that is only a `$ref` is checked as the schema it leads to.
    ///
    /// ```swift
    /// let problems = try contract.violations(of: JSONValue(any: ["id": "seven"]), againstSchemaAt: "#/components/schemas/Pet")
    /// ```
    public func violations(of value: JSONValue, againstSchemaAt pointer: String) throws -> [SchemaViolation] {
        guard let index = schemaIndex(at: pointer) else {
            throw OpenAPIError(source: source, location: pointer, message: "no schema of the document is there")
        }
        return SchemaValidator.violations(of: value, against: index, in: schemas).violations
    }

    /// The schema at `pointer`, or the one it leads to when it is a `$ref` alone.
    func schemaIndex(at pointer: String) -> Int? {
        schemas.indices[JSONPointer.canonical(pointer)]
    }

    /// Every violation of `exchange`: the request's (when `checksRequest`) and the response's.
    func violations(of exchange: HTTPExchange, checksRequest: Bool = true) -> [ContractViolation] {
        let path = exchange.url.map { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? $0.path } ?? "/"
        func aboutRequest(_ violation: ContractViolation) -> ContractViolation {
            var marked = violation
            marked.isAboutRequest = true
            return marked
        }
        switch select(method: exchange.method, path: path.isEmpty ? "/" : path) {
        case .operation(let operation, let pathParameters):
            var found: [ContractViolation] = []
            if checksRequest { found += requestViolations(exchange, operation, pathParameters: pathParameters).map(aboutRequest) }
            found += responseViolations(exchange, operation)
            return found
        case let selection:
            return unselected(selection, method: exchange.method, path: path).map { [$0] } ?? []
        }
    }

    // MARK: Request

    private func requestViolations(
        _ exchange: HTTPExchange, _ operation: OpenAPIOperation, pathParameters: [String: String]
    ) -> [ContractViolation] {
        var found: [ContractViolation] = []
        let query = exchange.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.queryItems } ?? []
        for parameter in operation.parameters {
            let part = "\(parameter.location.rawValue) parameter \"\(parameter.name)\""
            var values: [String]
            switch parameter.location {
            case .path: values = pathParameters[parameter.name].map { [$0] } ?? []
            case .query where parameter.objectStyle != nil:
                let present = query.contains { $0.name == parameter.name || $0.name.hasPrefix(parameter.name + "[") }
                if parameter.objectStyle == "deepObject", !present, parameter.isRequired {
                    found.append(
                        ContractViolation(
                            operation: operation.description, part: part, jsonPath: nil, schemaPath: parameter.pointer,
                            expected: "the required query parameter", found: "none"))
                }
                continue
            case .query: values = query.filter { $0.name == parameter.name }.map { $0.value ?? "" }
            case .header:
                // The document may not describe these three (OpenAPI ignores them as parameters).
                if ["accept", "content-type", "authorization"].contains(parameter.name.lowercased()) { continue }
                values = exchange.header(parameter.name, in: exchange.requestHeaders).map { [$0] } ?? []
            case .cookie: continue
            }
            if values.isEmpty {
                if parameter.isRequired {
                    found.append(
                        ContractViolation(
                            operation: operation.description, part: part, jsonPath: nil, schemaPath: parameter.pointer,
                            expected: "the required \(parameter.location.rawValue) parameter", found: "none"))
                }
                continue
            }
            guard let schema = parameter.schema else { continue }
            let value = parameterValue(values, schema: schema, explode: parameter.explode)
            let isSecret = exchange.isSecret(parameter)
            for violation in SchemaValidator.violations(of: value, against: schema, in: schemas, limit: 5, scrubbing: exchange.scrubbing)
                .violations
            {
                found.append(
                    ContractViolation(
                        operation: operation.description, part: part, jsonPath: violation.jsonPath == "$" ? nil : violation.jsonPath,
                        schemaPath: violation.schemaPath, expected: violation.expected,
                        found: isSecret ? exchange.scrubbing.placeholder : violation.found))
            }
        }
        guard exchange.isRequestBodyKnown else { return found }
        let body = exchange.requestBody ?? Data()
        guard let documented = operation.requestBody else {
            if !body.isEmpty {
                found.append(
                    ContractViolation(
                        operation: operation.description, part: "request body", jsonPath: nil, schemaPath: operation.pointer,
                        expected: "no body (the operation documents no requestBody)", found: "\(body.count) bytes"))
            }
            return found
        }
        if body.isEmpty {
            if documented.isRequired {
                found.append(
                    ContractViolation(
                        operation: operation.description, part: "request body", jsonPath: nil, schemaPath: operation.pointer + "/requestBody",
                        expected: "a body (requestBody is required)", found: "none"))
            }
            return found
        }
        found += bodyViolations(
            body, contentType: exchange.header("Content-Type", in: exchange.requestHeaders), content: documented.content,
            operation: operation, part: "request", listPointer: operation.pointer + "/requestBody/content", scrubbing: exchange.scrubbing)
        return found
    }

    /// A parameter's text as the JSON value its schema describes: `7` is an integer where the
    /// schema wants one, `a,b` an array.
    func parameterValue(_ values: [String], schema: Int, explode: Bool) -> JSONValue {
        let node = schemas.nodes[schema]
        if node.types?.contains("array") == true {
            let texts = explode ? values : values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let itemNode = node.items.map { schemas.nodes[$0] }
            return .array(texts.map { Self.scalar($0, types: itemNode?.types) })
        }
        return Self.scalar(values[0], types: node.types)
    }

    static func scalar(_ text: String, types: Set<String>?) -> JSONValue {
        guard let types else { return .string(text) }
        if types.contains("integer"), let value = Int(text) { return .integer(value) }
        if types.contains("number"), let value = Double(text) {
            return value.rounded() == value && abs(value) < 1e15 ? .integer(Int(value)) : .number(value)
        }
        if types.contains("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
        if types.contains("null"), text.isEmpty { return .null }
        return .string(text)
    }

    // MARK: Response

    func responseViolations(_ exchange: HTTPExchange, _ operation: OpenAPIOperation) -> [ContractViolation] {
        guard let response = operation.response(for: exchange.status) else {
            // OpenAPI 3.1 lets an operation leave out its responses: the report points at the operation.
            let documented = operation.documentedStatuses
            return [
                ContractViolation(
                    operation: operation.description, part: "status", jsonPath: nil,
                    schemaPath: documented.isEmpty ? operation.pointer : operation.pointer + "/responses",
                    expected: "a documented status (\(documented.isEmpty ? "the operation documents none" : documented.joined(separator: ", ")))",
                    found: String(exchange.status))
            ]
        }
        let part = "response \(exchange.status)"
        guard let body = exchange.responseBody else { return [] }
        if response.content.isEmpty {
            guard body.isEmpty else {
                return [
                    ContractViolation(
                        operation: operation.description, part: part + " body", jsonPath: nil, schemaPath: response.pointer,
                        expected: "no body (the document lists no content for \(response.status))", found: "\(body.count) bytes")
                ]
            }
            return []
        }
        if body.isEmpty {
            if exchange.method == "HEAD" || exchange.status == 204 || exchange.status == 304 { return [] }
            return [
                ContractViolation(
                    operation: operation.description, part: part + " body", jsonPath: nil, schemaPath: response.pointer + "/content",
                    expected: "a body of \(response.content.map(\.name).joined(separator: ", "))", found: "none")
            ]
        }
        return bodyViolations(
            body, contentType: exchange.header("Content-Type", in: exchange.responseHeaders), content: response.content,
            operation: operation, part: part, listPointer: response.pointer + "/content", scrubbing: exchange.scrubbing)
    }

    // MARK: Bodies

    func bodyViolations(
        _ body: Data, contentType: String?, content: [OpenAPIOperation.MediaType], operation: OpenAPIOperation, part: String,
        listPointer: String, scrubbing: Scrubbing
    ) -> [ContractViolation] {
        let listed = content.map(\.name).joined(separator: ", ")
        guard let contentType else {
            return [
                ContractViolation(
                    operation: operation.description, part: part + " Content-Type", jsonPath: nil, schemaPath: listPointer,
                    expected: "one of \(listed)", found: "none")
            ]
        }
        let essence = MediaTypeName.essence(of: contentType)
        guard let media = MediaTypeName.documented(essence, in: content) else {
            return [
                ContractViolation(
                    operation: operation.description, part: part + " Content-Type", jsonPath: nil, schemaPath: listPointer,
                    expected: "one of \(listed)", found: essence)
            ]
        }
        if essence == "multipart/form-data", let schema = media.schema {
            return multipartViolations(body, contentType: contentType, schema: schema, media: media, operation: operation, part: part)
        }
        guard MediaTypeName.isJSON(essence), let schema = media.schema else { return [] }
        let value: JSONValue
        do {
            value = try JSONValue.reading(body)
        } catch {
            return [
                ContractViolation(
                    operation: operation.description, part: part + " body", jsonPath: nil, schemaPath: media.pointer,
                    expected: "JSON (the Content-Type is \(essence))", found: "\(body.count) bytes that do not parse as JSON")
            ]
        }
        let (violations, uncounted) = SchemaValidator.violations(of: value, against: schema, in: schemas, scrubbing: scrubbing)
        var found = violations.map {
            ContractViolation(
                operation: operation.description, part: part + " body", jsonPath: $0.jsonPath, schemaPath: $0.schemaPath,
                expected: $0.expected, found: $0.found)
        }
        if uncounted > 0 {
            found.append(
                ContractViolation(
                    operation: operation.description, part: part + " body", jsonPath: nil, schemaPath: media.pointer + "/schema",
                    expected: "no more violations", found: "\(uncounted) more, not listed"))
        }
        return found
    }

    /// A `multipart/form-data` body by its part names only: the schema's required properties
    /// must be parts, and with `additionalProperties: false` no other part may come. The parts'
    /// contents are not checked.
    private func multipartViolations(
        _ body: Data, contentType: String, schema: Int, media: OpenAPIOperation.MediaType, operation: OpenAPIOperation, part: String
    ) -> [ContractViolation] {
        let names: [String?]
        do {
            names = try MultipartPartNames.of(body, contentType: contentType)
        } catch {
            return [
                ContractViolation(
                    operation: operation.description, part: part + " body", jsonPath: nil, schemaPath: media.pointer,
                    expected: "a multipart/form-data body", found: "one that does not read (\(error))")
            ]
        }
        let node = schemas.nodes[schema]
        let present = Set(names.compactMap { $0 })
        let listed = names.map { $0.map { "\"\($0)\"" } ?? "an unnamed part" }.joined(separator: ", ")
        var found: [ContractViolation] = []
        for name in node.required where !present.contains(name) {
            found.append(
                ContractViolation(
                    operation: operation.description, part: part + " body", jsonPath: nil, schemaPath: node.path + "/required",
                    expected: "the required part \"\(name)\"", found: names.isEmpty ? "no parts" : "the parts \(listed)"))
        }
        if case .forbidden = node.additionalProperties {
            for name in present.sorted() where node.propertyIndex[name] == nil {
                found.append(
                    ContractViolation(
                        operation: operation.description, part: part + " body", jsonPath: nil,
                        schemaPath: node.path + "/additionalProperties",
                        expected:
                            "no part \"\(name)\" (additionalProperties is false; properties: \(node.properties.map { "\"\($0.name)\"" }.joined(separator: ", ")))",
                        found: "a part \"\(name)\""))
            }
        }
        return found
    }
}
