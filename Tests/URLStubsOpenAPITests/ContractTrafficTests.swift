import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI
import URLStubsScenarios

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubsRecording

/// What a registry bound to the shop document reports for traffic through a real session,
/// with the YAML and the JSON spelling of the document alike.
@Suite struct ContractTrafficTests {
    /// The problems `verify()` reports after `body` ran against a registry bound to `contract`.
    private func problems(
        _ contract: OpenAPIDocument, _ setUp: (StubRegistry) -> Void, _ requests: [URLRequest]
    ) async -> [VerificationProblem] {
        let registry = StubRegistry()
        registry.checkContract(contract)
        setUp(registry)
        for request in requests { _ = await send(request, through: registry) }
        return registry.verify().problems
    }

    @Test(arguments: Shop.both) func aConformingStubPasses(contract: OpenAPIDocument) async throws {
        let problems = await problems(
            contract,
            { registry in
                registry.stub(.get, "https://api.shop.test/v1/pets/7", json: ["id": 7, "name": "Rex", "tags": ["good"], "birthday": NSNull()])
                registry.stub(.get, "https://api.shop.test/v1/pets?limit=10", json: ["items": [["id": 1, "name": "Ada"]], "total": 1])
            },
            [request("GET", "https://api.shop.test/v1/pets/7"), request("GET", "https://api.shop.test/v1/pets?limit=10")])
        #expect(problems.map(\.summary) == [])
    }

