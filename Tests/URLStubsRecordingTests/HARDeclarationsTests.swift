import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
@testable import TestSupport

/// A HAR archive read into declarations answers every request as `stubs(fromHAR:)` does, also
/// after a trip through JSON, and a declaration naming a bad recorded entry says where.
@Suite("HAR archives as declarations")
struct HARDeclarationsTests {
    /// Entries that exercise what replay decides: a query in another order, a JSON body, one
    /// request recorded twice with different headers, a poll recorded twice the same way, a
    /// recorded failure and a volatile query parameter.
    private var entries: [HAREntry] {
        get throws {
            var entries = try HAR.read(contentsOf: fixturesFolder.appendingPathComponent("checkout.har"))
            let poll = URL(string: "https://shop.test/api/poll?_=1")!
            entries.append(HAREntry(method: "GET", url: poll, status: 200, responseBody: Data("first".utf8)))
            entries.append(HAREntry(method: "GET", url: poll, status: 200, responseBody: Data("second".utf8)))
            entries.append(HAREntry(method: "GET", url: URL(string: "https://down.shop.test/")!, status: 0, failure: "net::ERR_CONNECTION_REFUSED"))
            entries.append(
                HAREntry(
                    method: "POST", url: URL(string: "https://shop.test/api/search")!, requestHeaders: ["Content-Type": "application/json"],
                    requestBody: Data(#"{"q": "tea", "sentAt": 1}"#.utf8), requestMimeType: "application/json", status: 200,
                    responseBody: Data("tea results".utf8)))
            return entries
        }
    }

    private var options: HARReplayOptions { HARReplayOptions(volatileFields: VolatileFields(queryParameters: ["_"], jsonPaths: ["$.sentAt"])) }

    private func answers(_ registry: StubRegistry) async -> [String] {
        var requests = [
            "https://shop.test/api/cart?items=2&currency=EUR", "https://shop.test/api/receipt/7", "https://shop.test/api/poll?_=9",
            "https://shop.test/api/poll?_=10", "https://shop.test/api/poll?_=11", "https://down.shop.test/", "https://shop.test/api/cart?items=3",
        ].map { URLRequest(url: URL(string: $0)!) }
        requests.append(request("https://shop.test/api/status", headers: ["Accept-Language": "fr"]))
        requests.append(request("https://shop.test/api/status", headers: ["Accept-Language": "en"]))
        requests.append(request("https://shop.test/api/checkout", method: "POST", body: Data(#"{"cart":"c1"}"#.utf8)))
        requests.append(
            request(
                "https://shop.test/api/search", method: "POST", body: Data(#"{"sentAt": 2, "q": "tea"}"#.utf8),
                headers: ["Content-Type": "application/json"]))
        var answers: [String] = []
        for request in requests {
            let result = await fetch(request, from: registry)
            // An unmatched report names the stubs by their source (the file, for declarations):
            // its first line is compared.
            let error = result.error.map { "\(($0 as? URLError)?.code.rawValue ?? 0) \($0.localizedDescription.prefix { $0 != "\n" })" } ?? "-"
            answers.append("\(request.url!) \(result.statusCode ?? 0) \(result.body) \(error)")
        }
        return answers
    }

    @Test func declarationsAnswerAsReplayDoesAlsoThroughJSON() async throws {
        let entries = try entries
        let replayed = StubRegistry()
        replayed.stubs(fromHAREntries: entries, named: "shop.har", options: options)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shop-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try HAR.write(entries).write(to: file)
        let declarations = try HAR.declarations(contentsOf: file, options: options)
        #expect(declarations.count == 7, "one per distinct request: \(declarations.map { $0.name ?? "" })")
        #expect(declarations.allSatisfy { $0.source?.file == file.path })
        let cart = try #require(declarations.first)
        #expect(cart.request.method == "GET" && cart.request.host == .equalTo("shop.test") && cart.request.path == .equalTo("/api/cart"))
        #expect(cart.response.transformer == nil && cart.response.body == .text(#"{"items":2,"total":9.5}"#), "one recording: data")
        let declared = StubRegistry()
        try declared.stub(declarations)
        let fromJSON = StubRegistry()
        try fromJSON.stub(try JSONDecoder().decode([StubDeclaration].self, from: JSONEncoder().encode(declarations)))
        let expected = await answers(replayed)
        #expect(expected.contains { $0.contains("second") } && expected.contains { $0.contains("français") }, "\(expected)")
        #expect(await answers(declared) == expected)
        #expect(await answers(fromJSON) == expected)
    }

    @Test func aHARFileReadsThroughTheRegisteredFormat() throws {
        HAR.registerFormat()
        let url = fixturesFolder.appendingPathComponent("checkout.har")
        #expect(try DeclarationFileFormats.declarations(inFileAt: url) == HAR.declarations(contentsOf: url))
    }

    @Test func aBadRecordedEntryIsNamedWithItsJSONPath() throws {
        HAR.registerFormat()
        let json = #"""
            {"name": "edited", "request": {"body": [{"kind": "harRequest", "value": {"archive": "shop.har", "entries": [{"request": {}}]}}]},
             "response": {"status": 200}}
            """#
        #expect {
            try StubDeclaration.read(from: Data(json.utf8), source: "Stubs/edited.json")
        } throws: { error in
            let text = "\(error)"
            return text.contains("Stubs/edited.json, at $.request.body[0]") && text.contains("$.log.entries[0]")
        }
        #expect {
            try HAR.declarations(contentsOf: fixturesFolder.appendingPathComponent("missing.har"))
        } throws: { error in
            (error as? FixtureError)?.kind == .notFound
        }
    }
}
