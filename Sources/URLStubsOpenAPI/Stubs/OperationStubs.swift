import Foundation
import URLStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension OpenAPIDocument {
    /// A matcher for the operation `operationId`: a request whose method and path select it
    /// (its path template, with or without the path of one of the document's `servers`; a more
    /// specific template of another operation wins, as in the contract check). Any host matches.
    ///
    /// ```swift
    /// registry.stub(try contract.matcher(for: "getPet"), responses: [try contract.response(for: "getPet", status: 200)])
    /// ```
    public func matcher(for operationId: String) throws -> RequestMatcher {
        let operation = try operation(operationId)
        let document = self
        return RequestMatcher(Self.matcherDescription(of: operation)) { request in
            let path = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.percentEncodedPath } ?? "/"
            switch document.select(method: request.method, path: path.isEmpty ? "/" : path) {
            case .operation(let selected, _) where selected.pointer == operation.pointer:
                return nil
            case .operation(let other, _):
                return "expected \(operation), got \(request.method) \(path), which is \(other)"
            case .methodNotDocumented, .pathNotDocumented:
                return "expected \(operation), got \(request.method) \(path)"
            }
        }
    }

    /// What ``matcher(for:)`` calls its matcher, by which ``check(_:)-(StubRegistry)`` knows the
    /// operation of a stub whose matcher names no exact path.
    static func matcherDescription(of operation: OpenAPIOperation) -> String {
        "operation \(operation)"
    }

    /// The response the document describes for `operationId` and `status`: its media type's
    /// `example` (or first `examples` entry), else its schema's `example`, else a value made
    /// from the schema, the same every time. `Content-Type` is the first JSON media type the
    /// response lists (or `mediaType`).
    ///
    /// ```swift
    /// let pet = try contract.response(for: "getPet", status: 200)
    /// let missing = try contract.response(for: "getPet", status: 404)
    /// ```
    ///
    /// A value made from a schema is checked against that schema before it is returned.
    ///
    /// Throws an ``OpenAPIError`` when the operation does not exist, documents no responses or
    /// none for `status`, does not list `mediaType` (or lists no JSON media type when `mediaType`
    /// is `nil`), or when no value that fits the schema can be built (a `pattern` outside the
    /// syntax the generator reads, sizes past its limits): the error names the schema and asks
    /// for an example.
    public func response(for operationId: String, status: Int, mediaType: String? = nil) throws -> StubResponse {
        let operation = try operation(operationId)
        guard !operation.responses.isEmpty else {
            throw OpenAPIError(
                source: source, location: operation.pointer,
                message:
                    "\(operation) documents no responses at all (OpenAPI 3.1 allows leaving them out); add \"responses\" with \(status) to build one")
        }
        guard let response = operation.response(for: status) else {
            throw OpenAPIError(
                source: source, location: operation.pointer + "/responses",
                message: "\(operation) documents no response \(status) (it documents \(operation.documentedStatuses.joined(separator: ", ")))")
        }
        let wanted = mediaType.map { MediaTypeName.essence(of: $0) }
        let listed = response.content.map(\.name).joined(separator: ", ")
        if let wanted, MediaTypeName.documented(wanted, in: response.content) == nil {
            throw OpenAPIError(
                source: source, location: response.pointer + "/content",
                message: "\(operation) response \(response.status) lists no \(wanted) (it lists \(listed.isEmpty ? "no content" : listed))")
        }
        guard !response.content.isEmpty else { return StubResponse(data: Data(), statusCode: status) }
        guard
            let media = wanted.flatMap({ MediaTypeName.documented($0, in: response.content) })
                ?? response.content.first(where: { MediaTypeName.isJSON($0.name) })
        else {
            throw OpenAPIError(
                source: source, location: response.pointer + "/content",
                message: "\(operation) response \(response.status) lists no JSON media type (it lists \(listed)); pass mediaType:")
        }
        let contentType = media.name.contains("*") ? (wanted ?? "application/json") : media.name
        let value = try exampleValue(of: media, contentType: contentType)
        var body = Data()
        if let value {
            guard value.isWritableAsJSON else {
                throw OpenAPIError(
                    source: source, location: media.pointer,
                    message: "the example holds a number JSON cannot write (.inf or .nan); give the example a finite number")
            }
            if case .string(let text) = value, !MediaTypeName.isJSON(contentType) {
                body = Data(text.utf8)
            } else {
                body = value.serialized()
            }
        }
        return StubResponse(data: body, statusCode: status, headers: ["Content-Type": contentType])
    }

    /// The media type's example, else a value made from its schema and checked against it, else
    /// `{}` for a JSON media type that gives neither (any JSON value fits it).
    private func exampleValue(of media: OpenAPIOperation.MediaType, contentType: String) throws -> JSONValue? {
        if let example = media.example { return example }
        guard let schema = media.schema else {
            guard MediaTypeName.isJSON(contentType) else {
                throw OpenAPIError(
                    source: source, location: media.pointer,
                    message: "\(media.name) has no schema and no example to build a body from; give it an example")
            }
            return .object([:])
        }
        var generator = ExampleGenerator(set: schemas)
        let value: JSONValue
        do {
            value = try generator.value(for: schema)
        } catch let failure as ExampleGenerator.Failure {
            throw OpenAPIError(
                source: source, location: failure.schemaPath,
                message: "no example can be built from the schema: \(failure.message); give the media type (\(media.pointer)) an example")
        }
        if let violation = SchemaValidator.violations(of: value, against: schema, in: schemas, limit: 1).violations.first {
            throw OpenAPIError(
                source: source, location: violation.schemaPath,
                message: "no example can be built from the schema: the value made for it breaks it at \(violation.jsonPath) (expected "
                    + "\(violation.expected), found \(violation.found)); give the media type (\(media.pointer)) an example")
        }
        return value
    }
}
