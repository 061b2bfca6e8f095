// Fuzz target: the GraphQL document reader, and GraphQL requests read from any body or query.
// fuzz-also-compiles: Sources/URLStubsGraphQL Sources/URLStubsMultipart
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraphQL(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let text = String(decoding: data, as: UTF8.self)
    let document = GraphQLDocument(text)
    for operation in document.operations {
        precondition(["query", "mutation", "subscription"].contains(operation.type), "an operation type is a keyword")
        if let name = operation.name {
            precondition(
                !name.isEmpty && name.utf8.allSatisfy { $0 == 95 || (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) },
                "an operation name is a GraphQL name")
        }
    }
    if let error = document.syntaxError {
        precondition(error.line >= 1 && error.column >= 1 && !error.message.isEmpty, "an error says where and what")
    }
    _ = document.operation(named: nil)
    _ = GraphQLLexer.tokenTexts(text)

    // The same bytes as a POST body (JSON or not), wrapped as a document, and as GET parameters.
    var post = URLRequest(url: URL(string: "https://fuzz.test/graphql")!)
    post.httpMethod = "POST"
    post.setValue("application/json", forHTTPHeaderField: "Content-Type")
    post.httpBody = data
    var wrapped = post
    wrapped.httpBody = JSONValue.object(["query": .string(text), "variables": .object(["id": .integer(1)])]).serialized()
    var components = URLComponents(string: "https://fuzz.test/graphql")!
    components.queryItems = [
        URLQueryItem(name: "query", value: text), URLQueryItem(name: "variables", value: text),
        URLQueryItem(name: "extensions", value: text),
    ]
    let get = URLRequest(url: components.url ?? URL(string: "https://fuzz.test/graphql")!)
    let matchers = [isGraphQLOperation("GetUser"), hasGraphQLVariables(["id": 1]), isGraphQLQuery(containing: "user { id")]
    for request in [post, wrapped, get] {
        let stubRequest = StubRequest(request)
        for operation in GraphQLRequest.read(stubRequest).operations {
            _ = (operation.name, operation.summary, operation.persistedQueryHash, operation.body)
        }
        for matcher in matchers { _ = matcher.mismatches(for: stubRequest) }
    }
    return 0
}
