import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

@Suite struct OpenAPIDocumentTests {
    @Test func bothSpellingsOfTheShopDocumentGiveTheSameOperations() {
        for contract in Shop.both {
            #expect(
                contract.operations.map(\.description) == [
                    "getAnimal (GET /animals/{id})", "listCategories (GET /categories)", "getOrder (GET /orders/{orderId})",
                    "listPets (GET /pets)", "createPet (POST /pets)", "getPet (GET /pets/{petId})", "deletePet (DELETE /pets/{petId})",
                ])
            #expect(contract.version == "3.0.3")
        }
    }

    @Test func aPathSelectsTheMostSpecificTemplateWithOrWithoutTheServersPath() throws {
        let contract = try document(
            """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            servers: [{url: "https://{host}/api/{v}", variables: {host: {default: x.test}, v: {default: v2}}}]
            paths:
              /files/{name}.json: {get: {operationId: jsonFile, responses: {'200': {description: ok}}}}
              /files/{name}: {get: {operationId: anyFile, responses: {'200': {description: ok}}}}
              /files/latest: {get: {operationId: latest, responses: {'200': {description: ok}}}}
            """)
        func selected(_ path: String) -> String {
            switch contract.select(method: "GET", path: path) {
            case .operation(let operation, let parameters): return "\(operation.operationId!) \(parameters)"
            case .methodNotDocumented: return "method"
            case .pathNotDocumented: return "none"
            }
        }
        #expect(selected("/api/v2/files/latest") == "latest [:]")
        #expect(selected("/files/a%20b") == "anyFile [\"name\": \"a b\"]")
        #expect(selected("/files/report.json") == "jsonFile [\"name\": \"report\"]")
        #expect(selected("/files") == "none")
    }

    struct Broken: Sendable, CustomTestStringConvertible {
        let yaml: String
        let error: String
        var testDescription: String { error }
    }

    static let head = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n"

    static let broken: [Broken] = [
        Broken(yaml: "swagger: '2.0'\n", error: "inline.yaml: #/swagger: Swagger 2.0 documents are not supported; convert the document to OpenAPI 3"),
        Broken(yaml: "openapi: 2.5\n", error: "inline.yaml: #/openapi: expected the \"openapi\" version string (3.0.x or 3.1.x), found 2.5"),
        Broken(yaml: "openapi: '4.0.0'\n", error: "inline.yaml: #/openapi: OpenAPI 4.0.0 is not supported; 3.0.x and 3.1.x are"),
        Broken(
            yaml: head + "components: {schemas: {A: {$ref: 'other.yaml#/B'}}}\n",
            error:
                "inline.yaml: #/components/schemas/A: the $ref \"other.yaml#/B\" points outside the document; external references are not followed (bundle the document into one file)"
        ),
        Broken(
            yaml: head + "components: {schemas: {A: {$ref: '#/components/schemas/Missing'}}}\n",
            error: "inline.yaml: #/components/schemas/A: the $ref \"#/components/schemas/Missing\" points to nothing in the document"),
        Broken(
            yaml: head + "components: {schemas: {A: {$ref: '#/components/schemas/B'}, B: {$ref: '#/components/schemas/A'}}}\n",
            error:
                "inline.yaml: #/components/schemas/A: the $ref \"#/components/schemas/B\" is part of a cycle of references that never reaches a schema"
        ),
        Broken(
            yaml: head + "components: {schemas: {A: {type: strin}}}\n",
            error: "inline.yaml: #/components/schemas/A/type: \"strin\" is not a JSON Schema type"),
        Broken(
            yaml: head + "components: {schemas: {A: {pattern: '(unclosed'}}}\n",
            error: "inline.yaml: #/components/schemas/A/pattern: \"(unclosed\" is not a regular expression NSRegularExpression reads"),
        Broken(
            yaml: head + "paths: {/a: {get: {responses: {'20': {description: x}}}}}\n",
            error: "inline.yaml: #/paths/~1a/get/responses/20: \"20\" is not a status code, a range like 2XX, or default"),
        Broken(
            yaml: head + "paths: {/a: {get: {operationId: x, responses: {}}}, /b: {get: {operationId: x, responses: {}}}}\n",
            error: "inline.yaml: #/paths/~1b/get/operationId: the operationId \"x\" is also used by GET /a"),
        Broken(yaml: head + "paths:\n  /a: [\n", error: "inline.yaml: line 4, column 7: the \"[\" here is never closed"),
    ]

    @Test(arguments: broken) func aDocumentThatCannotBeCheckedFaithfullyIsRefusedWithItsPlace(_ broken: Broken) {
        do {
            _ = try document(broken.yaml)
            Issue.record("no error for \(broken.yaml)")
        } catch {
            #expect("\(error)" == broken.error)
        }
    }

    @Test func escapedPointersAndRecursiveReferencesResolveOnce() throws {
        let contract = try document(
            Self.head + """
                components:
                  schemas:
                    a/b~c: {type: integer}
                    Uses: {$ref: '#/components/schemas/a~1b~0c'}
                    Node: {type: object, properties: {next: {$ref: '#/components/schemas/Node'}, value: {$ref: '#/components/schemas/Uses'}}}
                """)
        #expect(try contract.violations(of: ["next": ["next": ["value": 3]]], againstSchemaAt: "#/components/schemas/Node") == [])
        #expect(
            try contract.violations(of: ["next": ["value": "3"]], againstSchemaAt: "#/components/schemas/Node").map(\.description) == [
                "$.next.value: expected type integer, found string \"3\" (#/components/schemas/a~1b~0c/type)"
            ])
        // Node and a/b~c once each: Uses is its $ref, next is Node again.
        #expect(contract.schemas.nodes.count == 2)
    }

    @Test func aMissingFileIsAnErrorNamingIt() {
        let error = #expect(throws: OpenAPIError.self) { try OpenAPIDocument(contentsOf: URL(fileURLWithPath: "/no/such/shop.yaml")) }
        #expect(error?.source == "/no/such/shop.yaml")
        #expect(error?.message.hasPrefix("cannot be read (") == true)
    }
}

@Suite struct ParameterStyleTests {
    @Test func aDocumentWrittenAsOneYAMLFlowMappingReads() throws {
        let contract = try document(
            #"{openapi: 3.0.3, info: {title: t, version: "1"}, paths: {/a: {get: {operationId: a, responses: {default: {description: x}}}}}}"#)
        #expect(contract.operations.map(\.description) == ["a (GET /a)"])
    }

    @Test func objectQueryParametersAreCheckedForPresenceOnly() throws {
        let contract = try document(
            """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /search:
                get:
                  operationId: search
                  parameters:
                    - {name: filter, in: query, required: true, style: deepObject, schema: {type: object, properties: {name: {type: string}}}}
                    - {name: page, in: query, required: true, schema: {type: object, properties: {size: {type: integer}}}}
                  responses: {default: {description: x}}
            """)
        func violations(_ query: String) -> [String] {
            contract.violations(
                of: HTTPExchange(
                    method: "GET", url: URL(string: "https://x.test/search?\(query)"), requestHeaders: [:], requestBody: nil, status: 200,
                    responseHeaders: [:], responseBody: Data())
            ).map(\.description)
        }
        #expect(violations("filter[name]=rex&size=3") == [])
        #expect(
            violations("size=3") == [
                "search (GET /search): query parameter \"filter\": expected the required query parameter, found none (#/paths/~1search/get/parameters/0)"
            ])
    }
}
