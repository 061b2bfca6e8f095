import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsMultipart

extension StubResponse {
    /// A GraphQL response in the shape the GraphQL spec gives it:
    /// `{"data": …, "errors": [...], "extensions": {...}}`, as `application/json`, its errors'
    /// shape checked. The public spelling is the document itself,
    /// `StubResponse(json: ["data": ["user": ["id": "1"]]])`; URLStubsMigration's
    /// `init(graphQLData:errors:extensions:statusCode:headers:)` comes here.
    ///
    /// - Parameters:
    ///   - graphQLData: The `data` member; `nil` writes `"data": null` (an error during
    ///     execution, which is what clients such as Apollo expect alongside `errors`).
    ///   - errors: Each with a string `message`, and optionally `path` (strings and indices),
    ///     `locations` (`line` and `column` from 1) and `extensions`. Left out when empty.
    ///   - extensions: The top-level `extensions` member, left out when `nil`.
    ///   - statusCode: 200, as GraphQL servers answer even for field errors.
    ///   - headers: Extra headers; `Content-Type: application/json` unless given.
    ///
    /// - Important: Values that are not JSON, or an error without a `message` or with a
    ///   malformed `path` or `locations`, do not crash the test: the request fails with
    ///   `StubError.invalidResponse(reason:)` saying which member is wrong.
    package init(
        graphQLResponseData graphQLData: [String: Any]?, errors: [[String: Any]] = [], extensions: [String: Any]? = nil,
        statusCode: Int = 200, headers: HeaderFields = [:]
    ) {
        GraphQLStrategy.register()
        do {
            var document: [String: JSONValue] = ["data": .null]
            if let graphQLData {
                do { document["data"] = try JSONValue(any: graphQLData) } catch { throw GraphQLResponseError("data: \(error)") }
            }
            if !errors.isEmpty {
                document["errors"] = .array(
                    try errors.enumerated().map { index, error in
                        try Self.graphQLError(error, at: index)
                    })
            }
            if let extensions {
                do { document["extensions"] = try JSONValue(any: extensions) } catch { throw GraphQLResponseError("extensions: \(error)") }
            }
            var fields = headers
            if !fields.contains(name: "Content-Type") {
                fields["Content-Type"] = "application/json"
            }
            self.init(data: JSONValue.object(document).serialized(), statusCode: statusCode, headers: fields)
        } catch {
            self.init(error: StubError.invalidResponse(reason: "GraphQL response: \(error)"))
        }
    }

    private static func graphQLError(_ error: [String: Any], at index: Int) throws -> JSONValue {
        let place = "errors[\(index)]"
        let value: JSONValue
        do { value = try JSONValue(any: error) } catch { throw GraphQLResponseError("\(place): \(error)") }
        guard case .object(let members) = value else { throw GraphQLResponseError("\(place) must be an object") }
        guard case .string? = members["message"] else {
            throw GraphQLResponseError("\(place) has no string \"message\" (the GraphQL spec requires one)")
        }
        if let path = members["path"] {
            guard case .array(let segments) = path,
                segments.allSatisfy({
                    if case .string = $0 { return true }
                    if case .integer(let position) = $0 { return position >= 0 }
                    return false
                })
            else {
                throw GraphQLResponseError("\(place).path must be an array of field names and indices, got \(path)")
            }
        }
        if let locations = members["locations"] {
            guard case .array(let list) = locations,
                list.allSatisfy({ location in
                    guard case .object(let fields) = location, case .integer(let line)? = fields["line"],
                        case .integer(let column)? = fields["column"]
                    else { return false }
                    return line >= 1 && column >= 1
                })
            else {
                throw GraphQLResponseError("\(place).locations must be an array of {\"line\", \"column\"} from 1, got \(locations)")
            }
        }
        if let extensions = members["extensions"] {
            guard case .object = extensions else { throw GraphQLResponseError("\(place).extensions must be an object") }
        }
        return value
    }
}

private struct GraphQLResponseError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
