import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

@Suite("Responses through a real URLSession")
struct ResponseTests {
    @Test(arguments: FetchAPI.allCases)
    func dataResponseArrivesExactly(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/hello")) { _ in
            StubResponse(data: Data("Hello".utf8), statusCode: 201, headers: ["Content-Type": "text/plain", "X-Custom": "yes"])
        }
        let result = await fetch("https://api.example.com/hello", from: registry, using: api)
        #expect(result.error == nil)
        #expect(result.body == "Hello")
        #expect(result.statusCode == 201)
        #expect(result.response?.value(forHTTPHeaderField: "content-type") == "text/plain")
        #expect(result.response?.value(forHTTPHeaderField: "X-Custom") == "yes")
        #expect(result.response?.expectedContentLength == 5)
        #expect(result.response?.url?.absoluteString == "https://api.example.com/hello")
    }

    @Test(arguments: FetchAPI.allCases)
    func jsonObjectResponseSetsContentType(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/users")) { _ in try StubResponse(json: ["users": [["id": 1]]]) }
        let result = await fetch("https://api.example.com/users", from: registry, using: api)
        #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let decoded = try JSONValue(data: #require(result.data))
        #expect(decoded == .object(["users": .array([.object(["id": .number(1)])])]))
    }

    @Test func jsonTakesJSONSerializationObjectsAndEncodableValuesAlike() throws {
        // Mixed values: `JSONSerialization` objects, written with sorted keys.
        let mixed = try StubResponse(json: ["name": "Ada", "id": 1, "manager": NSNull(), "tags": ["a"]])
        #expect(mixed.body.data == Data(#"{"id":1,"manager":null,"name":"Ada","tags":["a"]}"#.utf8))
        #expect(mixed.headers["Content-Type"] == "application/json")
        // An Encodable value goes through the encoder it is given.
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Account: Encodable { let displayName: String }
        let encoded = try StubResponse(json: Account(displayName: "Ada"), headers: ["Content-Type": "application/vnd.api+json"], encoder: encoder)
        #expect(encoded.body.data == Data(#"{"display_name":"Ada"}"#.utf8))
        #expect(encoded.headers["Content-Type"] == "application/vnd.api+json")
        #expect(try StubResponse(json: "fragment").body.data == Data(#""fragment""#.utf8))
        // Neither: an error naming the type, not a crash.
        #expect(throws: StubError.notJSON(type: "Date")) { try StubResponse(json: ["when": Date() as Any]) }
        #expect(StubError.notJSON(type: "Date").description == "a value of type Date cannot be represented as JSON")
    }

    @Test func dataIsOptionalSoAStatusAloneIsAResponseWithoutBody() {
        let notFound = StubResponse(statusCode: 404, headers: ["X-Reason": "gone"])
        #expect(notFound.statusCode == 404 && notFound.body.data == Data() && notFound.headers["X-Reason"] == "gone")
        #expect(StubResponse().statusCode == 200 && StubResponse().body.data == Data())
    }

    @Test func jsonValueKeepsLargeIntegersExactAndComparesNumbersByValue() throws {
        let text = #"{"id":9007199254740993,"ratio":0.5,"whole":2.0,"negative":-7,"huge":1e300}"#
        let value = try JSONValue(data: Data(text.utf8))
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members["id"] == .integer(9007199254740993))
        #expect(members["id"] != .number(9007199254740992), "a Double near it is not the same number")
        #expect(members["negative"] == .integer(-7))
        #expect(members["ratio"] == .number(0.5))
        #expect(members["whole"] == .integer(2), "2.0 equals 2")
        #expect(members["huge"] == .number(1e300))
        #expect(String(decoding: value.serialized(), as: UTF8.self).contains("9007199254740993"))
        #expect(try JSONValue(any: ["n": 1]) == JSONValue(any: ["n": 1.0]))
        #expect(try JSONValue(any: true) != JSONValue(any: 1))
    }

    struct User: Codable, Equatable { let id: Int; let name: String }

    @Test(arguments: FetchAPI.allCases)
    func encodableResponse(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/me")) { _ in try StubResponse(json: User(id: 7, name: "Ada"), statusCode: 200) }
        let result = await fetch("https://api.example.com/me", from: registry, using: api)
        let user = try JSONDecoder().decode(User.self, from: #require(result.data))
        #expect(user == User(id: 7, name: "Ada"))
        #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test(arguments: FetchAPI.allCases)
    func fileResponseStreamsWholeFileWithLength(api: FetchAPI) async throws {
        let bytes = patternData(300_001)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-file-\(UUID().uuidString).bin")
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let registry = StubRegistry()
        registry.stub(isExtension("bin")) { _ in try StubResponse(fixture: url, headers: ["Content-Type": "application/octet-stream"]) }
        let result = await fetch("https://cdn.example.com/blob.bin", from: registry, using: api)
        #expect(result.data == bytes)
        #expect(result.response?.expectedContentLength == 300_001)
    }

    @Test(arguments: FetchAPI.allCases)
    func missingFileFailsNamingThePath(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/missing")) { _ in StubResponse(bodyFileAt: URL(fileURLWithPath: "/nonexistent/users.json")) }
        let result = await fetch("https://api.example.com/missing", from: registry, using: api)
        // A file that could not be read is a FixtureError (the domain of files), not a StubError.
        let error = try #require(result.error as? FixtureError, "\(api): \(String(describing: result.error))")
        #expect(error.kind == .notFound && error.source == "users.json" && error.searchedPath == "/nonexistent")
        #expect("\(error)".contains("\"users.json\" in /nonexistent"))
    }

    @Test(arguments: FetchAPI.allCases)
    func bodyURLThatIsNotAFileURLFailsSayingSo(api: FetchAPI) async throws {
        let web = URL(string: "http://www.iana.org/domains/example/")!
        let registry = StubRegistry()
        registry.stub(isPath("/web")) { _ in StubResponse(bodyFileAt: web) }
        let result = await fetch("https://api.example.com/web", from: registry, using: api)
        let error = try #require(result.error as? FixtureError, "\(api): \(String(describing: result.error))")
        #expect(error.kind == .unreadable && error.source == web.absoluteString, "\(error)")
        #expect("\(error)".contains("http://www.iana.org/domains/example/ is not a file URL"), "\(error)")
    }

    @Test func unreadableFileFailsNamingThePath() async {
        let directory = FileManager.default.temporaryDirectory.path
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(bodyFileAt: URL(fileURLWithPath: directory)) }
        let result = await fetch("https://api.example.com/dir", from: registry)
        guard let error = result.error as? FixtureError, error.kind == .unreadable else {
            Issue.record("expected FixtureError.unreadable, got \(String(describing: result.error))")
            return
        }
        #expect(error.source == directory)
        #expect(error.description.contains("is a folder"))
    }

    @Test(arguments: FetchAPI.allCases)
    func errorResponseFailsTheTask(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isHost("offline.example.com")) { _ in StubResponse(error: URLError(.notConnectedToInternet)) }
        let result = await fetch("https://offline.example.com/", from: registry, using: api)
        #expect(result.urlError?.code == .notConnectedToInternet)
        #expect(result.data == nil)
    }

    struct Boom: Error, Equatable { let reason: String }

    @Test(arguments: FetchAPI.allCases)
    func throwingResponseClosureFailsWithThatError(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/throws")) { _ in throw Boom(reason: "fixture broken") }
        let result = await fetch("https://api.example.com/throws", from: registry, using: api)
        #expect(result.error as? Boom == Boom(reason: "fixture broken"))
    }

    @Test(arguments: [0, 99, 600, 1000])
    func statusCodeOutOfRangeFailsClearly(code: Int) async {
        let registry = StubRegistry()
        registry.stub(isPath("/status"), name: "bad status") { _ in StubResponse(data: Data(), statusCode: code) }
        let result = await fetch("https://api.example.com/status", from: registry)
        guard case .invalidStatusCode(let reported, let stub)? = result.stubError else {
            Issue.record("expected invalidStatusCode, got \(String(describing: result.error))")
            return
        }
        #expect(reported == code)
        #expect(stub.contains("bad status"))
    }

    @Test func headerValueWithNewlineFailsClearly() async {
        let registry = StubRegistry()
        registry.stub(isPath("/h")) { _ in StubResponse(data: Data(), headers: ["X-Bad": "a\r\nInjected: yes"]) }
        let result = await fetch("https://api.example.com/h", from: registry)
        guard case .invalidHeader(let name, _, _)? = result.stubError else {
            Issue.record("expected invalidHeader, got \(String(describing: result.error))")
            return
        }
        #expect(name == "X-Bad")
    }

    @Test(arguments: FetchAPI.allCases)
    func emptyBodyAndBinaryBody(api: FetchAPI) async {
        let registry = StubRegistry()
        let binary = Data([0, 255, 1, 254, 0, 0, 13, 10])
        registry.stub(isPath("/empty")) { _ in StubResponse(data: Data(), statusCode: 204) }
        registry.stub(isPath("/binary")) { _ in StubResponse(data: binary) }
        let empty = await fetch("https://api.example.com/empty", from: registry, using: api)
        #expect(empty.statusCode == 204)
        #expect(empty.data?.isEmpty ?? true)
        #expect(empty.error == nil)
        let bin = await fetch("https://api.example.com/binary", from: registry, using: api)
        #expect(bin.data == binary)
    }
}
