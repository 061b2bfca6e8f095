import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// Declarations checked against the shop document without a request.
@Suite struct DeclarationCheckTests {
    private static func declaration(
        _ name: String, _ method: String?, _ path: TextPattern, status: Int = 200, body: ResponseDefinition.Body? = nil,
        configure: (inout RequestPattern) -> Void = { _ in }
    ) -> StubDeclaration {
        var pattern = RequestPattern(method: method, path: path)
        configure(&pattern)
        return StubDeclaration(
            name: name, request: pattern, response: ResponseDefinition(status: status, body: body),
            source: StubDeclaration.Source(file: "Stubs/shop.json"))
    }

    @Test(arguments: Shop.both) func goodDeclarationsTieToTheirOperationsAndPass(contract: OpenAPIDocument) {
        let declarations = [
            Self.declaration("pet", "GET", .template("/v1/pets/:petId"), body: .json(["id": 7, "name": "Rex"])),
            Self.declaration("page", "GET", .equalTo("/v1/pets"), body: .json(["items": [], "total": 0])) {
                $0.query["limit"] = .equalTo("20")
            },
            Self.declaration("created", "POST", .equalTo("/v1/pets"), status: 201, body: .json(["id": 9, "name": "Bo"])) {
                $0.body = [.json(["name": "Bo"], ignoreExtraElements: true)]
                $0.headers["X-Request-ID"] = .equalTo("3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b")
            },
            Self.declaration("gone", "DELETE", .template("/v1/pets/*"), status: 204),
            Self.declaration("tree", "GET", .matches("^/v1/categ"), body: .json([])),
            Self.declaration(
                "order", nil, .hasPrefix("/v1/orders/"),
                body: .json([
                    "id": "3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b", "placedAt": "2026-11-24T10:00:00Z",
                    "items": [["sku": "ABC-123", "quantity": 1, "price": 1.5]],
                ])),
        ]
        let report = contract.check(declarations)
        #expect(report.isSuccess, "\(report)")
        #expect(report.checkedCount == 6)
        #expect(
            report.declarations.map { $0.operation?.operationId } == ["getPet", "listPets", "createPet", "deletePet", "listCategories", "getOrder"])
        #expect(report.declarations[0].description == "\"pet\" (Stubs/shop.json): getPet (GET /pets/{petId})")
    }

    @Test(arguments: Shop.both) func badDeclarationsNameTheirPartAndTheOperation(contract: OpenAPIDocument) {
        let declarations = [
            Self.declaration("no name", "GET", .equalTo("/v1/pets/7"), body: .json(["id": 7])),
            Self.declaration("delete", "DELETE", .template("/v1/pets/:id")),
            Self.declaration("text", "GET", .equalTo("/v1/categories"), body: .text("toys")),
            Self.declaration("too many", "GET", .equalTo("/v1/pets"), body: .json(["items": [], "total": 0])) {
                $0.query["limit"] = .equalTo("500")
                $0.query["tag"] = .absent
            },
            Self.declaration("no limit", "GET", .equalTo("/v1/pets"), body: .json(["items": [], "total": 0])) {
                $0.query["limit"] = .absent
            },
            Self.declaration("create", "POST", .equalTo("/v1/pets"), status: 201, body: .json(["id": 9, "name": "Bo"])) {
                $0.body = [.json(["name": ""])]
                $0.headers["x-request-id"] = .equalTo("not-a-uuid")
            },
            Self.declaration("pet 0", "GET", .equalTo("/v1/pets/0"), body: .json(["id": 1, "name": "Rex"])),
            Self.declaration("nowhere", "GET", .equalTo("/v1/nowhere")),
            Self.declaration("patch", "PATCH", .template("/v1/pets/:id")),
        ]
        let report = contract.check(declarations)
        let file = "(Stubs/shop.json)"
        #expect(
            report.findings.map(\.description) == [
                "\"no name\" \(file) at $.response.body: getPet (GET /pets/{petId}): response 200 body $: expected the required property \"name\", found an object without it (#/components/schemas/Pet/required)",
                "\"delete\" \(file) at $.response.status: deletePet (DELETE /pets/{petId}): status: expected a documented status (204, 404), found 200 (#/paths/~1pets~1{petId}/delete/responses)",
                "\"text\" \(file) at $.response.headers: listCategories (GET /categories): response 200 Content-Type: expected one of application/json, found none (#/paths/~1categories/get/responses/200/content)",
                "\"too many\" \(file) at $.request.query.limit: listPets (GET /pets): query parameter \"limit\": expected at most 100, found 500 (#/paths/~1pets/get/parameters/0/schema/maximum)",
                "\"no limit\" \(file) at $.request.query.limit: listPets (GET /pets): query parameter \"limit\": expected the required query parameter, found a pattern that requires it absent (#/paths/~1pets/get/parameters/0)",
                "\"create\" \(file) at $.request.headers.x-request-id: createPet (POST /pets): header parameter \"X-Request-ID\": expected a uuid string (8-4-4-4-12 hexadecimal digits), found \"not-a-uuid\" (#/paths/~1pets/post/parameters/0/schema/format)",
                "\"create\" \(file) at $.request.body[0]: createPet (POST /pets): request body $.name: expected at least 1 characters, found 0 (\"\") (#/components/schemas/NewPet/properties/name/minLength)",
                "\"pet 0\" \(file) at $.request.path: getPet (GET /pets/{petId}): path parameter \"petId\": expected at least 1, found 0 (#/paths/~1pets~1{petId}/parameters/0/schema/minimum)",
                "\"nowhere\" \(file) at $.request.path: GET /v1/nowhere: path: expected a path the document lists (/animals/{id}, /categories, /orders/{orderId}, /pets, /pets/{petId}), found /v1/nowhere (#/paths)",
                "\"patch\" \(file) at $.request.method: PATCH /v1/pets/:id: method: expected a method /pets/{petId} documents (GET, DELETE), found PATCH (#/paths/~1pets~1{petId})",
            ], "\(report)")
        #expect(report.findings.allSatisfy { $0.location?.fileID == "Stubs/shop.json" })
        #expect(report.findings.filter(\.violation.isAboutRequest).count == 7)
        #expect(report.declarations.map(\.findings.count) == [1, 1, 1, 1, 1, 2, 1, 1, 1])
    }

    @Test func aPathPatternThatFitsNoOneOperationIsReportedAsNotTied() {
        let declarations = [
            Self.declaration("v2", "GET", .matches("^/v2/pets/[0-9]+$"), body: .json(["id": 1])),
            Self.declaration("pets", "GET", .hasPrefix("/v1/pets"), body: .json([])),
            Self.declaration("any host", nil, .equalTo("/v1/pets/7")),
            StubDeclaration(name: "no path", request: RequestPattern(host: .equalTo("api.shop.test")), response: ResponseDefinition()),
            Self.declaration("offline", "GET", .equalTo("/v1/categories")),
        ]
        var offline = declarations
        offline[4].response.failure = .error(code: URLError.notConnectedToInternet.rawValue)
        let report = Shop.yaml.check(offline)
        #expect(report.isSuccess)
        #expect(report.checkedCount == 0)
        #expect(report.declarations.map(\.operation?.operationId) == [nil, nil, nil, nil, "listCategories"])
        #expect(
            report.notChecked == [
                "\"v2\" (Stubs/shop.json): tied to no operation: its path matches /^/v2/pets/[0-9]+$/ with GET fits no operation of the document",
                "\"pets\" (Stubs/shop.json): tied to no operation: its path starts with \"/v1/pets\" with GET fits 2 operations (listPets (GET /pets), getPet (GET /pets/{petId})); give a template or an exact path",
                "\"any host\" (Stubs/shop.json): tied to no operation: its path is \"/v1/pets/7\" with any method fits 2 operations (deletePet (DELETE /pets/{petId}), getPet (GET /pets/{petId})); give a method",
                "\"no path\": tied to no operation: its request pattern names no path (nor an exact URL) to select an operation by",
                "\"offline\" (Stubs/shop.json): it fails (URLError -1009) rather than answer",
            ], "\(report)")
    }

    @Test func aFileOfDeclarationsIsReadAndCheckedWithItsBodyFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("declarations-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("bodies"), withIntermediateDirectories: true)
        try Data(#"{"id": 7, "name": "Rex"}"#.utf8).write(to: folder.appendingPathComponent("bodies/pet.json"))
        try Data(#"{"id": "seven", "name": "Rex"}"#.utf8).write(to: folder.appendingPathComponent("bodies/bad.json"))
        let json = """
            {"stubs": [
              {"name": "pet", "request": {"method": "GET", "path": {"template": "/v1/pets/:id"}},
               "response": {"headers": {"Content-Type": "application/json"}, "body": {"file": "bodies/pet.json"}}},
              {"name": "bad pet", "request": {"method": "GET", "path": "/v1/pets/8"},
               "response": {"headers": {"Content-Type": "application/json"}, "body": {"file": "bodies/bad.json"}}},
              {"request": {"method": "GET", "path": "/v1/pets/9"}, "response": {"body": {"file": "bodies/missing.json"}}},
              {"name": "some pets", "request": {"method": "GET", "path": {"matches": "^/v1/p"}}, "response": {"status": 200}}
            ]}
            """
        let declarations = try StubDeclaration.read(from: Data(json.utf8), source: "stubs.json")
        let report = Shop.yaml.check(declarations, relativeTo: folder)
        let missing = folder.appendingPathComponent("bodies/missing.json").path
        #expect(
            report.description == """
                Contract check against \(Shop.yaml.source) failed (2 violations in 3 responses):
                - "bad pet" (stubs.json) at $.response.body: getPet (GET /pets/{petId}): response 200 body $.id: expected type integer, found string "seven" (#/components/schemas/Pet/properties/id/type)
                - declaration 2 (stubs.json) at $.response.body.file: getPet (GET /pets/{petId}): response 200 body: expected a file to read ("bodies/missing.json"), found none at \(missing)
                Not checked (1):
                - "some pets" (stubs.json): tied to no operation: its path matches /^/v1/p/ with GET fits 2 operations (listPets (GET /pets), getPet (GET /pets/{petId})); give a template or an exact path
                """)
        #expect(report.findings.first?.location?.fileID == "stubs.json")
    }

    @Test func aRegistrysDeclarationsAreCheckedThroughTheSameCheck() throws {
        let registry = StubRegistry()
        let line = #line + 1
        registry.stub(.get, "https://api.shop.test/v1/pets/7", name: "pet", json: ["id": 7])
        try registry.stub(Self.declaration("declared", "DELETE", .template("/v1/pets/:id"), status: 204))
        registry.stub(isPath("/v1/pets"), name: "closure") { _ in StubResponse(data: Data()) }
        let report = Shop.yaml.check(declarationsOf: registry)
        #expect(report.declarations.map(\.operation?.operationId) == ["getPet", "deletePet"])
        #expect(
            report.findings.map(\.description) == [
                "\"pet\" (URLStubsOpenAPITests/DeclarationCheckTests.swift:\(line)) at $.response.body: getPet (GET /pets/{petId}): response 200 body $: expected the required property \"name\", found an object without it (#/components/schemas/Pet/required)"
            ])
        #expect(report.findings.first?.location?.line == line)
    }
}
