import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsGraphQL
import URLStubsScenarios
@testable import TestSupport

/// A scenario folder's `graphql` files answer GraphQL operations by name and variables.
@Suite("Scenario folders and GraphQL")
struct ScenarioFolderGraphQLTests {
    @Test(arguments: FetchAPI.allCases)
    func scenarioFoldersAnswerGraphQLOperations(api: FetchAPI) async throws {
        // The folder's graphql files are declarations naming GraphQL's pattern kinds.
        GraphQLPatternKinds.register()
        let registry = StubRegistry()
        registry.activate(try Scenario.folder(fixturesFolder.appendingPathComponent("Scenarios/happy")))
        let endpoint = "https://api.shop.test/api/graphql"
        func operation(_ body: Any) -> URLRequest {
            request(endpoint, method: "POST", body: try! JSONSerialization.data(withJSONObject: body), headers: ["Content-Type": "application/json"])
        }
        let kettle = await fetch(
            operation(["query": "query GetProduct($id: ID!) { product(id: $id) { name } }", "variables": ["id": "1"]]),
            from: registry, using: api)
        #expect(kettle.body.contains("Kettle"))
        #expect(kettle.response?.value(forHTTPHeaderField: "X-Backend") == "fake", "manifest headers apply")
        #expect(
            await fetch(
                operation([
                    "operationName": "GetProduct", "query": "query GetProduct($id: ID!) { product(id: $id) { name } }",
                    "variables": ["id": 2],
                ]), from: registry, using: api
            ).body.contains("Teapot"),
            "[id=2] accepts the number 2")
        var components = URLComponents(string: endpoint)!
        components.queryItems = [
            URLQueryItem(name: "query", value: "query GetProduct { product(id: \"2\") { name } }"),
            URLQueryItem(name: "variables", value: #"{"id":"2"}"#),
        ]
        #expect(await fetch(URLRequest(url: components.url!), from: registry, using: api).body.contains("Teapot"), "and the string \"2\", by GET")
        let order = await fetch(operation(["query": "mutation PlaceOrder { placeOrder { id } }"]), from: registry, using: api)
        #expect(order.response?.value(forHTTPHeaderField: "X-Order") == "placed")
        #expect(order.body.contains("o-1"))
    }
}
