import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TestSupport
import URLStubs
@testable import URLStubsWireMock

/// A WireMock folder registered in process, answering through a real URLSession as
/// WireMock's standalone server answers the same requests.
@Suite("WireMock mappings as declarations")
struct DeclarationTests {
    /// A folder holding `files` (paths relative to it), removed by the caller.
    static func folder(_ files: [String: String]) throws -> URL {
        let root = try temporaryFolder()
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        return root
    }

    static func registry(_ files: [String: String], seed: UInt64? = nil) throws -> (StubRegistry, URL) {
        let root = try folder(files)
        let registry = StubRegistry()
        try registry.stubs(fromWireMock: root, seed: seed)
        return (registry, root)
    }

    @Test(arguments: FetchAPI.allCases)
    func plainMappingsAnswerThroughTheEngineVocabulary(api: FetchAPI) async throws {
        let (registry, root) = try Self.registry([
            "mappings/users.json": #"""
            {"request": {"method": "GET", "urlPath": "/users", "headers": {"Accept": {"contains": "json"}}},
             "response": {"status": 200, "jsonBody": [{"id": 1}], "headers": {"Content-Type": "application/json", "X-Two": ["a", "b"]}}}
            """#,
            "mappings/file.json": #"{"request": {"urlPath": "/file"}, "response": {"bodyFileName": "data/file.txt"}}"#,
            "__files/data/file.txt": "from a file",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let users = await fetch(request("https://api.test/users?page=2", headers: ["Accept": "application/json"]), from: registry, using: api)
        #expect(users.statusCode == 200)
        #expect(users.body == #"[{"id":1}]"#)
        #expect(users.response?.value(forHTTPHeaderField: "X-Two") == "a, b")
        let wrongAccept = await fetch(request("https://api.test/users", headers: ["Accept": "text/html"]), from: registry, using: api)
        #expect(wrongAccept.stubError != nil)
        let file = await fetch(request("https://api.test/file"), from: registry, using: api)
        #expect(file.body == "from a file")
        // What the vocabulary says directly is in the declaration, not in a kind.
        let declared = try #require(registry.declarations.first { $0.source?.file == "mappings/users.json" })
        #expect(declared.request.path == .equalTo("/users"))
        #expect(declared.request.headers["Accept"] == .contains("json"))
        #expect(declared.request.body.isEmpty)
    }

    @Test func matchesIsAWholeValueMatchAndNegativesRefuseAMissingValue() async throws {
        let (registry, root) = try Self.registry([
            "mappings/ids.json": #"""
            {"request": {"urlPathPattern": "/items/[0-9]+", "headers": {"X-Id": {"matches": "[0-9]+"}, "X-Tag": {"doesNotContain": "beta"}}},
             "response": {"status": 204}}
            """#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(await fetch(request("https://api.test/items/12", headers: ["X-Id": "42", "X-Tag": "stable"]), from: registry).statusCode == 204)
        // WireMock's Matcher.matches(): "42a" is no match of [0-9]+, nor "/items/12/x" of the path.
        #expect(await fetch(request("https://api.test/items/12", headers: ["X-Id": "42a", "X-Tag": "stable"]), from: registry).stubError != nil)
        #expect(await fetch(request("https://api.test/items/12/x", headers: ["X-Id": "42", "X-Tag": "stable"]), from: registry).stubError != nil)
        // WireMock 3: doesNotContain does not match a header that is not sent.
        #expect(await fetch(request("https://api.test/items/12", headers: ["X-Id": "42"]), from: registry).stubError != nil)
    }

    @Test func whatTheVocabularyCannotSayIsAWireMockKind() async throws {
        let (registry, root) = try Self.registry([
            "mappings/orders.json": #"""
            {"request": {"method": "POST", "urlPattern": "/orders\\?.*", "queryParameters": {"tag": {"hasExactly": [{"equalTo": "a"}, {"equalTo": "b"}]}},
                         "bodyPatterns": [{"equalToJson": {"sku": "A-1", "quantity": "${json-unit.any-number}"}, "ignoreExtraElements": true},
                                          {"matchesJsonPath": "$.items[?(@.price > 10)]"}]},
             "response": {"status": 201}}
            """#,
            "mappings/form.json": #"""
            {"request": {"method": "POST", "urlPath": "/login", "formParameters": {"user": {"equalTo": "ada"}},
                         "headers": {"If-Modified-Since": {"before": "now"}}},
             "response": {"status": 200, "body": "welcome"}}
            """#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let order = Data(#"{"sku": "A-1", "quantity": 3, "items": [{"price": 12}]}"#.utf8)
        let created = await fetch(request("https://api.test/orders?tag=b&tag=a", method: "POST", body: order), from: registry)
        #expect(created.statusCode == 201)
        let extraTag = await fetch(request("https://api.test/orders?tag=b&tag=a&tag=c", method: "POST", body: order), from: registry)
        #expect(extraTag.stubError != nil)
        let cheap = Data(#"{"sku": "A-1", "quantity": 3, "items": [{"price": 2}]}"#.utf8)
        #expect(await fetch(request("https://api.test/orders?tag=a&tag=b", method: "POST", body: cheap), from: registry).stubError != nil)
        let login = await fetch(
            request(
                "https://api.test/login", method: "POST", body: Data("user=ada&remember=on".utf8),
                headers: ["If-Modified-Since": "Tue, 01 Jan 2019 00:00:00 GMT", "Content-Type": "application/x-www-form-urlencoded"]),
            from: registry)
        #expect(login.body == "welcome")
        let kinds = registry.declarations.flatMap(\.request.body).compactMap { pattern -> String? in
            if case .kind(let name, _) = pattern { return name }
            return nil
        }
        // `wireMock.pathStart` carries a path pattern's literal start for the registry's index.
        #expect(
            Set(kinds) == [
                "wireMock.url", "wireMock.queryParameter", "wireMock.body", "wireMock.formParameter", "wireMock.header", "wireMock.pathStart",
            ])
    }

    @Test(arguments: FetchAPI.allCases)
    func templatesRenderPerRequestWithTheRequestsOwnOrigin(api: FetchAPI) async throws {
        let (registry, root) = try Self.registry([
            "mappings/greet.json": #"""
            {"request": {"urlPathTemplate": "/greet/{name}"},
             "response": {"status": 200, "body": "Hello {{request.path.name}} at {{request.baseUrl}} ({{request.query.lang}})",
                          "headers": {"X-Method": "{{request.method}}"}, "transformers": ["response-template"]}}
            """#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = await fetch(request("https://api.test:8443/greet/ada?lang=en"), from: registry, using: api)
        #expect(result.body == "Hello ada at https://api.test:8443 (en)")
        #expect(result.response?.value(forHTTPHeaderField: "X-Method") == "GET")
    }

    @Test func aPathPatternsLiteralStartIsAPrefilterThatNeverRefusesAMatch() {
        typealias Pattern = WireMockMapping.RequestPattern
        #expect(Pattern.literalPrefix(ofWholeMatch: "/v1/orders/[0-9]+") == "/v1/orders/")
        #expect(Pattern.literalPrefix(ofWholeMatch: "/v1/items?") == "/v1/item")
        #expect(Pattern.literalPrefix(ofWholeMatch: "/a|/b") == "")
        #expect(Pattern.literalPrefix(ofWholeMatch: "(?i)/users") == "")
        #expect(Pattern.literalPrefix(ofWholeMatch: "/caf%C3%A9/.*") == "")
        #expect(WireMockRequestView.pathAndQuery(of: StubRequest(URLRequest(url: URL(string: "https://a.test:8/x%20y?q=1#f")!))) == "/x%20y?q=1")
        #expect(WireMockRequestView.pathAndQuery(of: StubRequest(URLRequest(url: URL(string: "https://a.test?q=1")!))) == "/?q=1")
    }

    @Test func priorityThenTheMappingLoadedLastAnswers() async throws {
        let (registry, root) = try Self.registry([
            "mappings/a.json": #"{"request": {"urlPath": "/p"}, "response": {"body": "a"}}"#,
            "mappings/b.json": #"{"request": {"urlPath": "/p"}, "response": {"body": "b"}}"#,
            "mappings/c.json": #"{"priority": 1, "request": {"urlPath": "/q"}, "response": {"body": "c"}}"#,
            "mappings/d.json": #"{"request": {"urlPath": "/q"}, "response": {"body": "d"}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(await fetch(request("https://api.test/p"), from: registry).body == "b")
        #expect(await fetch(request("https://api.test/q"), from: registry).body == "c")
    }

    @Test func scenariosStartInStartedAndTheTestReadsSetsAndResetsThem() async throws {
        let (registry, root) = try Self.registry([
            "mappings/empty.json": #"""
            {"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "full",
             "request": {"urlPath": "/cart"}, "response": {"body": "empty"}}
            """#,
            "mappings/full.json": #"""
            {"scenarioName": "cart", "requiredScenarioState": "full", "request": {"urlPath": "/cart"}, "response": {"body": "one item"}}
            """#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(registry.scenarioState("cart") == "Started")
        #expect(await fetch(request("https://api.test/cart"), from: registry).body == "empty")
        #expect(registry.scenarioState("cart") == "full")
        #expect(await fetch(request("https://api.test/cart"), from: registry).body == "one item")
        registry.resetScenarioState("cart")
        #expect(await fetch(request("https://api.test/cart"), from: registry).body == "empty")
        registry.setScenarioState("cart", to: "full")
        #expect(await fetch(request("https://api.test/cart"), from: registry).body == "one item")
    }

    @Test(arguments: [
        ("CONNECTION_RESET_BY_PEER", URLError.Code.networkConnectionLost), ("EMPTY_RESPONSE", .networkConnectionLost),
        ("MALFORMED_RESPONSE_CHUNK", .networkConnectionLost), ("RANDOM_DATA_THEN_CLOSE", .badServerResponse),
    ])
    func faultsFailWithTheMatchingURLError(fault: String, code: URLError.Code) async throws {
        let (registry, root) = try Self.registry([
            "mappings/fault.json": #"{"request": {"urlPath": "/broken"}, "response": {"fault": "\#(fault)"}}"#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(await fetch(request("https://api.test/broken"), from: registry).urlError?.code == code)
    }

    @Test func delaysBecomeTheRequestTimeAndSeededDrawsRepeat() throws {
        let files = [
            "mappings/slow.json":
                #"{"request": {"urlPath": "/slow"}, "response": {"fixedDelayMilliseconds": 250, "chunkedDribbleDelay": {"numberOfChunks": 5, "totalDuration": 1000}}}"#,
            "mappings/random.json":
                #"{"request": {"urlPath": "/random"}, "response": {"delayDistribution": {"type": "uniform", "lower": 10, "upper": 500}}}"#,
        ]
        let (registry, root) = try Self.registry(files, seed: 7)
        defer { try? FileManager.default.removeItem(at: root) }
        let slow = try #require(registry.declarations.first { $0.source?.file == "mappings/slow.json" })
        #expect(slow.response.requestTime == 0.25)
        #expect(slow.response.responseTime == 1)
        let declarations = try WireMockFolder(contentsOf: root).declarations(seed: 7)
        let random = try #require(declarations.first { $0.source?.file == "mappings/random.json" })
        #expect(random.response.transformer?.name == "wireMock")
        let draws = DelayDraws(.uniform(lower: 10, upper: 500), seed: 7)
        let again = DelayDraws(.uniform(lower: 10, upper: 500), seed: 7)
        #expect((0..<5).map { _ in draws.next() } == (0..<5).map { _ in again.next() })
    }

    @Test func whatCannotBeServedNamesTheFileAndPath() throws {
        let root = try Self.folder([
            // proxyBaseUrl is served; cutting a prefix off the forwarded path is not yet.
            "mappings/proxy.json":
                #"{"request": {"urlPath": "/p"}, "response": {"proxyBaseUrl": "https://upstream.test", "proxyUrlPrefixToRemove": "/p"}}"#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(throws: FixtureError.self) { try StubRegistry().stubs(fromWireMock: root) }
        do {
            try StubRegistry().stubs(fromWireMock: root)
        } catch {
            #expect("\(error)".contains("mappings/proxy.json"))
            #expect("\(error)".contains("$.response.proxyUrlPrefixToRemove"))
        }
    }
}
