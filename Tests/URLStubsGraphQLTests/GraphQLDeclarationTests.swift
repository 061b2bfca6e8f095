import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsGraphQL
@testable import TestSupport

/// GraphQL matchers as data: they read back as declarations whose kinds the wing registers, and
/// such declarations, read from JSON, answer like the matchers.
@Suite("GraphQL declarations")
struct GraphQLDeclarationTests {
    static func operation(_ body: String) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.test/graphql")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        return request
    }

    @Test func theMatchersReadBackAsDeclarationsThatRoundTrip() throws {
        let registry = StubRegistry()
        let stub = registry.stub(
            isPath("/graphql") && isGraphQLOperation("GetUser") && hasGraphQLVariables(["id": 1]),
            responses: [
                StubResponse(string: #"{"data":{"user":{"id":1}}}"#)
            ])
        let declaration = try #require(stub.declaration)
        #expect(declaration.request.body == [.kind("graphQLOperation", "GetUser"), .kind("graphQLVariables", ["id": 1])])
        let reread = try #require(try StubDeclaration.read(from: JSONEncoder().encode(declaration), source: "g.json").first)
        #expect(reread.request == declaration.request)
    }

    @Test(arguments: FetchAPI.allCases)
    func aDeclarationNamingGraphQLKindsAnswersTheOperation(api: FetchAPI) async throws {
        GraphQLPatternKinds.register()
        let text = """
            {"request": {"method": "POST", "path": "/graphql",
                         "body": [{"kind": "graphQLOperation", "value": "GetUser"},
                                  {"kind": "graphQLQueryContaining", "value": "user(id: $id)"}]},
             "response": {"body": {"json": {"data": {"user": {"name": "Ada"}}}}}}
            """
        let registry = StubRegistry()
        try registry.stub(StubDeclaration.read(from: Data(text.utf8), source: "graphql.json"))
        let query = #"{"operationName": "GetUser", "query": "query GetUser($id: ID!) { user(id:$id) { name } }", "variables": {"id": "1"}}"#
        let answered = await fetch(Self.operation(query), from: registry, using: api)
        #expect(answered.body == #"{"data":{"user":{"name":"Ada"}}}"#)
        let other = await fetch(Self.operation(#"{"query": "query GetOrder { order { id } }"}"#), from: registry, using: api)
        #expect("\(other.error.map { "\($0)" } ?? "")".contains("expected operation \"GetUser\", got \"GetOrder\""))
    }

    @Test func aBadValueOfAGraphQLKindIsRefusedWhereItIsRead() {
        GraphQLPatternKinds.register()
        let text = #"{"request": {"body": [{"kind": "graphQLOperation", "value": 3}]}, "response": {}}"#
        #expect(
            throws: StubError.invalidDeclaration(source: "g.json", path: "$.request.body[0]", problem: "expected the operation's name as a string")
        ) {
            try StubDeclaration.read(from: Data(text.utf8), source: "g.json")
        }
    }
}
