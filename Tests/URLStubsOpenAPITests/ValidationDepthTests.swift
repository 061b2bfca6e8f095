import Foundation
import LoopbackTestServer
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// Validation goes as deep as the readers read (512 levels, counting the schema's references)
/// on a 512 KB thread stack (a secondary thread's on Apple platforms) in a debug build, and a
/// schema that loops without reaching deeper into the value stops there with a violation.
@Suite struct ValidationDepthTests {
    private static let childVariable = "URLSTUBS_TEST_VALIDATION_DEPTH_CHILD"

    /// A tree as APIs write one: a node is its base (`allOf`) and children, each child a node
    /// or a plain string (`oneOf`), so each level of the value costs four levels of the check.
    static let trees = try! document(
        """
        openapi: 3.0.3
        info: {title: t, version: '1'}
        paths: {}
        components:
          schemas:
            Base: {type: object, required: [name], properties: {name: {type: string}}}
            Node:
              allOf:
                - $ref: '#/components/schemas/Base'
                - {type: object, properties: {children: {type: array, items: {$ref: '#/components/schemas/Child'}}}}
            Child:
              oneOf:
                - $ref: '#/components/schemas/Node'
                - {type: string}
            Nested: {type: [array, integer], items: {$ref: '#/components/schemas/Nested'}}
            Loop: {type: object, allOf: [{$ref: '#/components/schemas/Loop'}]}
        """)

    /// A node with one child node, `levels` deep, and two leaves at the bottom: `leaf` and "b".
    static func tree(levels: Int, leaf: JSONValue = "a") -> JSONValue {
        var node: JSONValue = ["name": "bottom", "children": [leaf, "b"]]
        for level in 0..<levels { node = ["name": .string("n\(level)"), "children": [node]] }
        return node
    }

    /// JSON text of `depth` arrays, one inside the other, around `leaf`.
    static func nestedArrays(_ depth: Int, leaf: String) -> Data {
        Data((String(repeating: "[", count: depth) + leaf + String(repeating: "]", count: depth)).utf8)
    }

    /// Runs only inside the child, on a 512 KB stack.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func childValidatesAtTheReadersDepthOnASmallStack() throws {
        try onASmallStack {
            let trees = Self.trees
            let node = "#/components/schemas/Node"
            // 120 levels of the value, 480 of the check: valid; with a wrong leaf at the bottom, no
            // child accepts the value, so the outermost child says so.
            #expect(try trees.violations(of: Self.tree(levels: 120), againstSchemaAt: node) == [])
            let wrong = try trees.violations(of: Self.tree(levels: 120, leaf: 7), againstSchemaAt: node)
            #expect(wrong.map(\.jsonPath) == ["$.children[0]"], "\(wrong)")
            #expect(wrong.first?.expected == "exactly one of the 2 oneOf schemas", "\(wrong)")

            // A body nested as deep as the JSON reader reads (512 levels), read then checked.
            let nested = "#/components/schemas/Nested"
            let deepest = try JSONValue.readingDocument(Self.nestedArrays(512, leaf: "1"))
            #expect(try trees.violations(of: deepest, againstSchemaAt: nested) == [])
            let brokenAtTheBottom = try JSONValue.readingDocument(Self.nestedArrays(512, leaf: "\"x\""))
            let broken = try trees.violations(of: brokenAtTheBottom, againstSchemaAt: nested)
            #expect(broken.map(\.expected) == ["one of the types array, integer"], "\(broken)")
            #expect(broken.first?.schemaPath == "#/components/schemas/Nested/type")

            // A schema that reaches itself without going deeper into the value stops at the limit.
            let loop = try trees.violations(of: ["a": 1], againstSchemaAt: "#/components/schemas/Loop")
            #expect(
                loop.map(\.expected) == ["a value nested at most 512 levels (counting its schema's references)"], "\(loop)")
            #expect(loop.first?.jsonPath == "$")
        }
    }

    @Test func validationReachesTheReadersDepthOnASmallStack() async throws {
        guard let run = try await runTestInChild("childValidatesAtTheReadersDepthOnASmallStack", variable: Self.childVariable) else {
            return
        }
        #expect(!run.timedOut, "the child ran for more than 120 s: \(run.output.suffix(2000))")
        #expect(run.status == 0, "\(run.output.suffix(3000))")
        #expect(
            run.output.contains("childValidatesAtTheReadersDepthOnASmallStack()") && run.output.contains("passed"),
            "\(run.output.suffix(3000))")
    }

    /// Limits are the same whatever the thread: the tree checked on the caller's stack.
    @Test func aValidTreeFiftyLevelsDeepHasNoViolation() throws {
        #expect(try Self.trees.violations(of: Self.tree(levels: 50), againstSchemaAt: "#/components/schemas/Node") == [])
    }
}
