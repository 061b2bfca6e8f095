import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct OperationStubTests {
    @Test(arguments: Shop.both) func aStubByOperationAnswersWithTheDocumentsExampleAndPassesItsOwnCheck(contract: OpenAPIDocument) async throws {
        let registry = StubRegistry()
        registry.checkContract(contract)
        registry.stub(try contract.matcher(for: "getPet"), name: "pet", responses: [try contract.response(for: "getPet", status: 200)])
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: URL(string: "https://api.shop.test/v1/pets/7")!)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try JSONValue(data: data) == ["id": 7, "name": "Rex", "status": "available", "tags": ["good", "very good"]])
        #expect(registry.verify().isSuccess, "\(registry.verify())")
    }

    @Test(arguments: Shop.both) func aResponseWithoutAnExampleIsGeneratedFromTheSchemaTheSameWayEveryTime(contract: OpenAPIDocument) throws {
        let order = try contract.response(for: "getOrder", status: 200)
        let again = try contract.response(for: "getOrder", status: 200)
        #expect(order.body.data == again.body.data)
        let value = try JSONValue(data: #require(order.body.data))
        #expect(
            value == [
                "id": "3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b", "placedAt": "2024-05-01T12:00:00Z", "email": "ada@example.com",
                "receipt": "https://example.com/",
                "items": [["sku": "AAA-000", "quantity": 1, "price": 1.0, "discount": 1.0]],
            ])
        // The generator makes a string for the pattern: the value passes its own check.
        #expect(try contract.violations(of: value, againstSchemaAt: "#/components/schemas/Order") == [])
        for (operation, status) in [("listCategories", 200), ("getAnimal", 200), ("listPets", 200), ("createPet", 201), ("getPet", 404)] {
            let response = try contract.response(for: operation, status: status)
            let made = try JSONValue(data: #require(response.body.data))
            let schema = contract.operations.first { $0.operationId == operation }!.response(for: status)!.content[0].schema!
            #expect(SchemaValidator.violations(of: made, against: schema, in: contract.schemas).violations == [], "\(operation): \(made)")
        }
        #expect(try contract.response(for: "deletePet", status: 204).body.data == Data())
    }

    @Test func theMatcherSelectsByMethodAndTemplateAndExplainsARefusal() throws {
        let matcher = try Shop.yaml.matcher(for: "getPet")
        func stubRequest(_ method: String, _ url: String) -> StubRequest { StubRequest(request(method, url)) }
        #expect(matcher.matches(stubRequest("GET", "https://any.host/v1/pets/3")))
        #expect(matcher.matches(stubRequest("GET", "https://any.host/pets/3")))
        #expect(
            matcher.mismatches(for: stubRequest("DELETE", "https://any.host/pets/3")) == [
                "expected getPet (GET /pets/{petId}), got DELETE /pets/3, which is deletePet (DELETE /pets/{petId})"
            ])
        #expect(
            matcher.mismatches(for: stubRequest("GET", "https://any.host/pets")) == [
                "expected getPet (GET /pets/{petId}), got GET /pets, which is listPets (GET /pets)"
            ])
        #expect(matcher.description == "operation getPet (GET /pets/{petId})")
    }

    @Test func unknownOperationsAndStatusesAreErrorsThatSayWhatExists() {
        #expect(throws: OpenAPIError.self) { try Shop.yaml.matcher(for: "getPets") }
        do {
            _ = try Shop.yaml.matcher(for: "getPets")
        } catch {
            #expect("\(error)".hasSuffix("#/paths: no operation has the operationId \"getPets\"; did you mean getPet?"))
        }
        do {
            _ = try Shop.yaml.response(for: "getPet", status: 500)
        } catch {
            #expect(
                "\(error)".hasSuffix(
                    "#/paths/~1pets~1{petId}/get/responses: getPet (GET /pets/{petId}) documents no response 500 (it documents 200, 404)"))
        }
    }
}

@Suite struct GeneratedExampleTests {
    /// Found by the openapi-schema fuzz target: a schema reaching itself through anyOf made
    /// the generator recurse until the stack ran out.
    @Test func aSchemaThatReachesItselfThroughAnyOfStillGetsAValue() throws {
        let contract = try document(
            """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /s: {get: {operationId: s, responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/S"}}}}}}}
            components:
              schemas:
                S: {anyOf: [{$ref: "#/components/schemas/S"}, {type: number, exclusiveMaximum: true, maximum: 2}]}
                T: {type: object, required: [t], properties: {t: {$ref: "#/components/schemas/T"}, n: {type: integer, minimum: 1e300}}}
            """)
        _ = try contract.response(for: "s", status: 200)
        let index = try #require(contract.schemaIndex(at: "#/components/schemas/T"))
        var generator = ExampleGenerator(set: contract.schemas)
        // T requires a T inside itself: no finite value fits, and the generator says so.
        #expect {
            try generator.value(for: index)
        } throws: { error in
            (error as? ExampleGenerator.Failure)?.message.contains("requires a value of itself") == true
        }
    }

    @Test func anExampleJSONCannotWriteIsAnErrorNotAWrongBody() throws {
        let contract = try document(
            """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /s: {get: {operationId: s, responses: {"200": {description: ok, content: {application/json: {example: {n: .inf}}}}}}}
            """)
        #expect(throws: OpenAPIError.self) { try contract.response(for: "s", status: 200) }
    }
}
