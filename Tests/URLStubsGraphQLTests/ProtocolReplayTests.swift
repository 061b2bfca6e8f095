import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsGraphQL
import URLStubsMultipart
import URLStubsRecording
@testable import TestSupport

/// HAR replay and scenario folders for GraphQL, multipart uploads and volatile fields: a
/// recording of one `/graphql` URL replays operation by operation, and fields that change on
/// every run do not stop a recording from matching.
@Suite("Protocol-aware replay")
struct ProtocolReplayTests {
    private static let endpoint = URL(string: "https://api.test/graphql")!

    /// These tests replay through the engine's `stubs(fromHAREntries:)`, which reads GraphQL and
    /// multipart requests by meaning once their strategies are registered (recording, scenarios
    /// and the test helpers register them; here nothing else does).
    init() { GraphQLStrategy.register() }

    private static func graphQLEntry(_ body: [String: Any], answer: String, headers: HeaderFields = [:]) -> HAREntry {
        HAREntry(
            method: "POST", url: endpoint, requestHeaders: HeaderFields([(name: "Content-Type", value: "application/json")] + Array(headers)),
            requestBody: try! JSONSerialization.data(withJSONObject: body), requestMimeType: "application/json",
            status: 200, responseBody: Data(answer.utf8), responseMimeType: "application/json")
    }

    private func post(_ body: Any) -> URLRequest {
        request(
            Self.endpoint.absoluteString, method: "POST", body: try! JSONSerialization.data(withJSONObject: body),
            headers: ["Content-Type": "application/json"])
    }

