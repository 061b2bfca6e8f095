import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// Stubs as data: a declaration round-trips through JSON, answers through a real session like a
/// stub made in code, and refuses what cannot match or be answered where it is made or read.
@Suite("Stub declarations")
struct StubDeclarationTests {
    /// Every field of the vocabulary at once, so a round trip drops none.
    static var everyField: StubDeclaration {
        var request = RequestPattern(method: "post", url: .matches("^https://"), host: .equalTo("api.test", caseInsensitive: true))
        request.path = .template("/users/:id")
        request.query = ["page": .present, "q": .anyOf([.equalTo("a"), .hasPrefix("b")]), "debug": .absent]
        request.headers = ["Accept": .contains("json"), "X-Trace": .not(.matches("^0+$")), "X-Old": .doesNotContain("v1")]
        request.cookies = ["session": .allOf([.present, .hasSuffix("z")]), "other": .doesNotMatch("x")]
        request.body = [
            .equalTo("{}"), .binaryEqualTo(Data([0, 1, 2])), .contains("id"), .matches("\"id\""),
            .json(["a": [1, 2]], ignoreArrayOrder: true, ignoreExtraElements: true), .jsonPath("$.a"),
            .jsonPath("$.b", .equalTo("x")), .kind(TenantKind().name, "acme"),
        ]
        request.anyOf = [RequestPattern(path: .hasSuffix(".json")), RequestPattern(path: .hasSuffix(".xml"))]
        request.noneOf = [RequestPattern(headers: ["X-Skip": .present])]
        request.allOf = [RequestPattern(path: .equalTo("/users/1"))]
        let response = ResponseDefinition(
            status: 201, headers: ["Set-Cookie": "a=1", "Set-Cookie": "b=2", "Location": "/users/1"], body: .json(["id": 1]),
            requestTime: 0.5, responseTime: 2, downloadSpeed: 40, gate: "checkout", failure: .afterBytes(10, errorCode: -1005))
        return StubDeclaration(
            id: "6f1c", name: "create user", request: request, response: response,
            followingResponses: [ResponseDefinition(status: 409, body: .fixture("conflict.json")), ResponseDefinition(body: .stream("feed"))],
            priority: 2,
            scenario: .init(name: "signup", requiredState: "Started", newState: "done"), times: 3,
            metadata: ["team": "ios", "tags": ["a"]], source: .init(file: "Stubs/users.json", line: 4))
    }

    /// A pattern kind as a library registers one.
    struct TenantKind: RequestPatternKind {
        let name = "declarationTestsTenant"
        func matcher(for value: JSONValue) -> RequestMatcher {
            guard case .string(let tenant) = value else { return .invalid("tenant", problem: "expected a string") }
            return hasHeaderNamed("X-Tenant", value: tenant)
        }
    }

    @Test func everyFieldRoundTripsThroughJSON() throws {
        RequestPatternKinds.register(TenantKind())
        let declaration = Self.everyField
        let data = try JSONEncoder().encode(declaration)
        let decoded = try JSONDecoder().decode(StubDeclaration.self, from: data)
        #expect(decoded == declaration)
        #expect(try StubDeclaration(json: declaration.json) == declaration)
        let bodies: [ResponseDefinition.Body] = [
            .text("hi"), .bytes(Data([0xFF, 0])), .file("fixtures/a.bin"), .fixture("users.json"), .stream("prices"),
        ]
        for body in bodies {
            var other = declaration
            other.response.body = body
            let failures: [ResponseDefinition.Failure] = [
                .error(code: -1009), .truncated(afterBytes: 3), .never, .passthrough, .fault(.connectionReset), .fault(.randomDataThenClose),
                .proxy(baseURL: "https://staging.example.com/v2"),
            ]
            for failure in failures {
                other.response.failure = failure
                #expect(try JSONDecoder().decode(StubDeclaration.self, from: JSONEncoder().encode(other)) == other)
            }
        }
    }

