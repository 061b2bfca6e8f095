import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI
import URLStubsOpenAPITesting
import URLStubsScenarios

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubsRecording

/// Checks that make no request: a registry's constant responses, a scenario folder, a HAR file.
@Suite struct StaticCheckTests {
    @Test(arguments: Shop.both) func aRegistrysConstantResponsesAreCheckedAtOnce(contract: OpenAPIDocument) {
        let registry = StubRegistry()
        let line = #line + 1
        registry.stub(.get, "https://api.shop.test/v1/pets/7", name: "pet", json: ["id": 7])
        registry.stub(.get, "https://api.shop.test/v1/pets/8", name: "good pet", json: ["id": 8, "name": "Bo"])
        registry.stub(.delete, "https://api.shop.test/v1/pets/8", name: "delete", statusCode: 200)
        registry.stub(isPath("/v1/pets"), name: "closure") { _ in StubResponse(data: Data()) }
        registry.stub(isHost("api.shop.test"), name: "any path", responses: [StubResponse(data: Data())])
        let report = contract.check(registry)
        #expect(!report.isSuccess)
        #expect(report.checkedCount == 3)
        #expect(
            report.description == """
                Contract check against \(contract.source) failed (2 violations in 3 responses):
                - "pet" (URLStubsOpenAPITests/StaticCheckTests.swift:\(line)): getPet (GET /pets/{petId}): response 200 body $: expected the required property "name", found an object without it (#/components/schemas/Pet/required)
                - "delete" (URLStubsOpenAPITests/StaticCheckTests.swift:\(line + 2)): deletePet (DELETE /pets/{petId}): status: expected a documented status (204, 404), found 200 (#/paths/~1pets~1{petId}/delete/responses)
                Not checked (2):
                - "closure" (URLStubsOpenAPITests/StaticCheckTests.swift:\(line + 3)): its response is built by a closure (checked when served, with checkContract)
                - "any path" (URLStubsOpenAPITests/StaticCheckTests.swift:\(line + 4)): its matcher does not name one method and one exact path
                """)
        #expect(report.findings.first?.location?.line == line)
    }

    @Test func aScenarioFolderIsCheckedFileByFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ path: String, _ text: String) throws {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try write("v1/pets/_petId_/GET.json", #"{"id": 1, "name": "Rex", "tags": ["good", "good"]}"#)
        try write("v1/pets/GET.json", #"{"items": [], "total": 0}"#)
        try write("v1/categories/GET.json", #"[{"name": "toys", "children": [{"name": "balls"}]}]"#)
        let report = Shop.yaml.check(try Scenario.folder(folder, name: "shop"))
        #expect(report.checkedCount == 3)
        let name = folder.lastPathComponent
        #expect(
            report.findings.map(\.description).sorted() == [
                "\"\(name)/v1/categories/GET.json (GET /v1/categories)\": listCategories (GET /categories): response 200 body $[0].children[0]: expected the required property \"children\", found an object without it (#/components/schemas/Category/required)",
                "\"\(name)/v1/pets/_petId_/GET.json (GET /v1/pets/:petId)\": getPet (GET /pets/{petId}): response 200 body $.tags: expected unique items, found item 1 equal to item 0 (\"good\") (#/components/schemas/Pet/properties/tags/uniqueItems)",
            ], "\(report)")
    }

    @Test func aHARFileIsCheckedEntryByEntryRequestsIncluded() throws {
        let entries = [
            HAREntry(
                method: "GET", url: URL(string: "https://api.shop.test/v1/pets?limit=500")!, status: 200,
                responseHeaders: ["Content-Type": "application/json"], responseBody: Data(#"{"items": [], "total": 0}"#.utf8)),
            HAREntry(
                method: "POST", url: URL(string: "https://api.shop.test/v1/pets")!,
                requestHeaders: ["X-Request-ID": "3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b"],
                requestBody: Data(#"{"name": "Bo"}"#.utf8),
                requestMimeType: "application/json", status: 201, responseBody: Data(#"{"id": 9, "name": "Bo"}"#.utf8),
                responseMimeType: "application/json"),
            HAREntry(method: "GET", url: URL(string: "https://api.shop.test/v1/nowhere")!, status: 0, failure: "net::ERR_CONNECTION_REFUSED"),
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try HAR.write(entries).write(to: file)
        for contract in Shop.both {
            let report = try contract.check(harAt: file)
            #expect(report.checkedCount == 2)
            #expect(
                report.findings.map(\.description) == [
                    "\(file.lastPathComponent) entry 0: GET https://api.shop.test/v1/pets?…: listPets (GET /pets): query parameter \"limit\": expected at most 100, found 500 (#/paths/~1pets/get/parameters/0/schema/maximum)"
                ])
            #expect(
                report.notChecked == [
                    "\(file.lastPathComponent) entry 2: GET https://api.shop.test/v1/nowhere: recorded a failure (net::ERR_CONNECTION_REFUSED), not a response"
                ])
        }
    }
}
