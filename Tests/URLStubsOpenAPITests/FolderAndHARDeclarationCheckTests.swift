import Foundation
import Testing
import URLStubs
import URLStubsOpenAPI
import URLStubsRecording
import URLStubsScenarios

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A scenario folder and a HAR file reach URLStubsOpenAPI as declarations: the check of
/// declarations finds what the checks of a scenario and of a HAR file find.
@Suite struct FolderAndHARDeclarationCheckTests {
    @Test func aScenarioFolderIsCheckedAsDeclarations() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("declared-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ path: String, _ text: String) throws {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try write("v1/pets/_petId_/GET.json", #"{"id": 1, "name": "Rex", "tags": ["good", "good"]}"#)
        try write("v1/pets/GET.json", #"{"items": [], "total": 0}"#)
        try write("v1/categories/GET.json", #"[{"name": "toys", "children": [{"name": "balls"}]}]"#)
        let report = Shop.yaml.check(try Scenario.declarations(inFolder: folder), relativeTo: folder)
        #expect(report.checkedCount == 3, "\(report)")
        let name = folder.lastPathComponent
        #expect(
            report.findings.map(\.description).sorted() == [
                "\"\(name)/v1/categories/GET.json (GET /v1/categories)\" (\(folder.path)/v1/categories/GET.json) at $.response.body: listCategories (GET /categories): response 200 body $[0].children[0]: expected the required property \"children\", found an object without it (#/components/schemas/Category/required)",
                "\"\(name)/v1/pets/_petId_/GET.json (GET /v1/pets/:petId)\" (\(folder.path)/v1/pets/_petId_/GET.json) at $.response.body: getPet (GET /pets/{petId}): response 200 body $.tags: expected unique items, found item 1 equal to item 0 (\"good\") (#/components/schemas/Pet/properties/tags/uniqueItems)",
            ], "\(report)")
        #expect(report.findings.allSatisfy { $0.declarationPath == "$.response.body" })
    }

    @Test func aHARFileIsCheckedAsDeclarations() throws {
        let entries = [
            HAREntry(
                method: "GET", url: URL(string: "https://api.shop.test/v1/pets?limit=500")!, status: 200,
                responseHeaders: ["Content-Type": "application/json"], responseBody: Data(#"{"items": [], "total": 0}"#.utf8)),
            HAREntry(
                method: "POST", url: URL(string: "https://api.shop.test/v1/pets")!, requestBody: Data(#"{"name": "Bo"}"#.utf8),
                requestMimeType: "application/json", status: 201, responseBody: Data(#"{"id": 9}"#.utf8), responseMimeType: "application/json"),
            HAREntry(method: "GET", url: URL(string: "https://api.shop.test/v1/nowhere")!, status: 0, failure: "net::ERR_CONNECTION_REFUSED"),
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("declared-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try HAR.write(entries).write(to: file)
        for contract in Shop.both {
            let report = contract.check(try HAR.declarations(contentsOf: file))
            #expect(report.checkedCount == 2, "\(report)")
            let found = report.findings.map(\.description)
            // The recorded query value is pinned as data, so the request is checked too.
            #expect(found.count == 3, "\(found)")
            #expect(
                found.contains {
                    $0.contains("at $.request.query.limit: listPets (GET /pets): query parameter \"limit\": expected at most 100, found 500")
                })
            #expect(
                found.contains {
                    $0.contains("at $.response.body: createPet (POST /pets): response 201 body $: expected the required property \"name\"")
                })
            #expect(found.contains { $0.contains("at $.request.path: GET /v1/nowhere: path: expected a path the document lists") })
        }
    }
}
