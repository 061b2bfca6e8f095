import Foundation
@testable import URLStubs
import URLStubsGraphQL

// The GraphQL operation as a key of the engine's stub index, for the index tests that file
// stubs by a strategy's key.

extension MatchKeys {
    /// Keys that require the GraphQL operation `graphQLOperation`, besides the others given.
    init(
        host: String? = nil, path: String? = nil, method: String? = nil, queryParameters: [QueryParameter] = [],
        graphQLOperation: String, jsonBody: JSONValue? = nil, body: Data? = nil
    ) {
        self.init(
            host: host, path: path, method: method, queryParameters: queryParameters,
            strategyKey: IndexKey(GraphQLStrategy.operationKind, graphQLOperation), jsonBody: jsonBody, body: body)
    }
}

extension IndexDimension {
    /// The GraphQL operation name, as `isGraphQLOperation(_:)` files its stubs.
    static var graphQLOperation: IndexDimension { .strategy(GraphQLStrategy.operationKind) }
}
