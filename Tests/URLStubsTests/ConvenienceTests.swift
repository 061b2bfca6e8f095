import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// The spellings people migrating from OHHTTPStubs and Mocker reach for first.
@Suite("Conveniences and migration spellings")
struct ConvenienceTests {
    @Test func statusCodeOnlyResponseHasNoBody() async {
        let registry = StubRegistry()
        registry.stub(isPath("/users/999")) { _ in StubResponse(statusCode: 404) }
        registry.stub(isPath("/moved")) { _ in StubResponse(statusCode: 204, headers: ["X-Reason": "none"]) }
        let missing = await fetch("https://api.test/users/999", from: registry)
        #expect(missing.statusCode == 404)
        #expect(missing.data == Data())
        #expect(missing.response?.value(forHTTPHeaderField: "Content-Length") == "0")
        let empty = await fetch("https://api.test/moved", from: registry)
        #expect(empty.statusCode == 204)
        #expect(empty.response?.value(forHTTPHeaderField: "X-Reason") == "none")
    }

    @Test func stringResponseIsUTF8Text() async {
        let registry = StubRegistry()
        registry.stub(isPath("/greeting")) { _ in StubResponse(string: "héllo") }
        registry.stub(isPath("/html")) { _ in StubResponse(string: "<p>hi</p>", statusCode: 201, headers: ["content-type": "text/html"]) }
        let greeting = await fetch("https://api.test/greeting", from: registry)
        #expect(greeting.data == Data("héllo".utf8))
        #expect(greeting.response?.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        let html = await fetch("https://api.test/html", from: registry)
        #expect(html.statusCode == 201)
        #expect(html.response?.value(forHTTPHeaderField: "Content-Type") == "text/html", "a given Content-Type wins")
    }

    @Test(arguments: FetchAPI.allCases)
    func oneLineStubsKeyedByMethodAndURL(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let users = registry.stub(.get, "https://api.test/users?page=1&sort=name", json: ["users": [["id": 1, "name": "Ada"]]])
        registry.stub(.post, "https://api.test/users", statusCode: 201, json: ["id": 2])
        registry.stub(.delete, "https://api.test/users/1", statusCode: 204)
        registry.stub("PROPFIND", "https://dav.test/files", data: Data("<multistatus/>".utf8))

        let list = await fetch("https://api.test/users?sort=name&page=1", from: registry, using: api)
        #expect(
            try JSONValue(data: #require(list.data)) == JSONValue.object(["users": .array([.object(["id": .integer(1), "name": .string("Ada")])])]))
        #expect(list.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(users.name == "GET https://api.test/users?page=1&sort=name")

        let created = await fetch(request("https://api.test/users", method: "POST", body: Data("{}".utf8)), from: registry, using: api)
        #expect(created.statusCode == 201)
        #expect(created.body == #"{"id":2}"#)
        #expect(await fetch(request("https://api.test/users/1", method: "DELETE"), from: registry, using: api).statusCode == 204)
        #expect(await fetch(request("https://dav.test/files", method: "PROPFIND"), from: registry, using: api).body == "<multistatus/>")

        let wrongMethod = await fetch(request("https://api.test/users/1", method: "GET"), from: registry, using: api)
        guard case .unmatchedRequest(let report)? = wrongMethod.stubError else {
            Issue.record("expected an unmatched request, got \(String(describing: wrongMethod.error))")
            return
        }
        #expect(report.contains(#""DELETE https://api.test/users/1""#), "the stub is named after its method and URL")
        #expect(report.contains("expected method DELETE, got GET"))
    }

    @Test(arguments: FetchAPI.allCases)
    func oneLineJSONTakesAnEncodableValueAsStubResponseJSONDoes(api: FetchAPI) async throws {
        struct Point: Codable, Equatable { var x: Int, y: Int }
        let registry = StubRegistry()
        registry.stub(.get, "https://api.test/point", json: Point(x: 1, y: 2))
        registry.stub(.get, "https://api.test/points", json: [Point(x: 3, y: 4)])
        let point = await fetch("https://api.test/point", from: registry, using: api)
        #expect(point.statusCode == 200 && point.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(Point.self, from: #require(point.data)) == Point(x: 1, y: 2))
        let points = await fetch("https://api.test/points", from: registry, using: api)
        #expect(try JSONDecoder().decode([Point].self, from: #require(points.data)) == [Point(x: 3, y: 4)])
        let encoded = try #require(try StubResponse(json: Point(x: 1, y: 2)).body.data)
        #expect(try JSONValue(data: #require(point.data)) == JSONValue(data: encoded), "the same JSON as StubResponse(json:)")
    }

    @Test func oneLineJSONThatIsNotJSONFailsTheRequestWithTheReason() async {
        let registry = StubRegistry()
        // A dictionary of JSON values and a Date is neither JSONSerialization values nor
        // Encodable. (A [String: Date] alone is Encodable, and JSONEncoder encodes it.)
        registry.stub(.get, "https://api.test/date", json: ["when": Date(), "count": 1] as [String: Any])
        let result = await fetch("https://api.test/date", from: registry)
        #expect(result.error != nil)
        #expect(String(describing: result.error).contains("Date"))
        struct Opaque {}
        registry.stub(.get, "https://api.test/opaque", json: Opaque())
        let opaque = await fetch("https://api.test/opaque", from: registry)
        #expect(String(describing: opaque.error).contains("a value of type Opaque cannot be represented as JSON"))
    }
}
