import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TestSupport
import URLStubs
@testable import URLStubsWireMock

/// WireMock's admin API as a handler, driven directly with the requests curl and Python's
/// `wiremock` client send; the answers are WireMock 3's shapes and statuses.
@Suite("WireMock admin API")
struct AdminTests {
    static func call(
        _ admin: WireMockAdmin, _ method: String, _ path: String, _ body: String = "", query: String? = nil, headers: [String: String] = [:]
    ) -> (status: Int, json: JSONValue?) {
        let reply = admin.handle(method: method, path: path, query: query, headers: headers, body: Data(body.utf8))
        return (reply.status, reply.body.isEmpty ? nil : try? JSONValue(data: reply.body))
    }

    static func member(_ json: JSONValue?, _ path: String...) -> JSONValue? {
        var value = json
        for key in path {
            switch value {
            case .object(let members)?: value = members[key]
            case .array(let items)?: value = Int(key).flatMap { $0 < items.count ? items[$0] : nil }
            default: return nil
            }
        }
        return value
    }

    @Test func mappingsAreCreatedListedReadReplacedAndDeleted() async throws {
        let registry = StubRegistry()
        let admin = WireMockAdmin(registry: registry)
        let created = Self.call(admin, "POST", "/__admin/mappings", #"{"request": {"method": "GET", "urlPath": "/a"}, "response": {"body": "one"}}"#)
        #expect(created.status == 201)
        guard case .string(let id)? = Self.member(created.json, "id") else {
            Issue.record("no id in \(String(describing: created.json))")
            return
        }
        #expect(await fetch(request("https://api.test/a"), from: registry).body == "one")
        let list = Self.call(admin, "GET", "/__admin/mappings")
        #expect(Self.member(list.json, "meta", "total") == .integer(1))
        #expect(Self.member(list.json, "mappings", "0", "id") == .string(id))
        #expect(Self.member(Self.call(admin, "GET", "/__admin/mappings/\(id)").json, "response", "body") == .string("one"))
        let replaced = Self.call(admin, "PUT", "/__admin/mappings/\(id)", #"{"request": {"urlPath": "/a"}, "response": {"body": "two"}}"#)
        #expect(replaced.status == 200)
        #expect(await fetch(request("https://api.test/a"), from: registry).body == "two")
        #expect(Self.call(admin, "DELETE", "/__admin/mappings/\(id)").status == 200)
        #expect(Self.call(admin, "GET", "/__admin/mappings/\(id)").status == 404)
        #expect(await fetch(request("https://api.test/a"), from: registry).stubError != nil)
    }

    @Test func badBodiesAndMissingTokensGetWireMocksStatuses() {
        let admin = WireMockAdmin(registry: StubRegistry(), token: "s3cret", bodyLimit: 64)
        #expect(Self.call(admin, "GET", "/__admin/mappings").status == 401)
        let auth = ["Authorization": "Token s3cret"]
        #expect(Self.call(admin, "GET", "/__admin/mappings", headers: auth).status == 200)
        // WireMock 3 answers a body that is not JSON with 422 and {"errors": [{"code": 10, "title": "Error parsing JSON"}]}.
        let notJSON = Self.call(admin, "POST", "/__admin/mappings", "not json", headers: auth)
        #expect(notJSON.status == 422)
        #expect(Self.member(notJSON.json, "errors", "0", "title") == .string("Error parsing JSON"))
        let unknownMember = Self.call(admin, "POST", "/__admin/mappings", #"{"request": {"urlPth": "/a"}}"#, headers: auth)
        #expect(unknownMember.status == 422)
        #expect(Self.call(admin, "POST", "/__admin/mappings", String(repeating: " ", count: 65), headers: auth).status == 413)
        #expect(Self.call(admin, "GET", "/__admin/nothing", headers: auth).status == 404)
    }

    @Test func theJournalIsListedCountedFoundAndCleared() async throws {
        let registry = StubRegistry()
        let admin = WireMockAdmin(registry: registry)
        _ = Self.call(admin, "POST", "/__admin/mappings", #"{"request": {"urlPath": "/a"}, "response": {"status": 204}}"#)
        _ = await fetch(request("https://api.test/a?x=1"), from: registry)
        _ = await fetch(request("https://api.test/unknown"), from: registry)
        let all = Self.call(admin, "GET", "/__admin/requests")
        #expect(Self.member(all.json, "meta", "total") == .integer(2))
        #expect(Self.member(all.json, "requests", "0", "request", "url") == .string("/unknown"))
        #expect(Self.member(all.json, "requests", "1", "wasMatched") == .bool(true))
        #expect(Self.member(Self.call(admin, "GET", "/__admin/requests", query: "limit=1").json, "requests", "1") == nil)
        #expect(Self.member(Self.call(admin, "POST", "/__admin/requests/count", #"{"urlPath": "/a"}"#).json, "count") == .integer(1))
        let found = Self.call(admin, "POST", "/__admin/requests/find", #"{"method": "GET", "urlPathPattern": "/.*"}"#)
        #expect(Self.member(found.json, "requests", "1", "method") == .string("GET"))
        #expect(Self.member(Self.call(admin, "GET", "/__admin/requests/unmatched").json, "requests", "0", "url") == .string("/unknown"))
        let misses = Self.call(admin, "POST", "/__admin/near-misses/request", #"{"url": "/b", "method": "GET"}"#)
        #expect(Self.member(misses.json, "nearMisses", "0", "stubMapping", "request", "urlPath") == .string("/a"))
        #expect(Self.call(admin, "DELETE", "/__admin/requests").status == 200)
        #expect(Self.member(Self.call(admin, "GET", "/__admin/requests").json, "meta", "total") == .integer(0))
    }

    @Test func scenariosAreListedSetAndReset() async throws {
        let registry = StubRegistry()
        let admin = WireMockAdmin(registry: registry)
        _ = Self.call(
            admin, "POST", "/__admin/mappings",
            #"{"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "full", "request": {"urlPath": "/c"}, "response": {"body": "empty"}}"#
        )
        _ = Self.call(
            admin, "POST", "/__admin/mappings",
            #"{"scenarioName": "cart", "requiredScenarioState": "full", "request": {"urlPath": "/c"}, "response": {"body": "full"}}"#)
        let listed = Self.call(admin, "GET", "/__admin/scenarios")
        #expect(Self.member(listed.json, "scenarios", "0", "name") == .string("cart"))
        #expect(Self.member(listed.json, "scenarios", "0", "possibleStates") == .array(["Started", "full"]))
        #expect(Self.call(admin, "PUT", "/__admin/scenarios/cart/state", #"{"state": "full"}"#).status == 200)
        #expect(await fetch(request("https://api.test/c"), from: registry).body == "full")
        #expect(Self.call(admin, "PUT", "/__admin/scenarios/nope/state", #"{"state": "x"}"#).status == 404)
        #expect(Self.call(admin, "POST", "/__admin/scenarios/reset").status == 200)
        #expect(await fetch(request("https://api.test/c"), from: registry).body == "empty")
        #expect(registry.scenarioState("cart") == "full")
    }

    @Test func resetBringsBackTheFolderAndMetadataFindsAndRemoves() async throws {
        let (registry, root) = try DeclarationTests.registry([
            "mappings/a.json": #"{"request": {"urlPath": "/from-disk"}, "response": {"body": "disk"}, "metadata": {"team": "web"}}"#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let admin = WireMockAdmin(registry: registry)
        _ = Self.call(
            admin, "POST", "/__admin/mappings", #"{"request": {"urlPath": "/new"}, "response": {"body": "new"}, "metadata": {"team": "ios"}}"#)
        let found = Self.call(
            admin, "POST", "/__admin/mappings/find-by-metadata", #"{"matchesJsonPath": {"expression": "$.team", "equalTo": "ios"}}"#)
        #expect(Self.member(found.json, "meta", "total") == .integer(1))
        #expect(Self.call(admin, "POST", "/__admin/mappings/remove-by-metadata", #"{"matchesJsonPath": "$.team"}"#).status == 200)
        #expect(Self.member(Self.call(admin, "GET", "/__admin/mappings").json, "meta", "total") == .integer(0))
        #expect(Self.call(admin, "POST", "/__admin/reset").status == 200)
        #expect(await fetch(request("https://api.test/from-disk"), from: registry).body == "disk")
        let imported = Self.call(
            admin, "POST", "/__admin/mappings/import",
            #"{"mappings": [{"request": {"urlPath": "/i"}, "response": {"body": "i"}}], "importOptions": {"duplicatePolicy": "IGNORE"}}"#)
        #expect(imported.status == 200)
        #expect(await fetch(request("https://api.test/i"), from: registry).body == "i")
    }

    @Test func theGlobalFixedDelayAppliesToEveryMapping() {
        let registry = StubRegistry()
        let admin = WireMockAdmin(registry: registry)
        _ = Self.call(admin, "POST", "/__admin/mappings", #"{"request": {"urlPath": "/a"}, "response": {"fixedDelayMilliseconds": 100}}"#)
        #expect(Self.member(Self.call(admin, "GET", "/__admin/settings").json, "settings", "fixedDelay") == .null)
        #expect(Self.call(admin, "POST", "/__admin/settings", #"{"fixedDelay": 250}"#).status == 200)
        #expect(Self.member(Self.call(admin, "GET", "/__admin/settings").json, "settings", "fixedDelay") == .integer(250))
        #expect(registry.declarations.map(\.response.requestTime) == [0.35])
        // The mapping still reads as written.
        #expect(
            Self.member(Self.call(admin, "GET", "/__admin/mappings").json, "mappings", "0", "response", "fixedDelayMilliseconds") == .integer(100))
    }

    // WireMock replaces a mapping posted again with the same id; a stub made in code without a
    // UUID id gets one when listed, and that id reads, replaces and deletes it.
    @Test func idsFindMappingsPostedAgainAndStubsMadeInCode() async throws {
        let registry = StubRegistry()
        try registry.stub(StubDeclaration(id: "users", request: .init(method: "GET", path: .equalTo("/users")), response: .init(body: .text("code"))))
        let admin = WireMockAdmin(registry: registry)
        let id = "8c5db8b0-2db4-4ad7-a2b6-7e5e3e3c2f6a"
        for body in ["one", "two"] {
            let created = Self.call(
                admin, "POST", "/__admin/mappings", #"{"id": "\#(id)", "request": {"urlPath": "/a"}, "response": {"body": "\#(body)"}}"#)
            #expect(created.status == 201)
        }
        #expect(Self.member(Self.call(admin, "GET", "/__admin/mappings").json, "meta", "total") == .integer(2))
        #expect(await fetch(request("https://api.test/a"), from: registry).body == "two")
        #expect(Self.member(Self.call(admin, "GET", "/__admin/mappings/\(id.uppercased())").json, "response", "body") == .string("two"))
        let listed = Self.call(admin, "GET", "/__admin/mappings").json
        guard case .string(let assigned)? = Self.member(listed, "mappings", "1", "id") else {
            Issue.record("no id listed for the stub made in code: \(String(describing: listed))")
            return
        }
        #expect(assigned != id)
        #expect(Self.member(Self.call(admin, "GET", "/__admin/mappings/\(assigned)").json, "response", "body") == .string("code"))
        #expect(Self.call(admin, "DELETE", "/__admin/mappings/\(assigned)").status == 200)
        #expect(await fetch(request("https://api.test/users"), from: registry).stubError != nil)
    }
}
