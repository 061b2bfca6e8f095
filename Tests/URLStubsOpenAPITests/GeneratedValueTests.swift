import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// A response built from a schema validates against that schema, or the call throws an error
/// naming the schema and asking for an example.
@Suite struct GeneratedValueTests {
    /// A 3.1 document whose `GET /thing` (`getThing`) answers 200 with `schema` (YAML, indented
    /// under `schema:`), `components` added below the paths.
    static func document(schema: String, components: String = "", version: String = "3.1.0") throws -> OpenAPIDocument {
        let indented = schema.split(separator: "\n").map { "                " + $0 }.joined(separator: "\n")
        return try URLStubsOpenAPITests.document(
            """
            openapi: \(version)
            info: {title: t, version: "1"}
            paths:
              /thing:
                get:
                  operationId: getThing
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
            \(indented)
            \(components)
            """)
    }

    /// The value `getThing` answers with, after checking it against its own schema.
    static func generated(_ contract: OpenAPIDocument) throws -> JSONValue {
        let response = try contract.response(for: "getThing", status: 200)
        let value = try JSONValue(data: #require(response.body.data))
        let schema = try #require(contract.operations.first?.response(for: 200)?.content.first?.schema)
        let violations = SchemaValidator.violations(of: value, against: schema, in: contract.schemas).violations
        #expect(violations == [], "\(value) breaks its schema: \(violations)")
        return value
    }

    @Test(arguments: [
        (#"^[A-Z]{3}-\d{3}$"#, "AAA-000"),
        (#"^\+?[1-9]\d{1,14}$"#, "10"),
        ("^(?:[a-z0-9-]+\\.)+[a-z]{2,}$", "a.aa"),
        ("^(draft|published)$", "draft"),
        ("^[^@\\s]+@[^@\\s]+$", "a@a"),
        ("^v[0-9]+(\\.[0-9]+){2}(-[a-z]+)?$", "v0.0.0"),
        ("[a-f0-9]{8}", "aaaaaaaa"),
        ("^(?i)[a-z_][a-z0-9_]{0,63}$", "a"),
        ("^\\d{4}-\\d{2}-\\d{2}$", "0000-00-00"),
    ])
    func aPatternGetsAStringItMatches(pattern: String, expected: String) throws {
        let escaped = pattern.replacingOccurrences(of: "'", with: "''")
        let contract = try Self.document(schema: "type: string\npattern: '\(escaped)'")
        #expect(try Self.generated(contract) == .string(expected))
    }

    @Test func aPatternWithMinAndMaxLengthStretchesItsRepetitions() throws {
        let contract = try Self.document(schema: "type: string\npattern: '^[a-z]+[0-9]*$'\nminLength: 6\nmaxLength: 8")
        let value = try Self.generated(contract)
        #expect((6...8).contains(value.stringValue?.count ?? 0), "\(value)")
    }

    @Test func aPatternOutsideTheSubsetAsksForAnExampleNamingTheSchemaPath() throws {
        let contract = try Self.document(
            schema: "$ref: '#/components/schemas/Code'",
            components: """
                components:
                  schemas:
                    Code:
                      type: object
                      required: [code]
                      properties:
                        code: {type: string, pattern: '^(?=.*[0-9])[a-z0-9]{6}$'}
                """)
        #expect {
            try contract.response(for: "getThing", status: 200)
        } throws: { error in
            let text = "\(error)"
            return text.contains("#/components/schemas/Code/properties/code/pattern") && text.contains("(?=")
                && text.contains("example")
        }
    }

    @Test func aTypeBesideOneOfKeepsTheAlternativesValue() throws {
        let contract = try Self.document(
            schema: """
                type: string
                oneOf:
                  - enum: [small, large]
                  - format: date
                    pattern: '^\\d{4}-\\d{2}-\\d{2}$'
                """)
        #expect(try Self.generated(contract) == "small")
    }

    @Test func aTypeBesideAnyOfAndAllOfKeepsTheirValues() throws {
        let anyOf = try Self.document(schema: "type: integer\nanyOf:\n  - minimum: 10\n  - maximum: -10")
        #expect(try Self.generated(anyOf) == 10)
        let allOf = try Self.document(schema: "type: number\nallOf:\n  - minimum: 5\n  - multipleOf: 5")
        #expect(try Self.generated(allOf) == 5)
    }

    @Test func requiredBesideAllOfDoesNotBlankTheValueAllOfMade() throws {
        let contract = try Self.document(
            schema: """
                required: [name, kind]
                allOf:
                  - $ref: '#/components/schemas/Named'
                  - type: object
                    properties:
                      kind: {type: string, enum: [dog, cat]}
                """,
            components: """
                components:
                  schemas:
                    Named:
                      type: object
                      required: [name]
                      properties:
                        name: {type: string, minLength: 3, example: Rex}
                """)
        #expect(try Self.generated(contract) == ["name": "Rex", "kind": "dog"])
    }

    @Test func uniqueItemsGetsDistinctItems() throws {
        let integers = try Self.document(schema: "type: array\nminItems: 3\nuniqueItems: true\nitems: {type: integer, minimum: 1}")
        #expect(try Self.generated(integers) == [1, 2, 3])
        let strings = try Self.document(schema: "type: array\nminItems: 2\nuniqueItems: true\nitems: {type: string}")
        #expect(try Self.generated(strings).arrayValue?.count == 2)
        let choices = try Self.document(schema: "type: array\nminItems: 2\nuniqueItems: true\nitems: {type: string, enum: [a, b, c]}")
        #expect(try Self.generated(choices) == ["a", "b"])
        let objects = try Self.document(
            schema: "type: array\nminItems: 2\nuniqueItems: true\nitems:\n  type: object\n  required: [id]\n  properties:\n    id: {type: integer}")
        #expect(try Self.generated(objects).arrayValue?.count == 2)
    }

    @Test func minItemsAboveThreeIsHonoured() throws {
        let contract = try Self.document(schema: "type: array\nminItems: 5\nitems: {type: boolean}")
        #expect(try Self.generated(contract).arrayValue?.count == 5)
    }

    @Test func minPropertiesGetsEnoughProperties() throws {
        let free = try Self.document(schema: "type: object\nminProperties: 2\nadditionalProperties: {type: integer}")
        #expect(try Self.generated(free).objectValue?.count == 2)
        let listed = try Self.document(
            schema: "type: object\nminProperties: 2\nproperties:\n  a: {type: string}\n  b: {type: string}\n  c: {type: string}")
        #expect((try Self.generated(listed).objectValue?.count ?? 0) >= 2)
    }

    @Test func aMediaTypeWithNoSchemaAndNoExampleGetsAJSONValueTheCheckAccepts() throws {
        let contract = try URLStubsOpenAPITests.document(
            """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /thing:
                get:
                  operationId: getThing
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json: {}
            """)
        let registry = StubRegistry()
        registry.stub(isMethod(.get) && isPath("/thing"), responses: [try contract.response(for: "getThing", status: 200)])
        let report = contract.check(registry)
        #expect(report.isSuccess, "\(report)")
        #expect(report.checkedCount == 1)
    }

    @Test func aSelfCheckOfEveryResponseOfTheShopPasses() throws {
        for contract in Shop.both {
            for operation in contract.operations {
                guard let id = operation.operationId else { continue }
                for status in operation.documentedStatuses.compactMap(Int.init) {
                    let response = try contract.response(for: id, status: status)
                    let registry = StubRegistry()
                    let path = operation.template.filled { _ in "1" }
                    registry.stub(isMethod(.init(rawValue: operation.method)) && isPath(path), responses: [response])
                    let report = contract.check(registry)
                    #expect(report.isSuccess, "\(id) \(status): \(report)")
                }
            }
        }
    }
}

/// What `response(for:)` refuses, and how it says so.
@Suite struct ResponseRefusalTests {
    static let twoMediaTypes = """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /thing:
            get:
              operationId: getThing
              responses:
                "200":
                  description: ok
                  content:
                    application/json: {schema: {type: object}}
          /quiet:
            get:
              operationId: quiet
        """

    @Test func aMediaTypeTheResponseDoesNotListThrows() throws {
        let contract = try document(Self.twoMediaTypes)
        #expect {
            try contract.response(for: "getThing", status: 200, mediaType: "application/xml")
        } throws: { error in
            "\(error)".contains("lists no application/xml (it lists application/json)")
        }
    }

    @Test func anOperationWithoutResponsesSaysSo() throws {
        let contract = try document(Self.twoMediaTypes)
        #expect {
            try contract.response(for: "quiet", status: 200)
        } throws: { error in
            "\(error)".contains("documents no responses at all")
        }
    }
}

