import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// A `$ref` to another file is refused wherever it appears, naming where.
@Suite struct ExternalReferenceTests {
    static func read(_ operation: String) -> String {
        do {
            let contract = try document(
                """
                openapi: 3.0.3
                info: {title: t, version: "1"}
                paths:
                  /pets:
                    get:
                \(operation)
                """)
            return "read: \(contract)"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("      $ref: 'operations.yaml#/listPets'", "#/paths/~1pets/get", "operations.yaml#/listPets"),
        (
            "      responses:\n        '200':\n          description: ok\n          headers:\n            X-Rate: {$ref: 'headers.yaml#/Rate'}",
            "#/paths/~1pets/get/responses/200/headers/X-Rate", "headers.yaml#/Rate"
        ),
        (
            "      responses:\n        '200':\n          description: ok\n          links:\n            next: {$ref: 'https://example.com/links.json#/next'}",
            "#/paths/~1pets/get/responses/200/links/next", "https://example.com/links.json#/next"
        ),
    ])
    func anExternalRefIsRefusedWhereItIs(operation: String, pointer: String, reference: String) {
        let outcome = Self.read(operation)
        #expect(outcome.contains(pointer) && outcome.contains(reference) && outcome.contains("points outside the document"), "\(outcome)")
    }

    @Test func aRefInsideAnExampleIsData() {
        let outcome = Self.read(
            "      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              example: {$ref: 'not/a/reference'}"
        )
        #expect(outcome.hasPrefix("read:"), "\(outcome)")
    }
}
