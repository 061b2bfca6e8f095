import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsMultipart

/// GraphQL as the engine's registry sees it: operation names for the stub index, a request's
/// operation and variables in the unmatched report with the stub to type, and a batch answered
/// operation by operation.
///
/// Registered, with the multipart strategy it reads uploads through, on first use of a GraphQL
/// matcher or response (``register()``).
package struct GraphQLStrategy: RequestStrategy {
    /// Before multipart: a GraphQL upload is described and suggested as an operation.
    package var precedence: Int { 0 }

    /// The strategy; ``register()`` makes it known to every registry.
    package init() {}

    private static let registration: Void = {
        MultipartStrategy.register()
        RequestStrategies.register(GraphQLStrategy())
        GraphQLPatternKinds.registerAll()
    }()

    /// Registers the strategy for every registry of the process (once; later calls are free).
    package static func register() { _ = registration }

    /// Operation names: the key ``isGraphQLOperation(_:)`` files its stubs under. Mirrors that
    /// matcher: a request with one named operation has its name; a batch, an anonymous or a
    /// non-GraphQL request has none; a body not visible yet is unknown.
    package static let operationKind = IndexKind("GraphQL operation") { request in
        let method = request.method
        if method == "GET" || method == "HEAD", request.parsedQueryItems == nil { request.parsedQueryItems = request.queryItems }
        switch GraphQLRequest.read(request, queryItems: request.parsedQueryItems) {
        case .bodyUnknown: return nil
        case .single(let operation): return operation.resolvedName.map { [$0] } ?? []
        default: return []
        }
    }

    // MARK: The report

    /// The request's operation (or batch) reading, or why it cannot be read; none when it is not GraphQL.
    package func reportLines(for request: StubRequest) -> [String] {
        switch GraphQLRequest.read(request) {
        case .single(let operation) where Self.isRecognisable(operation):
            return ["  GraphQL: \(Self.describe(operation))"]
        case .batch(let operations):
            return ["  GraphQL batch of \(operations.count) operations: " + operations.map(\.summary).joined(separator: ", ")]
        case .invalid(let reason):
            return ["  GraphQL: an invalid request: \(reason)"]
        default:
            return []
        }
    }

    /// The GraphQL parameters of a GET, which the GraphQL matchers replace in a suggestion.
    private static let parameters: Set<String> = ["query", "operationName", "variables", "extensions"]

    /// The operation's name (or the start of its document) and variables, a GraphQL response.
    package func suggestion(for request: StubRequest, scrubbing: Scrubbing) -> StubSuggestion? {
        guard case .single(let operation) = GraphQLRequest.read(request), Self.isRecognisable(operation) else { return nil }
        var matchers: [String] = []
        if let name = operation.resolvedName {
            matchers.append("isGraphQLOperation(\(literal(name)))")
        } else if let document = operation.document {
            matchers.append("isGraphQLQuery(containing: \(literal(Self.documentExcerpt(scrubbing.graphQLTextBeforeFirstSecret(document)))))")
        }
        if let variables = operation.variables, !variables.isEmpty {
            matchers.append("hasGraphQLVariables(\(swiftLiteral(.object(variables))))")
        }
        return StubSuggestion(matchers: matchers, coveredQueryParameters: Self.parameters, response: #"try StubResponse(json: ["data": [:]])"#)
    }

    /// Whether `operation` is recognisably GraphQL (a `?query=tea` search parameter is not).
    private static func isRecognisable(_ operation: GraphQLOperationRequest) -> Bool {
        if operation.persistedQueryHash != nil { return true }
        if case .unknown = operation.name { return false }
        return true
    }

    private static func describe(_ operation: GraphQLOperationRequest) -> String {
        var text = operation.summary
        if let hash = operation.persistedQueryHash, operation.document == nil { text += " (sha256Hash \(hash.prefix(12))…)" }
        if let variables = operation.variables, !variables.isEmpty { text += ", variables \(JSONValue.object(variables))" }
        return text
    }

    /// The start of an anonymous operation's document, token by token, short enough to read.
    private static func documentExcerpt(_ document: String) -> String {
        var excerpt = ""
        for token in GraphQLLexer.tokenTexts(document) {
            if excerpt.count + token.count > 60 { break }
            excerpt += excerpt.isEmpty ? token : " " + token
        }
        return excerpt
    }

    // MARK: Batches

    /// A batch as its operations, each a JSON POST of its own; answers joined into an array.
    package func split(_ request: StubRequest) -> RequestSplit? {
        guard case .batch(let operations) = GraphQLRequest.read(request) else { return nil }
        return RequestSplit(
            parts: operations.map { RequestPart(request: request.answering($0), summary: $0.summary) },
            partNoun: "Operation", wholeName: "GraphQL batch", join: GraphQLBatch.joinedResponse)
    }
}
