import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsMultipart

/// One GraphQL operation as a request carries it: a POST body object, the parameters of a
/// GET, an element of a batch, or the `operations` field of a multipart upload.
package struct GraphQLOperationRequest: Sendable, Equatable {
    /// The document (`query`), absent for an automatic persisted query sent by hash only.
    let document: String?
    /// `operationName` as sent; `nil` when absent, `null` or empty.
    let operationName: String?
    /// `variables`; `nil` when absent or `null`.
    package let variables: [String: JSONValue]?
    let extensions: JSONValue?
    /// The operation as one JSON object (`{"query", "operationName", "variables", "extensions"}`),
    /// whichever way it was sent: what volatile JSON paths and reports refer to.
    let object: [String: JSONValue]

    /// How the operation's name is known.
    enum Name: Sendable, Equatable {
        case named(String, type: String?)
        case anonymous(type: String)
        case unknown(String)
    }

    init?(object: [String: JSONValue]) throws {
        let document: String?
        switch object["query"] {
        case .string(let text)?: document = text
        case nil, .null?: document = nil
        case let other?: throw GraphQLRequestError("\"query\" must be a string, got \(other)")
        }
        let extensions = object["extensions"].flatMap { $0 == .null ? nil : $0 }
        let isPersisted: Bool
        if case .object(let members)? = extensions, case .object? = members["persistedQuery"] { isPersisted = true } else { isPersisted = false }
        guard document != nil || isPersisted else { return nil }
        switch object["operationName"] {
        case .string(let name)? where !name.isEmpty: operationName = name
        case nil, .null?, .string?: operationName = nil
        case let other?: throw GraphQLRequestError("\"operationName\" must be a string, got \(other)")
        }
        switch object["variables"] {
        case .object(let members)?: variables = members
        case nil, .null?: variables = nil
        case let other?: throw GraphQLRequestError("\"variables\" must be an object, got \(other)")
        }
        self.document = document
        self.extensions = extensions
        self.object = object
    }

    /// The document's SHA-256 hash for automatic persisted queries, when sent.
    var persistedQueryHash: String? {
        guard case .object(let members)? = extensions, case .object(let persisted)? = members["persistedQuery"],
            case .string(let hash)? = persisted["sha256Hash"]
        else { return nil }
        return hash
    }

    /// The operation's name: `operationName`, else the one operation the document defines.
    var name: Name {
        guard let document else {
            if let operationName { return .named(operationName, type: nil) }
            let hash = persistedQueryHash.map { " (sha256Hash \($0.prefix(12))…)" } ?? ""
            return .unknown("a persisted query\(hash) without operationName or document")
        }
        switch GraphQLDocument(document).operation(named: operationName) {
        case .success(let operation):
            if let name = operation.name { return .named(name, type: operation.type) }
            return .anonymous(type: operation.type)
        case .failure(let problem):
            if let operationName { return .named(operationName, type: nil) }
            return .unknown("\(problem)")
        }
    }

    /// The name to match, or `nil` for an anonymous or unknown operation.
    var resolvedName: String? {
        if case .named(let name, _) = name { return name }
        return nil
    }

    /// `query GetUser`, `a persisted query GetUser`, `an anonymous mutation`, as reports say it.
    var summary: String {
        switch name {
        case .named(let name, let type):
            if document == nil { return "persisted query \"\(name)\"" }
            return "\(type ?? "operation") \"\(name)\""
        case .anonymous(let type): return "an anonymous \(type)"
        case .unknown(let reason): return reason
        }
    }

    /// The operation alone as a POST body, for answering one element of a batch.
    var body: Data { JSONValue.object(object).serialized() }
}