/// Generated sizes are bounded: a schema asking for more throws instead of exhausting memory.
@Suite struct GeneratedSizeTests {
    @Test(
        .enabled(if: ChildCase.binary != nil, "the child is the .xctest binary swift test runs on Linux"),
        arguments: [
            ("type: string\nminLength: 100000000000000", "minLength 100000000000000 is more than the 100000 characters"),
            ("type: string\nminLength: 3000000000", "minLength 3000000000 is more than the 100000 characters"),
            ("type: array\nminItems: 50000000\nitems: {type: integer}", "minItems 50000000 is more than the 10000 items"),
            ("type: object\nminProperties: 50000000", "minProperties 50000000 is more than the 10000 properties"),
            (
                "type: array\nminItems: 10000\nitems: {type: array, minItems: 10000, items: {type: string, minLength: 1000}}",
                "would hold more than 4000000 values and characters"
            ),
        ])
    func aSchemaAskingForTooMuchThrowsNamingIt(schema: String, message: String) async throws {
        // In a child: before the limits, the first two aborted the process or took gigabytes.
        let outcome = try await ChildCase.run("buildResponse", argument: schema, stackSize: 8 << 20, timeLimit: 120)
        let result = try #require(outcome.result, "\(outcome)")
        #expect(result.contains(message), "\(result)")
        #expect(result.contains("no example can be built") && result.contains("#/paths/~1thing/get/responses/200"), "\(result)")
    }
}
