import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// Each keyword with a value it accepts and one it refuses, the refusal's report asserted.
@Suite struct SchemaKeywordTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let schema: String
        let valid: JSONValue
        let invalid: JSONValue
        let report: String
        var testDescription: String { report }
    }

    /// A 3.0 document whose one schema, `S`, is `schema` (YAML, indented under `S:`).
    private static func document(version: String, schema: String) throws -> OpenAPIDocument {
        let indented = schema.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n")
        return try URLStubsOpenAPITests.document(
            """
            openapi: \(version)
            info: {title: t, version: "1"}
            paths: {}
            components:
              schemas:
                S:
            \(indented)
            """)
    }

    private static func check(_ test: Case, version: String) throws {
        let document = try document(version: version, schema: test.schema)
        #expect(try document.violations(of: test.valid, againstSchemaAt: "#/components/schemas/S") == [], "valid: \(test.valid)")
        let found = try document.violations(of: test.invalid, againstSchemaAt: "#/components/schemas/S").map(\.description)
        #expect(found == [test.report])
    }

    static let version30: [Case] = [
        Case(schema: "type: string", valid: "a", invalid: 1, report: "$: expected type string, found integer 1 (#/components/schemas/S/type)"),
        Case(schema: "type: integer", valid: 2.0, invalid: 2.5, report: "$: expected type integer, found number 2.5 (#/components/schemas/S/type)"),
        Case(schema: "type: number", valid: 3, invalid: true, report: "$: expected type number, found boolean true (#/components/schemas/S/type)"),
        Case(
            schema: "type: boolean", valid: false, invalid: "no",
            report: "$: expected type boolean, found string \"no\" (#/components/schemas/S/type)"),
        Case(schema: "type: array", valid: [], invalid: [:], report: "$: expected type array, found object {} (#/components/schemas/S/type)"),
        Case(schema: "type: object", valid: [:], invalid: [], report: "$: expected type object, found array [] (#/components/schemas/S/type)"),
        Case(
            schema: "{type: string, nullable: true}", valid: .null, invalid: 1,
            report: "$: expected one of the types string, null, found integer 1 (#/components/schemas/S/type)"),
        Case(
            schema: "type: string", valid: "", invalid: .null,
            report: "$: expected type string, found null null (#/components/schemas/S/type)"),
        Case(
            schema: "{type: object, required: [id]}", valid: ["id": 1], invalid: ["name": "x"],
            report: "$: expected the required property \"id\", found an object without it (#/components/schemas/S/required)"),
        Case(
            schema: "properties: {id: {type: integer}}", valid: ["id": 1], invalid: ["id": "1"],
            report: "$.id: expected type integer, found string \"1\" (#/components/schemas/S/properties/id/type)"),
        Case(
            schema: "{properties: {a: {}}, additionalProperties: false}", valid: ["a": 1], invalid: ["a": 1, "b c": 2],
            report:
                "$[\"b c\"]: expected no property \"b c\" (additionalProperties is false; properties: \"a\"), found 2 (#/components/schemas/S/additionalProperties)"
        ),
        Case(
            schema: "additionalProperties: {type: integer}", valid: ["x": 1], invalid: ["x": "1"],
            report: "$.x: expected type integer, found string \"1\" (#/components/schemas/S/additionalProperties/type)"),
        Case(
            schema: "items: {type: integer}", valid: [1, 2], invalid: [1, "2"],
            report: "$[1]: expected type integer, found string \"2\" (#/components/schemas/S/items/type)"),
        Case(
            schema: "enum: [red, green]", valid: "red", invalid: "blue",
            report: "$: expected one of \"red\", \"green\", found \"blue\" (#/components/schemas/S/enum)"),
        Case(schema: "minimum: 1", valid: 1, invalid: 0, report: "$: expected at least 1, found 0 (#/components/schemas/S/minimum)"),
        Case(schema: "maximum: 10", valid: 10, invalid: 10.5, report: "$: expected at most 10, found 10.5 (#/components/schemas/S/maximum)"),
        Case(
            schema: "{minimum: 1, exclusiveMinimum: true}", valid: 1.5, invalid: 1,
            report: "$: expected more than 1, found 1 (#/components/schemas/S/exclusiveMinimum)"),
        Case(
            schema: "{maximum: 10, exclusiveMaximum: true}", valid: 9, invalid: 10,
            report: "$: expected less than 10, found 10 (#/components/schemas/S/exclusiveMaximum)"),
        Case(
            schema: "multipleOf: 0.01", valid: 19.99, invalid: 1.001,
            report: "$: expected a multiple of 0.01, found 1.001 (#/components/schemas/S/multipleOf)"),
        Case(schema: "multipleOf: 5", valid: 15, invalid: 12, report: "$: expected a multiple of 5, found 12 (#/components/schemas/S/multipleOf)"),
        Case(
            schema: "minLength: 2", valid: "éé", invalid: "é",
            report: "$: expected at least 2 characters, found 1 (\"é\") (#/components/schemas/S/minLength)"),
        Case(
            schema: "maxLength: 3", valid: "abc", invalid: "abcd",
            report: "$: expected at most 3 characters, found 4 (\"abcd\") (#/components/schemas/S/maxLength)"),
        Case(
            schema: "pattern: '^[A-Z]{2}\\d$'", valid: "AB1", invalid: "ab1",
            report: "$: expected a string matching /^[A-Z]{2}\\d$/, found \"ab1\" (#/components/schemas/S/pattern)"),
        Case(schema: "minItems: 1", valid: [1], invalid: [], report: "$: expected at least 1 items, found 0 (#/components/schemas/S/minItems)"),
        Case(schema: "maxItems: 1", valid: [1], invalid: [1, 2], report: "$: expected at most 1 items, found 2 (#/components/schemas/S/maxItems)"),
        Case(
            schema: "uniqueItems: true", valid: [1, 2], invalid: [1, 2, 1.0],
            report: "$: expected unique items, found item 2 equal to item 0 (1) (#/components/schemas/S/uniqueItems)"),
        Case(
            schema: "format: date-time", valid: "2024-02-29T23:59:60.5+01:00", invalid: "2023-02-29T10:00:00Z",
            report:
                "$: expected a date-time string (RFC 3339, like 2024-05-01T12:30:00Z), found \"2023-02-29T10:00:00Z\" (#/components/schemas/S/format)"
        ),
        Case(
            schema: "format: date", valid: "2024-12-31", invalid: "2024-13-01",
            report: "$: expected a date string (RFC 3339 full-date, like 2024-05-01), found \"2024-13-01\" (#/components/schemas/S/format)"),
        Case(
            schema: "format: uuid", valid: "3F2B6C1E-8D4A-4B7E-9C2D-5A6F7E8D9C0B", invalid: "3f2b6c1e8d4a4b7e9c2d5a6f7e8d9c0b",
            report:
                "$: expected a uuid string (8-4-4-4-12 hexadecimal digits), found \"3f2b6c1e8d4a4b7e9c2d5a6f7e8d9c0b\" (#/components/schemas/S/format)"
        ),
        Case(
            schema: "format: email", valid: "ada@example.com", invalid: "ada at example.com",
            report: "$: expected an email string (local@domain), found \"ada at example.com\" (#/components/schemas/S/format)"),
        Case(
            schema: "format: uri", valid: "urn:isbn:0451450523", invalid: "/relative/path",
            report: "$: expected a uri string (an absolute URI with a scheme), found \"/relative/path\" (#/components/schemas/S/format)"),
        Case(
            schema: "allOf: [{required: [a]}, {required: [b]}]", valid: ["a": 1, "b": 2], invalid: ["a": 1],
            report: "$: expected the required property \"b\", found an object without it (#/components/schemas/S/allOf/1/required)"),
        Case(
            schema: "anyOf: [{type: string}, {type: integer}]", valid: 1, invalid: true,
            report:
                "$: expected at least one of the 2 anyOf schemas, found a value none accepts (0: $: expected type string, found boolean true (#/components/schemas/S/anyOf/0/type); 1: $: expected type integer, found boolean true (#/components/schemas/S/anyOf/1/type)) (#/components/schemas/S/anyOf)"
        ),
        Case(
            schema: "oneOf: [{type: integer}, {type: number}]", valid: 1.5, invalid: 1,
            report: "$: expected exactly one of the 2 oneOf schemas, found a value 2 accept (0, 1) (#/components/schemas/S/oneOf)"),
        Case(
            schema: "oneOf: [{type: integer}, {type: string}]", valid: "a", invalid: [],
            report:
                "$: expected exactly one of the 2 oneOf schemas, found a value none accepts (0: $: expected type integer, found array [] (#/components/schemas/S/oneOf/0/type); 1: $: expected type string, found array [] (#/components/schemas/S/oneOf/1/type)) (#/components/schemas/S/oneOf)"
        ),
        Case(
            schema: "{minProperties: 1, maxProperties: 1}", valid: ["a": 1], invalid: [:],
            report: "$: expected at least 1 properties, found 0 (#/components/schemas/S/minProperties)"),
    ]

    @Test(arguments: version30) func openAPI30(_ test: Case) throws {
        try Self.check(test, version: "3.0.3")
    }

    static let version31: [Case] = [
        Case(
            schema: "type: [string, 'null']", valid: .null, invalid: 1,
            report: "$: expected one of the types null, string, found integer 1 (#/components/schemas/S/type)"),
        Case(schema: "const: 3", valid: 3.0, invalid: 4, report: "$: expected 3, found 4 (#/components/schemas/S/const)"),
        Case(
            schema: "exclusiveMinimum: 0", valid: 0.1, invalid: 0,
            report: "$: expected more than 0, found 0 (#/components/schemas/S/exclusiveMinimum)"),
        Case(
            schema: "exclusiveMaximum: 5", valid: 4, invalid: 5, report: "$: expected less than 5, found 5 (#/components/schemas/S/exclusiveMaximum)"),
        Case(
            schema: "properties: {a: true, b: false}", valid: ["a": 1], invalid: ["b": 1],
            report: "$.b: expected nothing (the schema is false), found 1 (#/components/schemas/S/properties/b)"),
        Case(
            schema: "{$ref: '#/components/schemas/S/$defs/T', maxLength: 2, $defs: {T: {type: string}}}", valid: "ab", invalid: 12,
            report: "$: expected type string, found integer 12 (#/components/schemas/S/$defs/T/type)"),
    ]

    @Test(arguments: version31) func openAPI31(_ test: Case) throws {
        try Self.check(test, version: "3.1.0")
    }

    @Test func aDiscriminatorPicksTheOneSchemaByMappingOrByName() throws {
        for contract in Shop.both {
            func check(_ value: JSONValue) throws -> [String] {
                try contract.violations(of: value, againstSchemaAt: "#/components/schemas/Animal").map(\.description)
            }
            #expect(try check(["petType": "Cat", "lives": 9]) == [])
            #expect(try check(["petType": "dog", "barks": true]) == [])
            #expect(
                try check(["petType": "dog", "barks": "loud"]) == [
                    "$.barks: expected type boolean, found string \"loud\" (#/components/schemas/Dog/properties/barks/type)"
                ])
            #expect(
                try check(["petType": "cow"]) == [
                    "$.petType: expected one of \"dog\", \"Cat\", found \"cow\" (#/components/schemas/Animal/discriminator/mapping)"
                ])
            #expect(
                try check(["lives": 3]) == [
                    "$: expected the discriminator property \"petType\" (\"dog\", \"Cat\"), found an object without it (#/components/schemas/Animal/discriminator/propertyName)"
                ])
        }
    }

    @Test func aRecursiveSchemaValidatesToAnyDepth() throws {
        let leaf: JSONValue = ["name": "leaf", "children": []]
        var tree = leaf
        for level in 0..<40 { tree = ["name": .string("level \(level)"), "children": [tree, leaf]] }
        #expect(
            try Shop.yaml.violations(of: [tree], againstSchemaAt: "#/paths/~1categories/get/responses/200/content/application~1json/schema") == [])
        var broken = leaf
        for _ in 0..<3 { broken = ["name": "x", "children": [broken]] }
        if case .object(var top) = broken {
            top["children"] = [["name": "x", "children": [["name": 1, "children": []]]]]
            broken = .object(top)
        }
        #expect(
            try Shop.json.violations(of: broken, againstSchemaAt: "#/components/schemas/Category").map(\.description) == [
                "$.children[0].children[0].name: expected type string, found integer 1 (#/components/schemas/Category/properties/name/type)"
            ])
    }

    @Test func violationsPastTheLimitAreCounted() throws {
        let contract = try Self.document(version: "3.0.3", schema: "items: {type: integer}")
        let index = try #require(contract.schemaIndex(at: "#/components/schemas/S"))
        let many = JSONValue.array(Array(repeating: "x", count: 80))
        let (violations, uncounted) = SchemaValidator.violations(of: many, against: index, in: contract.schemas)
        #expect(violations.count == 50)
        #expect(uncounted == 30)
    }
}
