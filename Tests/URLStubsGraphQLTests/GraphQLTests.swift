import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsGraphQL
@testable import URLStubsMultipart
@testable import TestSupport

/// GraphQL: the document reader, requests read from every transport, the matchers through a
/// real session, responses, batches, and an Apollo-style client stubbed per operation.
@Suite("GraphQL")
struct GraphQLTests {
    static let endpoint = "https://api.test/graphql"
    static let getUser = "query GetUser($id: ID!) { user(id: $id) { id name } }"

    private func post(_ body: Any, headers: [String: String] = ["Content-Type": "application/json"]) -> URLRequest {
        request(Self.endpoint, method: "POST", body: try! JSONSerialization.data(withJSONObject: body), headers: headers)
    }

    private func get(_ parameters: [String: String]) -> URLRequest {
        var components = URLComponents(string: Self.endpoint)!
        components.queryItems = parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return request(components.url!.absoluteString)
    }

    // MARK: The document reader

    @Test func readerFindsOperationsAndFragmentsPastCommentsAndStrings() {
        let document = GraphQLDocument(
            """
            # query Commented { x }
            query GetUser($id: ID!, $filter: Filter = {kind: "a", nested: {query: 1}}) @cached(ttl: 60) {
              user(id: $id) {
                ...UserFields
                bio(format: \"\"\"
                  a block "string" with \\\""" and { braces query Fake
                \"\"\")
                note: field(arg: "query Inner { x }")
                query
              }
            }
            fragment UserFields on User { id name }
            mutation { like(id: 1) }
            subscription OnEvent @live { event }
            """)
        #expect(
            document.operations == [
                .init(type: "query", name: "GetUser"), .init(type: "mutation", name: nil), .init(type: "subscription", name: "OnEvent"),
            ])
        #expect(document.fragments == ["UserFields"])
        #expect(document.syntaxError == nil)
    }

    @Test func readerResolvesTheOperationARequestRuns() throws {
        #expect(try GraphQLDocument("{ me { id } }").operation(named: nil).get() == .init(type: "query", name: nil))
        #expect(try GraphQLDocument("query A { a } query B { b }").operation(named: "B").get().name == "B")
        guard case .failure(.ambiguous(let operations)) = GraphQLDocument("query A { a } query B { b }").operation(named: nil) else {
            Issue.record("two operations and no operationName must be ambiguous")
            return
        }
        #expect(operations.count == 2)
        guard case .failure(.notDefined("C", _)) = GraphQLDocument("query A { a }").operation(named: "C") else {
            Issue.record("an operationName the document lacks must be reported")
            return
        }
    }

    @Test(arguments: [
        ("query A { a(x: \"open\n}", 1, 16, "not closed before the end of its line"),
        ("query A {\n  a ~ b\n}", 2, 5, "unexpected character \"~\""),
        ("query A { a }}", 1, 14, "closes nothing"),
        ("query A { a ", 1, 13, "never closed"),
        ("query A { a(x: \"\"\"never closed", 1, 16, "block string"),
        ("query A { ..a }", 1, 11, "a lone \".\""),
    ])
    func readerReportsWhereTheDocumentIsBroken(text: String, line: Int, column: Int, message: String) {
        let error = GraphQLDocument(text).syntaxError
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.column == column, "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test func readerNeverTrapsOnGarbage() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("{}()[]\"#.\\\n query mutation fragment on $ @ é \u{0} \"\"\" ...".utf8)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<60, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let text = String(decoding: bytes, as: UTF8.self)
            let document = GraphQLDocument(text)
            for operation in document.operations { #expect(["query", "mutation", "subscription"].contains(operation.type)) }
            _ = GraphQLLexer.tokenTexts(text)
        }
    }

    // MARK: Reading requests

    @Test func requestsAreReadFromEveryTransport() throws {
        func read(_ request: URLRequest) -> GraphQLRequest { GraphQLRequest.read(StubRequest(request)) }
        guard case .single(let posted) = read(post(["query": Self.getUser, "variables": ["id": 7]])) else {
            Issue.record("a POST body with query is GraphQL"); return
        }
        #expect(posted.resolvedName == "GetUser")
        #expect(posted.variables == ["id": .integer(7)])

        guard
            case .single(let persisted) = read(
                get([
                    "operationName": "GetUser", "variables": #"{"id":7}"#,
                    "extensions": #"{"persistedQuery":{"version":1,"sha256Hash":"abc123"}}"#,
                ]))
        else { Issue.record("a persisted GET is GraphQL"); return }
        #expect(persisted.document == nil)
        #expect(persisted.persistedQueryHash == "abc123")
        #expect(persisted.resolvedName == "GetUser")

        guard
            case .single(let raw) = read(
                request(
                    Self.endpoint, method: "POST", body: Data("{ me { id } }".utf8),
                    headers: ["Content-Type": "application/graphql"]))
        else {
            Issue.record("an application/graphql body is GraphQL"); return
        }
        #expect(raw.name == .anonymous(type: "query"))

        guard case .batch(let batch) = read(post([["query": "query A { a }"], ["query": "query B { b }", "operationName": "B"]])) else {
            Issue.record("an array of operations is a batch"); return
        }
        #expect(batch.map(\.resolvedName) == ["A", "B"])

        var form = MultipartForm()
        form.add("operations", #"{"query":"mutation Upload($file: Upload!) { upload(file: $file) { id } }","variables":{"file":null}}"#)
        form.add("map", #"{"0":["variables.file"]}"#)
        form.add("0", filename: "a.png", contentType: "image/png", Data([0x89, 0x50]))
        guard case .single(let upload) = read(request(Self.endpoint, method: "POST", body: form.data, headers: ["Content-Type": form.contentType]))
        else {
            Issue.record("a GraphQL multipart upload is GraphQL"); return
        }
        #expect(upload.resolvedName == "Upload")

        #expect(read(request("https://api.test/search?q=tea")) == .notGraphQL("no \"query\" parameter and no persisted query"))
        #expect(read(post(["name": "x"])) == .notGraphQL("a JSON body without \"query\" or a persisted query"))
        #expect(read(post(["query": Self.getUser, "variables": [1, 2]])) == .invalid("\"variables\" must be an object, got [1,2]"))
        guard case .invalid(let reason) = read(get(["query": Self.getUser, "variables": "{broken"])) else {
            Issue.record("variables that are not JSON are invalid"); return
        }
        #expect(reason.contains("\"variables\" parameter that is not JSON"))
    }

    // MARK: Matchers through a session

    @Test(arguments: BodyTransport.allCases)
    func matchersSeePostedOperationsHoweverTheBodyIsSent(transport: BodyTransport) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/graphql") && isGraphQLOperation("GetUser") && hasGraphQLVariables(["id": 1]), name: "user 1") { _ in
            try StubResponse(json: ["data": ["user": ["id": "1"]]])
        }
        registry.stub(isPath("/graphql") && isGraphQLOperation("GetUser") && hasGraphQLVariables(["id": 2]), name: "user 2") { _ in
            try StubResponse(json: ["data": ["user": ["id": "2"]]])
        }
        registry.stub(isPath("/graphql") && isGraphQLQuery(containing: "posts(first: 10) { title"), name: "posts") { _ in
            try StubResponse(json: ["data": ["posts": []]])
        }
        let base = request(Self.endpoint, method: "POST", headers: ["Content-Type": "application/json"])
        func body(_ object: Any) -> Data { try! JSONSerialization.data(withJSONObject: object) }

        let two = await send(
            base, body: body(["operationName": "GetUser", "query": Self.getUser, "variables": ["id": 2.0]]),
            via: transport, to: registry)
        #expect(two.body == #"{"data":{"user":{"id":"2"}}}"#, "\(String(describing: two.error))")
        let one = await send(base, body: body(["query": Self.getUser, "variables": ["id": 1, "extra": true]]), via: transport, to: registry)
        #expect(one.body == #"{"data":{"user":{"id":"1"}}}"#, "\(String(describing: one.error))")
        let posts = await send(base, body: body(["query": "{\n  posts(first:10){\n    title # a comment\n  }\n}"]), via: transport, to: registry)
        #expect(posts.body == #"{"data":{"posts":[]}}"#, "\(String(describing: posts.error))")
        let three = await send(
            base, body: body(["operationName": "GetUser", "query": Self.getUser, "variables": ["id": 3]]),
            via: transport, to: registry)
        guard case .unmatchedRequest(let report)? = three.stubError else {
            Issue.record("id 3 has no stub: \(String(describing: three.error))"); return
        }
        #expect(report.contains("$.variables.id: expected 2, got 3"))
        #expect(report.contains("GraphQL: query \"GetUser\", variables {\"id\":3}"))
    }

    @Test(arguments: FetchAPI.allCases)
    func getRequestsAndPersistedQueriesMatchByOperation(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isMethod(.get) && isGraphQLOperation("GetUser") && hasGraphQLVariables(["id": "7"])) { _ in
            try StubResponse(json: ["data": ["user": ["id": "7"]]])
        }
        let persisted = await fetch(
            get([
                "operationName": "GetUser", "variables": #"{"id":"7"}"#,
                "extensions": #"{"persistedQuery":{"version":1,"sha256Hash":"abc"}}"#,
            ]), from: registry, using: api)
        #expect(persisted.body == #"{"data":{"user":{"id":"7"}}}"#)
        let withDocument = await fetch(get(["query": Self.getUser, "variables": #"{"id":"7"}"#]), from: registry, using: api)
        #expect(withDocument.body == #"{"data":{"user":{"id":"7"}}}"#)
    }

    @Test func nearMissReportNamesTheOperationAndTheVariables() async {
        let registry = StubRegistry()
        registry.stub(isPath("/graphql") && isGraphQLOperation("GetUser") && hasGraphQLVariables(["id": 1]), name: "user") { _ in
            try StubResponse(json: ["data": [:]])
        }
        let result = await fetch(
            post([
                "operationName": "GetUsers", "query": "query GetUsers($id: ID) { users { id } }",
                "variables": ["id": 2, "page": ["size": 10]],
            ]), from: registry)
        guard case .unmatchedRequest(let report)? = result.stubError else {
            Issue.record("expected a report, got \(String(describing: result.error))"); return
        }
        #expect(report.contains(#"expected operation "GetUser", got "GetUsers""#))
        #expect(report.contains("$.variables.id: expected 1, got 2"))
        #expect(report.contains(#"isGraphQLOperation("GetUsers")"#))
        #expect(report.contains(#"hasGraphQLVariables(["id": 2, "page": ["size": 10] as [String: Any]] as [String: Any])"#))
        #expect(report.contains(#"try StubResponse(json: ["data": [:]])"#))
        #expect(!report.contains("hasJSONBody("), "a GraphQL request is stubbed with the GraphQL matchers")

        let persisted = await fetch(
            get([
                "operationName": "Feed", "variables": #"{"after":"x"}"#,
                "extensions": #"{"persistedQuery":{"version":1,"sha256Hash":"0123456789abcdef"}}"#,
            ]), from: registry)
        guard case .unmatchedRequest(let getReport)? = persisted.stubError else {
            Issue.record("expected a report, got \(String(describing: persisted.error))"); return
        }
        #expect(getReport.contains(#"GraphQL: persisted query "Feed" (sha256Hash 0123456789ab…), variables {"after":"x"}"#))
        #expect(
            getReport.contains(
                #"registry.stub(isMethod(.get) && isHost("api.test") && isPath("/graphql") && isGraphQLOperation("Feed") && hasGraphQLVariables(["after": "x"] as [String: Any]))"#
            ))
    }

    // MARK: Responses

    @Test func graphQLResponsesHaveTheSpecShape() async throws {
        let registry = StubRegistry()
        registry.stub(isGraphQLOperation("Ok")) { _ in
            StubResponse(graphQLResponseData: ["user": ["id": "1"]], extensions: ["cost": 3])
        }
        registry.stub(isGraphQLOperation("Partial")) { _ in
            StubResponse(
                graphQLResponseData: ["user": NSNull()],
                errors: [
                    [
                        "message": "Not found", "path": ["user", 0], "locations": [["line": 2, "column": 3]],
                        "extensions": ["code": "NOT_FOUND"],
                    ]
                ])
        }
        registry.stub(isGraphQLOperation("Failed")) { _ in StubResponse(graphQLResponseData: nil, errors: [["message": "boom"]]) }
        registry.stub(isGraphQLOperation("NoMessage")) { _ in StubResponse(graphQLResponseData: nil, errors: [["path": ["x"]]]) }
        registry.stub(isGraphQLOperation("NotJSON")) { _ in StubResponse(graphQLResponseData: ["when": Date()]) }

        func run(_ name: String) async -> FetchResult { await fetch(post(["query": "query \(name) { x }"]), from: registry) }
        let ok = await run("Ok")
        #expect(ok.body == #"{"data":{"user":{"id":"1"}},"extensions":{"cost":3}}"#)
        #expect(ok.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(
            await run("Partial").body
                == #"{"data":{"user":null},"errors":[{"extensions":{"code":"NOT_FOUND"},"locations":[{"column":3,"line":2}],"message":"Not found","path":["user",0]}]}"#
        )
        #expect(await run("Failed").body == #"{"data":null,"errors":[{"message":"boom"}]}"#)
        guard case .invalidResponse(let reason)? = await run("NoMessage").stubError else {
            Issue.record("an error without a message must be reported"); return
        }
        #expect(reason.contains("errors[0] has no string \"message\""))
        guard case .invalidResponse(let notJSON)? = await run("NotJSON").stubError else {
            Issue.record("data that is not JSON must be reported"); return
        }
        #expect(notJSON.contains("data: a value of type"))
    }

    // MARK: Batches

    @Test func batchesAreAnsweredOperationByOperation() async throws {
        let registry = StubRegistry()
        let user = registry.stub(isGraphQLOperation("GetUser"), name: "user") { request in
            let id = GraphQLRequest.read(request).operations.first?.variables?["id"] ?? .null
            return StubResponse(graphQLResponseData: ["user": ["id": id.foundationObject]], headers: ["X-Answered-By": "user"])
        }
        registry.stub(isGraphQLOperation("ListPosts"), name: "posts") { _ in StubResponse(graphQLResponseData: ["posts": []]) }
        let batch = post([
            ["operationName": "GetUser", "query": Self.getUser, "variables": ["id": 1]],
            ["operationName": "ListPosts", "query": "query ListPosts { posts { id } }"],
            ["operationName": "GetUser", "query": Self.getUser, "variables": ["id": 2]],
        ])
        let result = await fetch(batch, from: registry, using: .delegate)
        #expect(result.body == #"[{"data":{"user":{"id":1}}},{"data":{"posts":[]}},{"data":{"user":{"id":2}}}]"#)
        #expect(result.response?.value(forHTTPHeaderField: "X-Answered-By") == "user")
        #expect(user.activationCount == 2)
        #expect(registry.journal.last?.stub?.name?.contains("GraphQL batch of user, posts, user") == true)

        let partlyUnknown = post([
            ["operationName": "GetUser", "query": Self.getUser, "variables": ["id": 3]],
            ["operationName": "Missing", "query": "query Missing { nope }"],
        ])
        let unmatched = await fetch(partlyUnknown, from: registry)
        #expect(user.activationCount == 2, "an operation of an unanswered batch keeps no activation")
        guard case .unmatchedRequest(let report)? = unmatched.stubError else {
            Issue.record("expected a report, got \(String(describing: unmatched.error))"); return
        }
        #expect(report.contains(#"GraphQL batch of 2 operations: query "GetUser", query "Missing""#))
        #expect(report.contains(#"Operation 1 of 2, query "GetUser": answered by "user""#))
        #expect(report.contains(#"Operation 2 of 2, query "Missing": no stub matches"#))
        #expect(report.contains(#"expected operation "GetUser", got "Missing""#))
        #expect(report.contains(#"isGraphQLOperation("Missing")"#))
        #expect(!report.contains(#"isGraphQLOperation("GetUser")"#), "only the unanswered operation needs a stub")
    }

    @Test func aBatchOfANonJSONAnswerIsAClearError() async {
        let registry = StubRegistry()
        registry.stub(isGraphQLOperation("A"), name: "text answer") { _ in StubResponse(data: Data("plain".utf8)) }
        let result = await fetch(post([["query": "query A { a }"], ["query": "query A { a }"]]), from: registry)
        guard case .invalidResponse(let reason)? = result.stubError else {
            Issue.record("expected invalidResponse, got \(String(describing: result.error))"); return
        }
        #expect(reason.contains("\"text answer\""))
        #expect(reason.contains("operation 1 of a batch"))
    }

    // MARK: An Apollo-style client

    @Test func anApolloStyleClientIsStubbedPerOperation() async throws {
        let registry = StubRegistry()
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let client = ApolloStyleClient(session: session, endpoint: URL(string: Self.endpoint)!)
        let getUser = ApolloStyleClient.operation("GetUser", Self.getUser, variables: ["id": "1"])
        let feed = ApolloStyleClient.operation("Feed", "query Feed($first: Int!) { feed(first: $first) { id } }", variables: ["first": 2])
        let like = ApolloStyleClient.operation("Like", "mutation Like($id: ID!) { like(id: $id) { likes } }", variables: ["id": "p1"])

        registry.stub(isPath("/graphql") && isGraphQLOperation("GetUser")) { _ in
            try StubResponse(json: ["data": ["user": ["id": "1", "name": "Ada"]]])
        }
        // Feed: the server does not know the hash yet, then receives the document.
        registry.stub(isMethod(.get) && isGraphQLOperation("Feed")) { _ in
            StubResponse(
                graphQLResponseData: nil, errors: [["message": "PersistedQueryNotFound", "extensions": ["code": "PERSISTED_QUERY_NOT_FOUND"]]])
        }
        registry.stub(
            isMethod(.post) && isGraphQLOperation("Feed") && isGraphQLQuery(containing: "feed(first: $first)") && hasGraphQLVariables(["first": 2])
        ) { _ in
            try StubResponse(json: ["data": ["feed": [["id": "a"], ["id": "b"]]]])
        }
        registry.stub(isGraphQLOperation("Like")) { request in
            let id = GraphQLRequest.read(request).operations.first?.variables?["id"]?.foundationObject as? String ?? "?"
            return try StubResponse(json: ["data": ["like": ["likes": id == "p1" ? 11 : 0]]])
        }

        let user = try await client.fetch(getUser)
        #expect((user["data"] as? [String: Any])?["user"] as? [String: String] == ["id": "1", "name": "Ada"])
        #expect(registry.journal.first?.request.value(forHTTPHeaderField: "X-APOLLO-OPERATION-NAME") == "GetUser")
        let (feedResponse, requests) = try await client.fetchPersisted(feed)
        #expect(requests == 2, "hash first, document after PersistedQueryNotFound")
        #expect(((feedResponse["data"] as? [String: Any])?["feed"] as? [[String: String]])?.count == 2)
        let (known, knownRequests) = try await client.fetchPersisted(getUser)
        #expect(knownRequests == 1, "a hash the stubs answer needs no retry")
        #expect((known["data"] as? [String: Any])?["user"] != nil)
        let answers = try await client.fetchBatch([getUser, like, getUser])
        #expect(answers.count == 3)
        #expect(((answers[1]["data"] as? [String: Any])?["like"] as? [String: Int])?["likes"] == 11)
        #expect(registry.journal.filter { !$0.isUnmatched }.count == 5, "1 POST, a hash miss and its retry, a known hash, 1 batch")
    }

    // MARK: The index

    @Test func thousandsOfOperationsOnOneEndpointResolveToTheRightStub() async {
        let registry = StubRegistry()
        for index in 0..<2_000 {
            registry.stub(isPath("/graphql") && isGraphQLOperation("Operation\(index)"), name: "op \(index)") { _ in
                try StubResponse(json: ["data": ["index": index]])
            }
        }
        registry.stub(isPath("/graphql") && isGraphQLOperation("Operation7") && hasGraphQLVariables(["v": 2]), name: "newer") { _ in
            try StubResponse(json: ["data": ["index": "newer"]])
        }
        #expect(await fetch(post(["query": "query Operation1234 { x }"]), from: registry).body == #"{"data":{"index":1234}}"#)
        #expect(await fetch(post(["query": "query Operation7 { x }", "variables": ["v": 2]]), from: registry).body == #"{"data":{"index":"newer"}}"#)
        #expect(await fetch(post(["query": "query Operation7 { x }", "variables": ["v": 1]]), from: registry).body == #"{"data":{"index":7}}"#)
    }
}