    @Test(arguments: FetchAPI.allCases)
    func graphQLEntriesReplayByOperationAndVariables(api: FetchAPI) async throws {
        let entries = [
            Self.graphQLEntry(
                [
                    "operationName": "GetUser", "query": "query GetUser($id: ID!) { user(id: $id) { name } }",
                    "variables": ["id": 1, "clientTime": 100],
                ], answer: "ada"),
            Self.graphQLEntry(
                [
                    "operationName": "GetUser", "query": "query GetUser($id: ID!) { user(id: $id) { name } }",
                    "variables": ["id": 2, "clientTime": 200],
                ], answer: "bob"),
            Self.graphQLEntry(["query": "query GetUsers { users { name } }"], answer: "everyone"),
        ]
        let registry = StubRegistry()
        let stubs = registry.stubs(
            fromHAREntries: entries, named: "graphql.har",
            options: HARReplayOptions(volatileFields: VolatileFields(jsonPaths: ["$.variables.clientTime"])))
        #expect(stubs.count == 3)
        #expect(stubs[0].name?.contains("(GraphQL GetUser)") == true)
        // Another formatting of the document, another clientTime, the key order reversed.
        let bob = await fetch(
            post(["variables": ["clientTime": 999, "id": 2], "query": "query GetUser($id: ID!) {\n  user(id: $id) { name }\n}"]),
            from: registry, using: api)
        #expect(bob.body == "bob")
        #expect(
            await fetch(
                post(["query": "query GetUser($id: ID!) { user(id: $id) { name } }", "variables": ["id": 1]]),
                from: registry, using: api
            ).body == "ada")
        #expect(
            await fetch(
                post(["operationName": "GetUsers", "query": "query GetUsers { users { name } }"]),
                from: registry, using: api
            ).body == "everyone")
        let three = await fetch(
            post(["query": "query GetUser($id: ID!) { user(id: $id) { name } }", "variables": ["id": 3]]),
            from: registry, using: api)
        guard case .unmatchedRequest(let report)? = three.stubError else {
            Issue.record("id 3 was never recorded: \(String(describing: three.error))"); return
        }
        #expect(report.contains("$.variables.id: expected 2, got 3") || report.contains("$.variables.id: expected 1, got 3"))
        #expect(report.contains(#"expected operation "GetUsers", got "GetUser""#))
    }

    @Test func persistedQueryRecordingsReplayTheHashMissThenTheAnswer() async throws {
        let hash = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
        var components = URLComponents(url: Self.endpoint, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "extensions", value: #"{"persistedQuery":{"sha256Hash":"\#(hash)","version":1}}"#),
            URLQueryItem(name: "operationName", value: "Feed"),
            URLQueryItem(name: "variables", value: #"{"first":2}"#),
        ]
        let miss = HAREntry(
            method: "GET", url: components.url!, status: 200,
            responseBody: Data(#"{"errors":[{"message":"PersistedQueryNotFound"}]}"#.utf8), responseMimeType: "application/json")
        let answer = Self.graphQLEntry(
            [
                "operationName": "Feed", "query": "query Feed($first: Int) { feed(first: $first) { id } }",
                "variables": ["first": 2], "extensions": ["persistedQuery": ["version": 1, "sha256Hash": hash]],
            ],
            answer: #"{"data":{"feed":[]}}"#)
        let postedMiss = Self.graphQLEntry(
            [
                "operationName": "Feed", "variables": ["first": 2],
                "extensions": ["persistedQuery": ["version": 1, "sha256Hash": hash]],
            ],
            answer: #"{"errors":[{"message":"PersistedQueryNotFound"}]}"#)
        let registry = StubRegistry()
        let stubs = registry.stubs(fromHAREntries: [miss, postedMiss, answer])
        #expect(stubs.count == 2, "the POSTed hash and the POSTed document are one operation")
        // The live client sends the variables with other spacing: still the same operation.
        components.queryItems![2] = URLQueryItem(name: "variables", value: #"{ "first": 2 }"#)
        #expect(await fetch(URLRequest(url: components.url!), from: registry).body.contains("PersistedQueryNotFound"))
        let hashOnly = post([
            "operationName": "Feed", "variables": ["first": 2], "extensions": ["persistedQuery": ["version": 1, "sha256Hash": hash]],
        ])
        #expect(await fetch(hashOnly, from: registry).body.contains("PersistedQueryNotFound"), "the entry sent without its document answers")
        #expect(
            await fetch(
                post([
                    "operationName": "Feed", "query": "query Feed($first: Int) { feed(first: $first) { id } }",
                    "variables": ["first": 2], "extensions": ["persistedQuery": ["version": 1, "sha256Hash": hash]],
                ]),
                from: registry
            ).body == #"{"data":{"feed":[]}}"#)
    }

    @Test func volatileQueryParametersHeadersAndPathsAreIgnored() async throws {
        let entries = [
            HAREntry(
                method: "GET", url: URL(string: "https://api.test/feed?page=1&_=1732300000")!,
                requestHeaders: ["X-Request-ID": "r-1", "Accept-Language": "en"],
                status: 200, responseBody: Data("english".utf8)),
            HAREntry(
                method: "GET", url: URL(string: "https://api.test/feed?page=1&_=1732300001")!,
                requestHeaders: ["X-Request-ID": "r-2", "Accept-Language": "fr"],
                status: 200, responseBody: Data("français".utf8)),
            HAREntry(
                method: "POST", url: URL(string: "https://api.test/events")!,
                requestBody: Data(#"{"name":"open","sentAt":"2024-11-22T10:00:00Z","items":[{"id":"u1","v":1}]}"#.utf8),
                requestMimeType: "application/json", status: 202, responseBody: Data("accepted".utf8)),
        ]
        var options = HARReplayOptions()
        options.volatileFields = VolatileFields(queryParameters: ["_"], headers: ["X-Request-ID"], jsonPaths: ["$.sentAt", "$.items[*].id"])
        let registry = StubRegistry()
        let stubs = registry.stubs(fromHAREntries: entries, options: options)
        #expect(stubs.count == 2, "the two feed entries differ only in volatile fields: one request")
        let french = await fetch(
            request("https://api.test/feed?_=99&page=1", headers: ["X-Request-ID": "r-2", "Accept-Language": "fr"]),
            from: registry)
        #expect(french.body == "français", "a shared volatile header does not decide; Accept-Language does")
        let event = await fetch(
            request(
                "https://api.test/events", method: "POST",
                body: Data(#"{"items":[{"v":1,"id":"zz"}],"name":"open","sentAt":"now"}"#.utf8)), from: registry)
        #expect(event.statusCode == 202)
        let changed = await fetch(
            request("https://api.test/events", method: "POST", body: Data(#"{"name":"close","sentAt":"now","items":[]}"#.utf8)),
            from: registry)
        guard case .unmatchedRequest(let report)? = changed.stubError else {
            Issue.record("a changed body must not match: \(String(describing: changed.error))"); return
        }
        #expect(report.contains(#"$.name: expected "open", got "close""#))

        var broken = HARReplayOptions()
        broken.volatileFields = VolatileFields(jsonPaths: ["$.items["])
        let strict = StubRegistry()
        strict.stubs(fromHAREntries: entries, options: broken)
        guard case .invalidMatcher(_, let problems)? = await fetch("https://api.test/feed?page=1&_=1", from: strict).stubError else {
            Issue.record("an invalid volatile path must be reported"); return
        }
        #expect(problems.first?.contains("invalid JSON path") == true)
    }

    @Test func multipartRecordingsReplayWhateverTheBoundary() async throws {
        var recorded = MultipartForm()
        recorded.add("title", "Holiday")
        recorded.add("photo", filename: "a.jpg", contentType: "image/jpeg", patternData(500))
        let entry = HAREntry(
            method: "POST", url: URL(string: "https://api.test/upload")!,
            requestHeaders: ["Content-Type": recorded.contentType], requestBody: recorded.data,
            requestMimeType: recorded.contentType, status: 201, responseBody: Data("stored".utf8))
        let registry = StubRegistry()
        registry.stubs(fromHAREntries: [entry])
        var live = recorded
        live.boundary = "another-\(UUID().uuidString)"
        let upload = request("https://api.test/upload", method: "POST", headers: ["Content-Type": live.contentType])
        #expect(await send(upload, body: live.data, via: .uploadData, to: registry).body == "stored")
        live.parts[0].body = Data("Work".utf8)
        let changed = await send(upload, body: live.data, via: .httpBody, to: registry)
        guard case .unmatchedRequest(let report)? = changed.stubError else {
            Issue.record("a changed part must not match: \(String(describing: changed.error))"); return
        }
        #expect(report.contains(#"multipart part 1 differs from the recorded one: expected "title" with "Holiday", got "title" with "Work""#))
    }

}