/// A request read as GraphQL over HTTP.
package enum GraphQLRequest: Sendable, Equatable {
    case single(GraphQLOperationRequest)
    /// An array body: each element is an operation, answered in order.
    case batch([GraphQLOperationRequest])
    /// The body cannot be seen yet (a stream or an upload task while the request is being
    /// claimed): a body-dependent matcher says "maybe".
    case bodyUnknown
    /// Not a GraphQL request; the reason says what was looked for.
    case notGraphQL(String)
    /// A GraphQL request that breaks the GraphQL-over-HTTP rules (variables that are not an
    /// object, a `variables` parameter that is not JSON).
    case invalid(String)

    /// The GraphQL content of `request`:
    /// - a GET with `query`, or with `extensions` holding a `persistedQuery` (plus
    ///   `operationName` and `variables` as JSON text);
    /// - a JSON body object with `query` or a persisted query, or an array of them (a batch);
    /// - an `application/graphql` body (the document itself);
    /// - a multipart upload whose `operations` field holds one of the above (the GraphQL
    ///   multipart request spec that Apollo uses for files).
    ///
    /// `queryItems`, when given, are the request's own (a caller that parsed them already).
    package static func read(_ request: StubRequest, queryItems: [URLQueryItem]? = nil) -> GraphQLRequest {
        let method = request.method
        if method == "GET" || method == "HEAD" {
            return readParameters(queryItems ?? request.queryItems)
        }
        guard request.isBodyKnown else { return .bodyUnknown }
        guard let body = request.body, !body.isEmpty else { return .notGraphQL("no body") }
        let contentType = request.value(forHTTPHeaderField: "Content-Type")
        let type = contentType.map(MediaType.init)
        if type?.essence == "application/graphql" {
            guard let text = String(data: body, encoding: .utf8) else { return .invalid("an application/graphql body that is not UTF-8") }
            return .single(GraphQLOperationRequest(document: text))
        }
        if let contentType, MultipartBody.isMultipart(contentType: contentType) {
            guard let multipart = try? MultipartBody(body, contentType: contentType),
                let operations = multipart.parts.first(where: { $0.name == "operations" })
            else {
                return .notGraphQL("a multipart body without an \"operations\" field")
            }
            return readJSON(operations.body)
        }
        return readJSON(body)
    }

    private static func readJSON(_ body: Data) -> GraphQLRequest {
        guard let json = try? JSONValue(data: body) else { return .notGraphQL("the body is not JSON") }
        do {
            switch json {
            case .object(let members):
                guard let operation = try GraphQLOperationRequest(object: members) else {
                    return .notGraphQL("a JSON body without \"query\" or a persisted query")
                }
                return .single(operation)
            case .array(let elements) where !elements.isEmpty:
                var operations: [GraphQLOperationRequest] = []
                for element in elements {
                    guard case .object(let members) = element, let operation = try GraphQLOperationRequest(object: members) else {
                        return .notGraphQL("a JSON array whose elements are not all GraphQL operations")
                    }
                    operations.append(operation)
                }
                return .batch(operations)
            default:
                return .notGraphQL("a JSON body that is not an object")
            }
        } catch {
            return .invalid("\(error)")
        }
    }

    private static func readParameters(_ items: [URLQueryItem]) -> GraphQLRequest {
        guard items.contains(where: { $0.name == "query" || $0.name == "extensions" }) else {
            return .notGraphQL("no \"query\" parameter and no persisted query")
        }
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        var object: [String: JSONValue] = [:]
        if let query = value("query") { object["query"] = .string(query) }
        if let name = value("operationName") { object["operationName"] = .string(name) }
        var problem: String?
        for name in ["variables", "extensions"] {
            guard let text = value(name), !text.isEmpty else { continue }
            guard let json = try? JSONValue(data: Data(text.utf8)) else {
                problem = problem ?? "a \"\(name)\" parameter that is not JSON: \"\(text.prefix(80))\""
                continue
            }
            object[name] = json
        }
        do {
            guard let operation = try GraphQLOperationRequest(object: object) else {
                return .notGraphQL("no \"query\" parameter and no persisted query")
            }
            if let problem { return .invalid(problem) }
            return .single(operation)
        } catch {
            return .invalid("\(error)")
        }
    }

    /// Every operation, or none when the request is not (or not yet known to be) GraphQL.
    var operations: [GraphQLOperationRequest] {
        switch self {
        case .single(let operation): return [operation]
        case .batch(let operations): return operations
        default: return []
        }
    }
}

extension GraphQLOperationRequest {
    /// An operation sent as a bare document (`application/graphql`).
    init(document: String) {
        self.document = document
        self.operationName = nil
        self.variables = nil
        self.extensions = nil
        self.object = ["query": .string(document)]
    }
}

/// A GraphQL-over-HTTP rule the request breaks.
struct GraphQLRequestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The variables of a request's one GraphQL operation, as an add-on reads them (a scenario
/// folder's file name spells some).
package enum GraphQLVariablesReading: Sendable {
    /// The body cannot be read yet: "maybe", decided once it is.
    case bodyUnknown
    /// The request is not exactly one GraphQL operation.
    case notOneOperation
    /// The operation's variables; empty when it sends none.
    case variables([String: JSONValue])

    /// The variables of `request`'s one operation, or why there are none.
    package init(_ request: StubRequest) {
        switch GraphQLRequest.read(request) {
        case .bodyUnknown: self = .bodyUnknown
        case .single(let operation): self = .variables(operation.variables ?? [:])
        default: self = .notOneOperation
        }
    }
}
