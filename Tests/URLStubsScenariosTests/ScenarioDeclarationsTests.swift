import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsGraphQL
import URLStubsRecording
import URLStubsScenarios
@testable import TestSupport

/// A scenario folder is read into declarations: registered with `registry.stub(_:relativeTo:)`,
/// written to JSON and read back, they answer as the activated folder does, and each names its
/// file.
@Suite("Scenario folders as declarations")
struct ScenarioDeclarationsTests {
    let happy = fixturesFolder.appendingPathComponent("Scenarios/happy")

    /// The answers of the happy folder's requests, as text to compare.
    private func answers(_ registry: StubRegistry) async -> [String] {
        var answers: [String] = []
        let gets = [
            "https://api.shop.test/api/products", "https://api.shop.test/api/products/42", "https://api.shop.test/api/cart",
            "https://api.shop.test/api/search?q=tea", "https://api.shop.test/api/search?q=rust", "https://other.test/api/products",
        ]
        var requests = gets.map { URLRequest(url: URL(string: $0)!) }
        requests.append(request("https://api.shop.test/api/cart", method: "POST", body: Data("{}".utf8)))
        requests.append(
            request(
                "https://api.shop.test/api/graphql", method: "POST",
                body: Data(#"{"query": "query GetProduct($id: ID!) { product(id: $id) { name } }", "variables": {"id": 2}}"#.utf8),
                headers: ["Content-Type": "application/json"]))
        for request in requests {
            let result = await fetch(request, from: registry)
            let headers = ["Content-Type", "X-Backend", "X-Cart"].map { result.response?.value(forHTTPHeaderField: $0) ?? "-" }
            answers.append("\(request.url!) \(result.statusCode ?? 0) \(headers) \(result.body) \(result.stubError == nil)")
        }
        return answers
    }

    @Test func aFolderLoadsIntoDeclarationsThatAnswerAsTheActivatedFolder() async throws {
        GraphQLPatternKinds.register()
        let declarations = try Scenario.declarations(inFolder: happy)
        let products = try #require(declarations.first { $0.name == "happy/api/products/GET.json (GET /api/products)" })
        #expect(products.request == RequestPattern(method: "GET", host: .equalTo("api.shop.test"), path: .equalTo("/api/products")))
        #expect(products.response.body == .fixture("api/products/GET.json"))
        #expect(products.source?.file == happy.appendingPathComponent("api/products/GET.json").path)
        let graphQL = try #require(declarations.first { $0.name?.contains("GetProduct[id=2]") == true })
        #expect(graphQL.request.body == [.kind("graphQLOperation", "GetProduct"), .kind("graphQLVariablesSpelled", ["id": "2"])])

        let activated = StubRegistry()
        activated.activate(try Scenario.folder(happy))
        let declared = StubRegistry()
        try declared.stub(declarations, relativeTo: happy)
        let fromJSON = StubRegistry()
        let json = try JSONEncoder().encode(declarations)
        try fromJSON.stub(try JSONDecoder().decode([StubDeclaration].self, from: json), relativeTo: happy)
        let expected = await answers(activated)
        #expect(expected.contains { $0.contains("Teapot") && $0.contains("graphql") }, "\(expected)")
        #expect(await answers(declared) == expected)
        #expect(await answers(fromJSON) == expected)
    }

    @Test func theJournalNamesTheFileThatAnswered() async throws {
        let registry = StubRegistry()
        registry.activate(try Scenario.folder(happy))
        _ = await fetch("https://api.shop.test/api/products/42", from: registry)
        let entry = try #require(registry.journal.last)
        #expect(entry.stub?.declaration?.source?.file == happy.appendingPathComponent("api/products/_id_/GET.json").path)
        #expect("\(try #require(entry.stub))".contains("happy/api/products/_id_/GET.json (GET /api/products/:id)"))
    }

    @Test func aFolderReadsTheFilesOfStubsOfEveryRegisteredFormat() async throws {
        HAR.registerFormat()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("recorded"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixturesFolder.appendingPathComponent("checkout.har"), to: folder.appendingPathComponent("recorded/checkout.har"))
        try Data(#"{"stubs": [{"name": "hello", "request": {"path": "/hello"}, "response": {"body": {"file": "hello.txt"}}}]}"#.utf8)
            .write(to: folder.appendingPathComponent("recorded/more.stubs.json"))
        try Data("hi".utf8).write(to: folder.appendingPathComponent("recorded/hello.txt"))
        try Data("pong".utf8).write(to: folder.appendingPathComponent("GET.txt"))
        let declarations = try Scenario.declarations(inFolder: folder)
        #expect(declarations.contains { $0.response.body == .file("recorded/hello.txt") }, "file bodies are relative to the folder")
        let registry = StubRegistry()
        registry.activate(try Scenario.folder(folder))
        #expect(await fetch("https://shop.test/api/status", from: registry).body == "english")
        #expect(await fetch("https://shop.test/hello", from: registry).body == "hi")
        #expect(await fetch("https://any.test/", from: registry).body == "pong")
    }

    @Test func badFilesAreNamedWithTheirJSONPath() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("x".utf8).write(to: folder.appendingPathComponent("notes.xyz"))
        try Data(#"{"request": {"paht": "/a"}, "response": {}}"#.utf8).write(to: folder.appendingPathComponent("typo.stubs.json"))
        try Data(#"[{"response": {}}, {"request": {"body": [{"kind": "tenant", "value": "acme"}]}, "response": {}}]"#.utf8)
            .write(to: folder.appendingPathComponent("kind.stubs.json"))
        try Data(#"{"request": "#.utf8).write(to: folder.appendingPathComponent("broken.stubs.json"))
        let error = #expect(throws: FixtureError.self) { try Scenario.declarations(inFolder: folder) }
        let text = try #require(error).found
        #expect(text.contains(#"notes.xyz: the file name must start with an HTTP method"#), "\(text)")
        #expect(text.contains(#"no declaration file format reads "notes.xyz" (registered: "#), "\(text)")
        #expect(text.contains(#"typo.stubs.json, at $.request.paht: unknown member "paht""#), "\(text)")
        #expect(text.contains(#"kind.stubs.json, at $[1].request.body[0]: no library registered the pattern kind "tenant""#), "\(text)")
        #expect(text.contains(#"broken.stubs.json, at $: not JSON"#), "\(text)")
    }

    @Test func aHARFileBeforeItsFormatIsRegisteredSaysWhatToCall() throws {
        // Another test may have registered the format: the message is checked on its own.
        let problem = DeclarationFileFormats.unknownFormatProblem(fileNamed: "session.har")
        #expect(problem.contains("to read .har files, import URLStubsRecording and call HAR.registerFormat()"), "\(problem)")
    }

    @Test func aFileOfAnUnknownFormatIsNamedWithWhatReadsTheKnownOnes() throws {
        let url = fixturesFolder.appendingPathComponent("recorded.pcap")
        #expect {
            try Scenario.har(url)
        } throws: { error in
            guard case .invalidDeclaration(let source, let path, let problem)? = error as? StubError else { return false }
            return source == url.path && path == "$" && problem.contains(#"no declaration file format reads "recorded.pcap" (registered: "#)
                && problem.contains(".stubs.json")
        }
    }

    @Test func aGraphQLFileIsDataAndAnUnregisteredKindIsNamedWhenRegistered() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("graphql"), withIntermediateDirectories: true)
        try Data(#"{"data": {}}"#.utf8).write(to: folder.appendingPathComponent("graphql/GetUser.json"))
        let declaration = try #require(try Scenario.declarations(inFolder: folder).first)
        #expect(declaration.request.body == [.kind("graphQLOperation", "GetUser")], "read as data, whatever is registered")
        var unknown = declaration
        unknown.request.body = [.kind("graphQLOperationNobodyRegistered", "GetUser")]
        #expect {
            try StubRegistry().stub([unknown])
        } throws: { error in
            "\(error)".contains(#"no library registered the pattern kind "graphQLOperationNobodyRegistered""#)
                && "\(error)".contains("call its kinds' register()")
                && "\(error)".contains(folder.appendingPathComponent("graphql/GetUser.json").path)
        }
    }
}
