import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsMultipart

/// GraphQL requests as HAR replay compares them: by operation and variables rather than the raw
/// body or query string, so entries for `GetUser` and `GetUsers` sent to one `/graphql` URL
/// replay apart, and a differently formatted document still matches. An anonymous operation is
/// its document's tokens.
extension GraphQLStrategy: ReplayStrategy {
    /// An operation as replay compares it.
    private struct Reading: Sendable {
        /// The operation's name, or its document's tokens when anonymous.
        let operation: String
        let variables: JSONValue
        let isNamed: Bool
    }

    /// The GraphQL parameters of a GET, compared as the operation instead of in the URL.
    private static let queryParameters: Set<String> = ["query", "operationName", "variables", "extensions"]

    /// The request's one operation and variables, `volatile` paths (relative to the operation
    /// object, `$.variables.clientTime`) left out; for a live request, the operation's name as
    /// sent (the index files these stubs by it) and its variables as scrubbed, so a scrubbed
    /// secret variable lines up. An anonymous operation is compared as scrubbed (its inline
    /// secrets). `nil` for an operation whose name cannot be known.
    package func replayIdentity(of request: StubRequest, sent: StubRequest?, volatile: VolatileFields) -> ReplayIdentity? {
        guard case .single(let operation) = GraphQLRequest.read(request), var reading = Self.reading(operation, volatile: volatile) else {
            return nil
        }
        if let sent, case .single(let sentOperation) = GraphQLRequest.read(sent), case .named(let name, _) = sentOperation.name {
            reading = Reading(operation: name, variables: reading.variables, isNamed: true)
        }
        return ReplayIdentity(
            format: "graphql", key: "\(reading.operation) \(reading.variables)", summary: "GraphQL \(reading.operation)",
            queryParameters: Self.queryParameters,
            indexKey: reading.isNamed ? IndexKey(Self.operationKind, reading.operation) : nil, payload: reading
        ) { [reading] live in
            guard let actual = live?.payload as? Reading else {
                return ["expected GraphQL operation \"\(reading.operation)\", got a request that is not GraphQL"]
            }
            var reasons: [String] = []
            if reading.operation != actual.operation { reasons.append("expected operation \"\(reading.operation)\", got \"\(actual.operation)\"") }
            reasons += reading.variables.differenceLines(from: actual.variables, path: "$.variables")
            return reasons
        }
    }

    /// Whether the request's operation carries its document (Apollo's persisted queries send it
    /// by hash first, with the document after a miss): the recorded exchange that agrees answers.
    package func replayTag(of request: StubRequest) -> String? {
        GraphQLRequest.read(request).operations.first.map { $0.document != nil ? "document" : "hash" }
    }

    private static func reading(_ operation: GraphQLOperationRequest, volatile: VolatileFields) -> Reading? {
        let name: String
        let isNamed: Bool
        switch operation.name {
        case .named(let named, _): (name, isNamed) = (named, true)
        case .anonymous: (name, isNamed) = ("{ " + GraphQLLexer.tokenTexts(operation.document ?? "").joined(separator: " ") + " }", false)
        case .unknown: return nil
        }
        let object = volatile.removingPaths(from: .object(operation.object))
        var variables = JSONValue.object([:])
        if case .object(let members) = object, let kept = members["variables"], kept != .null { variables = kept }
        return Reading(operation: name, variables: variables, isNamed: isNamed)
    }
}
