// Fuzz target: the schema compiler, the validator and the example generator. The input is
// "schema\n%%\nvalue": a schema in YAML (or JSON) and a JSON value; a first byte "1" makes the
// document OpenAPI 3.1, anything else 3.0.
// fuzz-also-compiles: Sources/URLStubsOpenAPI Sources/URLStubsScenarios Sources/URLStubsRecording Sources/URLStubsGraphQL Sources/URLStubsMultipart
import Foundation

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPISchema(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let separator = data.range(of: Data("\n%%\n".utf8)), let schema = try? YAMLReader.read(data[..<separator.lowerBound]),
        let value = try? JSONValue(data: data[separator.upperBound...])
    else { return 0 }
    let version = data.first == UInt8(ascii: "1") ? "3.1.0" : "3.0.3"
    let root: JSONValue = .object([
        "openapi": .string(version), "info": .object(["title": .string("fuzz"), "version": .string("1")]),
        "paths": .object([
            "/s": .object([
                "get": .object([
                    "operationId": .string("s"),
                    "responses": .object([
                        "200": .object([
                            "content": .object(["application/json": .object(["schema": .object(["$ref": .string("#/components/schemas/S")])])])
                        ])
                    ]),
                ])
            ])
        ]),
        "components": .object(["schemas": .object(["S": schema])]),
    ])
    guard let document = try? OpenAPIDocument(root: root, source: "fuzz") else { return 0 }
    let violations = (try? document.violations(of: value, againstSchemaAt: "#/components/schemas/S")) ?? []
    for violation in violations {
        precondition(violation.jsonPath.hasPrefix("$"), "a JSON path starts at $")
        precondition(violation.schemaPath.hasPrefix("#"), "a schema path is a pointer into the document")
        precondition(violation.description.utf8.count < 4_096, "a violation is one bounded line")
    }
    // A response built from the schema validates against it (or the call threw).
    if let made = try? document.response(for: "s", status: 200), let body = made.body.data, !body.isEmpty,
        let schema = document.operations.first?.response(for: 200)?.content.first?.schema,
        let value = try? JSONValue(data: body)
    {
        precondition(
            SchemaValidator.violations(of: value, against: schema, in: document.schemas).violations.isEmpty, "a built response fits its schema")
    }
    if let index = document.schemaIndex(at: "#/components/schemas/S") {
        var generator = ExampleGenerator(set: document.schemas)
        if let made = try? generator.value(for: index) {
            _ = SchemaValidator.violations(of: made, against: index, in: document.schemas)
        }
    }
    return 0
}