    @Test(arguments: Shop.both) func aStubOmittingARequiredFieldFails(contract: OpenAPIDocument) async throws {
        let line = #line + 3
        let problems = await problems(
            contract,
            { $0.stub(.get, "https://api.shop.test/v1/pets/7", name: "pet", json: ["id": 7]) },
            [request("GET", "https://api.shop.test/v1/pets/7")])
        #expect(
            problems.map(\.summary) == [
                "\"pet\" (URLStubsOpenAPITests/ContractTrafficTests.swift:\(line)) broke the OpenAPI contract: getPet (GET /pets/{petId}): response 200 body $: expected the required property \"name\", found an object without it (#/components/schemas/Pet/required)"
            ])
        #expect(problems.first?.location?.line == line)
        #expect(problems.first?.details == "request: GET https://api.shop.test/v1/pets/7\ndocument: \(contract.source)")
    }

    @Test(arguments: Shop.both) func aWrongTypeDeepInAnArrayFails(contract: OpenAPIDocument) async throws {
        let order: [String: Any] = [
            "id": "3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b", "placedAt": "2024-05-01T12:00:00Z",
            "items": [
                ["sku": "ABC-123", "quantity": 1, "price": 9.99], ["sku": "ABC-124", "quantity": 2, "price": 1.5],
                ["sku": "ABC-125", "quantity": 1, "price": 3], ["sku": "ABC-126", "quantity": 1, "price": "12.00"],
            ],
        ]
        let problems = await problems(
            contract,
            { $0.stub(.get, "https://api.shop.test/v1/orders/3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b", name: "order", json: order) },
            [request("GET", "https://api.shop.test/v1/orders/3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b")])
        #expect(problems.count == 1)
        #expect(
            problems.first?.summary.hasSuffix(
                "broke the OpenAPI contract: getOrder (GET /orders/{orderId}): response 200 body $.items[3].price: expected type number, found string \"12.00\" (#/components/schemas/Order/properties/items/items/properties/price/type)"
            ) == true, "\(problems)")
    }

    @Test(arguments: Shop.both) func anUndocumentedStatusFails(contract: OpenAPIDocument) async throws {
        let problems = await problems(
            contract,
            { $0.stub(.get, "https://api.shop.test/v1/pets/7", name: "teapot", statusCode: 418, json: ["id": 7]) },
            [request("GET", "https://api.shop.test/v1/pets/7")])
        #expect(
            problems.map(\.summary).map { $0.components(separatedBy: " broke ").last ?? "" } == [
                "the OpenAPI contract: getPet (GET /pets/{petId}): status: expected a documented status (200, 404), found 418 (#/paths/~1pets~1{petId}/get/responses)"
            ])
    }

    @Test func aStatusOfAnOperationDocumentingNoResponsesSaysItDocumentsNone() async throws {
        let contract = try document(
            "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /ping:\n    get: {operationId: ping}\n")
        let problems = await problems(
            contract, { $0.stub(.get, "https://api.test/ping", name: "ping", statusCode: 200) }, [request("GET", "https://api.test/ping")])
        #expect(
            problems.map(\.summary).map { $0.components(separatedBy: " broke ").last ?? "" } == [
                "the OpenAPI contract: ping (GET /ping): status: expected a documented status (the operation documents none), found 200 (#/paths/~1ping/get)"
            ])
    }

    @Test(arguments: Shop.both) func aWrongContentTypeFails(contract: OpenAPIDocument) async throws {
        let problems = await problems(
            contract,
            { $0.stub(.get, "https://api.shop.test/v1/pets/7", name: "html", headers: ["Content-Type": "text/html"], data: Data("<p>Rex</p>".utf8)) },
            [request("GET", "https://api.shop.test/v1/pets/7")])
        #expect(
            problems.map(\.summary).map { $0.components(separatedBy: " broke ").last ?? "" } == [
                "the OpenAPI contract: getPet (GET /pets/{petId}): response 200 Content-Type: expected one of application/json, found text/html (#/paths/~1pets~1{petId}/get/responses/200/content)"
            ])
    }

    @Test(arguments: Shop.both) func anAppRequestMissingARequiredQueryParameterFails(contract: OpenAPIDocument) async throws {
        let line = #line + 3
        let problems = await problems(
            contract,
            { $0.stub(isPath("/v1/pets"), name: "pets") { _ in try StubResponse(json: ["items": [], "total": 0]) } },
            [request("GET", "https://api.shop.test/v1/pets?tag=a")])
        #expect(
            problems.map(\.summary) == [
                "the app's request GET https://api.shop.test/v1/pets?… (answered by \"pets\" (URLStubsOpenAPITests/ContractTrafficTests.swift:\(line))) broke the OpenAPI contract: listPets (GET /pets): query parameter \"limit\": expected the required query parameter, found none (#/paths/~1pets/get/parameters/0)"
            ])
        #expect(problems.first?.location?.line == line)
    }

    @Test(arguments: Shop.both) func requestParametersHeadersAndBodiesAreChecked(contract: OpenAPIDocument) async throws {
        let problems = await problems(
            contract,
            { registry in
                registry.stub(isPath("/v1/pets/0")) { _ in StubResponse(data: Data(), statusCode: 204) }
                registry.stub(isPath("/v1/pets") && isMethod(.post), name: "create") { _ in
                    try StubResponse(json: ["id": 8, "name": "Bo"], statusCode: 201)
                }
                registry.stub(isPath("/v1/pets/7") && isMethod(.put)) { _ in StubResponse(data: Data()) }
            },
            [
                request("DELETE", "https://api.shop.test/v1/pets/0"),
                request("POST", "https://api.shop.test/v1/pets", headers: ["X-Request-ID": "nope"], json: #"{"status":"lost"}"#),
                request("PUT", "https://api.shop.test/v1/pets/7"),
            ])
        let violations = problems.map(\.summary).map { $0.components(separatedBy: "broke the OpenAPI contract: ").last ?? "" }
        #expect(
            violations == [
                "deletePet (DELETE /pets/{petId}): path parameter \"petId\": expected at least 1, found 0 (#/paths/~1pets~1{petId}/parameters/0/schema/minimum)",
                "createPet (POST /pets): header parameter \"X-Request-ID\": expected a uuid string (8-4-4-4-12 hexadecimal digits), found \"nope\" (#/paths/~1pets/post/parameters/0/schema/format)",
                "createPet (POST /pets): request body $: expected the required property \"name\", found an object without it (#/components/schemas/NewPet/required)",
                "createPet (POST /pets): request body $.status: expected one of \"available\", \"pending\", \"sold\", found \"lost\" (#/components/schemas/NewPet/properties/status/enum)",
                "PUT /v1/pets/7: method: expected a method /pets/{petId} documents (GET, DELETE), found PUT (#/paths/~1pets~1{petId})",
            ], "\(problems)")
    }

    @Test func identicalProblemsAreReportedOnceWithACount() async throws {
        let problems = await problems(
            Shop.yaml, { $0.stub(.get, "https://api.shop.test/v1/pets/7", name: "pet", json: ["id": 7]) },
            Array(repeating: request("GET", "https://api.shop.test/v1/pets/7"), count: 3))
        #expect(problems.count == 1)
        #expect(problems.first?.summary.hasSuffix("(#/components/schemas/Pet/required) (3 times)") == true)
    }

    @Test func aFileFixtureAndAScenarioAreCheckedWhenServed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("v1/pets/_petId_"), withIntermediateDirectories: true)
        try Data(#"{"id": "seven", "name": "Rex"}"#.utf8).write(to: folder.appendingPathComponent("v1/pets/_petId_/GET.json"))
        let fixture = folder.appendingPathComponent("v1/pets/_petId_/GET.json")
        let problems = await problems(
            Shop.yaml,
            { registry in
                registry.stub(isPath("/v1/pets/8"), name: "file") { _ in
                    try StubResponse(fixture: fixture, headers: ["Content-Type": "application/json"])
                }
                registry.activate(try! Scenario.folder(folder, name: "happy"))
            },
            [request("GET", "https://api.shop.test/v1/pets/8"), request("GET", "https://api.shop.test/v1/pets/9")])
        let violations = problems.map(\.summary).map { $0.components(separatedBy: "broke the OpenAPI contract: ").last ?? "" }
        #expect(
            violations
                == Array(
                    repeating:
                        "getPet (GET /pets/{petId}): response 200 body $.id: expected type integer, found string \"seven\" (#/components/schemas/Pet/properties/id/type)",
                    count: 2), "\(problems)")
    }

    @Test func aReplayedHARIsCheckedWhenServed() async throws {
        let entry = HAREntry(
            method: "GET", url: URL(string: "https://api.shop.test/v1/pets/7")!, status: 200,
            responseHeaders: ["Content-Type": "application/json"], responseBody: Data(#"{"id": 7}"#.utf8))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try HAR.write([entry]).write(to: file)
        let problems = await problems(
            Shop.yaml, { registry in _ = try! registry.stubs(fromHAR: file) }, [request("GET", "https://api.shop.test/v1/pets/7")])
        #expect(problems.count == 1)
        #expect(
            problems.first?.summary.contains("getPet (GET /pets/{petId}): response 200 body $: expected the required property \"name\"") == true,
            "\(problems)")
    }

    @Test func verifyReportsTheProblemsInItsDescription() async throws {
        let registry = StubRegistry()
        registry.checkContract(Shop.yaml)
        registry.stub(.get, "https://api.shop.test/v1/pets/7", name: "pet", json: ["id": 7, "name": "Rex", "extra": true])
        _ = await send(request("GET", "https://api.shop.test/v1/pets/7"), through: registry)
        let report = registry.verify()
        #expect(!report.isSuccess)
        #expect(
            report.description.contains(
                "$.extra: expected no property \"extra\" (additionalProperties is false; properties: \"birthday\", \"id\", \"name\", \"status\", \"tags\"), found true (#/components/schemas/Pet/additionalProperties)"
            ))
    }

    @Test func eachHopOfARedirectIsChecked() async throws {
        let problems = await problems(
            Shop.yaml,
            { registry in
                registry.stub(.get, "https://api.shop.test/v1/pets/7", name: "moved", statusCode: 302, headers: ["Location": "/v1/pets/8"])
                registry.stub(.get, "https://api.shop.test/v1/pets/8", name: "pet", json: ["id": 8, "name": "Bo"])
            },
            [request("GET", "https://api.shop.test/v1/pets/7")])
        #expect(
            problems.map(\.summary).map { $0.components(separatedBy: "broke the OpenAPI contract: ").last ?? "" } == [
                "getPet (GET /pets/{petId}): status: expected a documented status (200, 404), found 302 (#/paths/~1pets~1{petId}/get/responses)"
            ])
    }

    @Test func aCompletionHandlerConsumerIsCheckedAlike() async throws {
        let registry = StubRegistry()
        registry.checkContract(Shop.json)
        registry.stub(.get, "https://api.shop.test/v1/pets/7", name: "pet", json: ["id": 7, "name": ""])
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let status: Int = await withCheckedContinuation { continuation in
            session.dataTask(with: URL(string: "https://api.shop.test/v1/pets/7")!) { _, response, _ in
                continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
            }.resume()
        }
        #expect(status == 200)
        #expect(
            registry.verify().problems.map(\.summary).map { $0.components(separatedBy: "broke the OpenAPI contract: ").last ?? "" } == [
                "getPet (GET /pets/{petId}): response 200 body $.name: expected at least 1 characters, found 0 (\"\") (#/components/schemas/Pet/properties/name/minLength)"
            ])
    }
}
