import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// What declared stubs do beyond a fixed answer: scenario steps, network faults, and the ways
/// of answering libraries register.
@Suite("Declared behaviour")
struct DeclarationBehaviourTests {
    /// A transformer as a library registers one: echoes the request's path.
    struct EchoPath: ResponseTransformer {
        let name = "declarationTestsEchoPath"
        func responder(for value: JSONValue, base: ResponseDefinition) throws -> @Sendable (StubRequest) throws -> StubResponse {
            guard case .string(let prefix) = value else { throw StubError.notJSON(type: "a prefix that is not a string") }
            return { request in StubResponse(string: prefix + (request.url?.path ?? ""), statusCode: base.status) }
        }
    }

    static func request(_ path: String, method: String = "GET") -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.test\(path)")!)
        request.httpMethod = method
        return request
    }

    @Test(arguments: FetchAPI.allCases)
    func aScenarioMovesWhenItsStepAnswers(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let text = """
            [{"name": "empty cart", "scenario": {"name": "cart", "requiredState": "Started"},
              "request": {"path": "/cart"}, "response": {"body": {"text": "empty"}}},
             {"name": "add", "scenario": {"name": "cart", "newState": "has items"},
              "request": {"method": "POST", "path": "/cart"}, "response": {"status": 201}},
             {"name": "full cart", "scenario": {"name": "cart", "requiredState": "has items"},
              "request": {"path": "/cart"}, "response": {"body": {"text": "full"}}}]
            """
        try registry.stub(StubDeclaration.read(from: Data(text.utf8), source: "cart.json"))
        #expect(await fetch(Self.request("/cart"), from: registry, using: api).body == "empty")
        #expect(registry.scenarioState("cart") == "Started")
        #expect(await fetch(Self.request("/cart", method: "POST"), from: registry, using: api).statusCode == 201)
        #expect(registry.scenarioState("cart") == "has items")
        #expect(await fetch(Self.request("/cart"), from: registry, using: api).body == "full")
        registry.resetScenarioState("cart")
        #expect(await fetch(Self.request("/cart"), from: registry, using: api).body == "empty")
        registry.setScenarioState("cart", to: "gone")
        let none = await fetch(Self.request("/cart"), from: registry, using: api)
        let report = none.error.map { "\($0)" } ?? ""
        #expect(report.contains("expected scenario \"cart\" in state \"has items\", it is in state \"gone\""), "\(report)")
        #expect(registry.scenarioStates == ["cart": "gone"])
    }

    @Test func racingRequestsTakeAStepOnce() async throws {
        let registry = StubRegistry()
        try registry.stub(
            StubDeclaration(
                request: RequestPattern(path: .equalTo("/claim")), response: ResponseDefinition(body: .text("won")),
                scenario: .init(name: "prize", requiredState: "Started", newState: "claimed")))
        let bodies = await withTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { await fetch(Self.request("/claim"), from: registry).body } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies.filter { $0 == "won" }.count == 1)
    }

    @Test(arguments: FetchAPI.allCases)
    func faultsArriveAsTheURLErrorsAnAppSees(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let expected: [ResponseDefinition.NetworkFault: URLError.Code] = [
            .connectionReset: .networkConnectionLost, .emptyResponse: .networkConnectionLost,
            .malformedResponseChunk: .networkConnectionLost, .randomDataThenClose: .badServerResponse,
        ]
        for fault in ResponseDefinition.NetworkFault.allCases {
            try registry.stub(
                StubDeclaration(
                    request: RequestPattern(path: .equalTo("/\(fault.rawValue)")),
                    response: ResponseDefinition(body: .text("body"), failure: .fault(fault))))
            let result = await fetch(Self.request("/\(fault.rawValue)"), from: registry, using: api)
            #expect(result.urlError?.code == expected[fault], "\(fault)")
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func aRegisteredTransformerAnswersEachRequest(api: FetchAPI) async throws {
        ResponseTransformers.register(EchoPath())
        let registry = StubRegistry()
        let declaration = StubDeclaration(
            request: RequestPattern(path: .hasPrefix("/echo")),
            response: ResponseDefinition(status: 202, transformer: .init(name: EchoPath().name, value: "path=")))
        try registry.stub(declaration)
        let result = await fetch(Self.request("/echo/1"), from: registry, using: api)
        #expect(result.statusCode == 202)
        #expect(result.body == "path=/echo/1")
        #expect(try JSONDecoder().decode(StubDeclaration.self, from: JSONEncoder().encode(declaration)) == declaration)
    }

    @Test func aTransformerThatCannotPrepareItsValueFailsTheRegistration() {
        ResponseTransformers.register(EchoPath())
        let registry = StubRegistry()
        let text = #"{"response": {"transformer": {"name": "declarationTestsEchoPath", "value": 3}}}"#
        #expect(throws: StubError.self) { try registry.stub(StubDeclaration.read(from: Data(text.utf8), source: "t.json")) }
        let unknown = #"{"response": {"transformer": {"name": "nobodyRegisteredThis"}}}"#
        do {
            _ = try StubDeclaration.read(from: Data(unknown.utf8), source: "t.json")
            Issue.record("an unknown transformer was accepted")
        } catch {
            #expect("\(error)".contains("at $.response.transformer: no library registered the response transformer \"nobodyRegisteredThis\""))
        }
        #expect(registry.stubs.isEmpty)
    }

    @Test func aRelativeFileBodyIsFoundInTheFolderGivenWithOrWithoutATrailingSlash() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("declared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("bodies"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("from a file".utf8).write(to: folder.appendingPathComponent("bodies/user.json"))
        let declaration = StubDeclaration(
            request: RequestPattern(path: .equalTo("/user")), response: ResponseDefinition(body: .file("bodies/user.json")))
        for base in [URL(fileURLWithPath: folder.path), URL(fileURLWithPath: folder.path + "/")] {
            let registry = StubRegistry()
            try registry.stub(declaration, relativeTo: base)
            #expect(await fetch(Self.request("/user"), from: registry).body == "from a file", "\(base)")
        }
    }
}