    @Test func theJSONFormIsTheDocumentedOne() throws {
        let text = """
            {"version": 1, "name": "user 1",
             "request": {"method": "GET", "path": {"equalTo": "/users/1"}, "headers": {"Accept": "application/json"}},
             "response": {"status": 200, "headers": {"Set-Cookie": ["a=1", "b=2"]}, "body": {"json": {"id": 1}}}}
            """
        let declaration = try #require(try StubDeclaration.read(from: Data(text.utf8), source: "users.json").first)
        #expect(declaration.request == RequestPattern(method: "GET", path: .equalTo("/users/1"), headers: ["Accept": .equalTo("application/json")]))
        #expect(declaration.response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(declaration.response.body == .json(["id": 1]))
        let list = try StubDeclaration.read(from: Data("{\"stubs\": [\(text), \(text)]}".utf8), source: "all.json")
        #expect(list.count == 2)
        #expect(list[1].source == .init(file: "all.json"))
    }

    @Test(arguments: FetchAPI.allCases)
    func aDeclarationAnswersLikeTheSameStubInCode(api: FetchAPI) async throws {
        let registry = StubRegistry()
        var pattern = RequestPattern(method: "GET", path: .template("/users/:id"))
        pattern.query = ["expand": .absent]
        pattern.headers = ["Accept": .contains("json")]
        try registry.stub(
            StubDeclaration(
                name: "user", request: pattern,
                response: ResponseDefinition(headers: ["Set-Cookie": "a=1", "Set-Cookie": "b=2"], body: .json(["id": 7]))))
        var request = URLRequest(url: URL(string: "https://api.test/users/7")!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let answered = await fetch(request, from: registry, using: api)
        #expect(answered.statusCode == 200)
        #expect(answered.body == #"{"id":7}"#)
        #expect(answered.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(registry.journal.last?.stub?.name == "user")

        let refused = await fetch(URLRequest(url: URL(string: "https://api.test/users/7?expand=1")!), from: registry, using: api)
        #expect(refused.stubError != nil || refused.urlError != nil)
        let report = "\(refused.error.map { "\($0)" } ?? "")"
        #expect(report.contains("expected query parameter \"expand\" is absent, got \"1\""), "\(report)")
        #expect(report.contains("expected header \"Accept\" contains \"json\", got none"), "\(report)")
    }

    @Test func matcherFunctionsProduceTheDeclarationAndTheDeclarationTheMatcher() throws {
        let registry = StubRegistry()
        let oneLiner = registry.stub(.get, "https://api.test/users?page=2", json: ["users": []])
        let declaration = try #require(oneLiner.declaration)
        #expect(declaration.request == RequestPattern(method: "GET", url: .equalTo("https://api.test/users?page=2")))
        #expect(declaration.response.body == .text(#"{"users":[]}"#))
        #expect(declaration.response.headers["Content-Type"] == "application/json")
        let matcher = isHost("API.test") && (isPath("/a/:id") || pathStartsWith("/b")) && !hasHeaderNamed("X-Skip")
        #expect(RequestMatcher(try #require(matcher.pattern)).description == matcher.description)
        let closure = registry.stub(RequestMatcher("custom") { _ in true }) { _ in StubResponse(statusCode: 204) }
        #expect(closure.declaration == nil, "a closure is what data cannot say")
        #expect(registry.declarations.count == 1)
    }

    @Test func priorityRanksBeforeNewness() async throws {
        let registry = StubRegistry()
        let path = RequestPattern(path: .equalTo("/p"))
        try registry.stub([
            StubDeclaration(name: "first", request: path, response: ResponseDefinition(body: .text("first")), priority: 1),
            StubDeclaration(name: "newer", request: path, response: ResponseDefinition(body: .text("newer"))),
        ])
        registry.stub(isPath("/p")) { _ in StubResponse(string: "code") }
        #expect(await fetch(URLRequest(url: URL(string: "https://api.test/p")!), from: registry).body == "first")
    }

    @Test func aNamedGateHoldsTheAnswer() async throws {
        let registry = StubRegistry()
        try registry.stub(
            StubDeclaration(request: RequestPattern(path: .equalTo("/pay")), response: ResponseDefinition(body: .text("paid"), gate: "checkout")))
        let outcome = Outcome()
        let task = Task { outcome.set(await fetch(URLRequest(url: URL(string: "https://api.test/pay")!), from: registry)) }
        _ = try await registry.gate(named: "checkout").waitForRequest(timeout: patientWait)
        #expect(outcome.result == nil)
        #expect(registry.gate(named: "checkout").release())
        await task.value
        #expect(outcome.result?.body == "paid")
    }

    @Test(arguments: [
        (#"{"response": {"status": 600}}"#, "$.response.status", "expected 100...599"),
        (#"{"response": {"status": 204, "body": {"text": "x"}}}"#, "$.response.body", "has no body"),
        (#"{"request": {"path": {"matches": "(["}}, "response": {}}"#, "$.request.path", "invalid regular expression /([/"),
        (#"{"request": {"body": [{"kind": "nope", "value": 1}]}, "response": {}}"#, "$.request.body[0]", "pattern kind \"nope\""),
        (#"{"request": {"headers": {"X-A": {"anyOf": ["a", {"template": "x"}]}}}, "response": {}}"#, "$.request.headers.X-A", "must start with"),
        (#"{"version": 2, "response": {}}"#, "$.version", "newer than this library reads"),
        (#"{"request": {"paht": "/a"}, "response": {}}"#, "$.request.paht", "unknown member \"paht\""),
        (#"{"request": {"path": {"equalTo": 3}}, "response": {}}"#, "$.request.path.equalTo", "expected a string, found the number 3"),
        (#"{"request": {}}"#, "$", "expected a \"response\""),
        (#"[{"response": {}}, {"response": {"headers": {"A": 1}}}]"#, "$[1].response.headers.A", "expected a string"),
        (#"{"response": {"failure": {"never": true, "error": -1}}}"#, "$.response.failure", "expected exactly one of"),
        (#"{"response": "#, "$", "not JSON"),
    ])
    func badInputNamesTheFileThePathAndWhatWasExpected(text: String, path: String, expected: String) throws {
        do {
            let declarations = try StubDeclaration.read(from: Data(text.utf8), source: "Stubs/bad.json")
            try StubRegistry().stub(declarations)
            Issue.record("\(text) was accepted")
        } catch let error as StubError {
            guard case .invalidDeclaration(let source, let at, let problem) = error else { Issue.record("\(error)"); return }
            #expect(source == "Stubs/bad.json")
            #expect(at == path)
            #expect(problem.contains(expected), "\(problem)")
        }
    }

    @Test func aDeclarationMadeInCodeIsCheckedWhereItIsRegistered() {
        let registry = StubRegistry()
        let bad = StubDeclaration(name: "teapot", response: ResponseDefinition(status: 1000), source: .init(file: "MyTests.swift", line: 9))
        #expect(
            throws: StubError.invalidDeclaration(
                source: "stub \"teapot\" (MyTests.swift:9)", path: "$.response.status",
                problem: "status 1000 is not an HTTP status; expected 100...599")
        ) {
            try registry.stub(bad)
        }
        #expect(registry.stubs.isEmpty)
    }

    @Test func aRegisteredKindMatchesThroughItsLibrary() async throws {
        RequestPatternKinds.register(TenantKind())
        let registry = StubRegistry()
        try registry.stub(
            StubDeclaration(request: RequestPattern(body: [.kind(TenantKind().name, "acme")]), response: ResponseDefinition(body: .text("hi"))))
        var request = URLRequest(url: URL(string: "https://api.test/")!)
        request.setValue("acme", forHTTPHeaderField: "X-Tenant")
        #expect(await fetch(request, from: registry).body == "hi")
    }
}
