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
        return RequestMatcher("operation \(operation)") { request in
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
    /// Throws an ``OpenAPIError`` when the operation does not exist, documents no response for
    /// `status`, or lists no JSON media type (nor `mediaType`).
    public func response(for operationId: String, status: Int, mediaType: String? = nil) throws -> StubResponse {
        let operation = try operation(operationId)
        guard let response = operation.response(for: status) else {
            throw OpenAPIError(
                source: source, location: operation.pointer + "/responses",
                message: "\(operation) documents no response \(status) (it documents \(operation.documentedStatuses.joined(separator: ", ")))")
        }
        guard !response.content.isEmpty else { return StubResponse(data: Data(), statusCode: status) }
        let wanted = mediaType.map { MediaTypeName.essence(of: $0) }
        guard
            let media = wanted.flatMap({ MediaTypeName.documented($0, in: response.content) })
                ?? response.content.first(where: { MediaTypeName.isJSON($0.name) })
        else {
            let listed = response.content.map(\.name).joined(separator: ", ")
            throw OpenAPIError(
                source: source, location: response.pointer + "/content",
                message: wanted.map { "\(operation) response \(response.status) lists no \($0) (it lists \(listed))" }
                    ?? "\(operation) response \(response.status) lists no JSON media type (it lists \(listed)); pass mediaType:")
        }
        let contentType = media.name.contains("*") ? (wanted ?? "application/json") : media.name
        var value: JSONValue?
        if let example = media.example {
            value = example
        } else if let schema = media.schema {
            var generator = ExampleGenerator(set: schemas)
            value = generator.value(for: schema)
        }
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
}
