import Foundation
import LoopbackTestServer
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// What hostile YAML may cost is bounded while it is read: aliases may not expand the document
/// past 1,000 nodes per byte of its text (the error names the alias's line), and nesting stops
/// at 128 levels, which a 512 KB stack holds in a debug build.
@Suite struct YAMLLimitTests {
    /// Ten aliases per level, each level repeating the one before: `levels` levels make about
    /// 10^`levels` nodes from a few hundred bytes.
    static func aliasBomb(levels: Int, under key: String = "x-bomb", indent: String = "") -> String {
        var text = "\(indent)\(key):\n\(indent)  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...levels {
            let aliases = Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ")
            text += "\(indent)  l\(level): &l\(level) [\(aliases)]\n"
        }
        return text
    }

    @Test func aliasesOfAliasesStopAtTheBudgetNamingTheLine() throws {
        let text = Self.aliasBomb(levels: 9)
        let started = Date()
        // Not #expect(throws:), which would print the value read: 10^9 nodes.
        let outcome = Result { try YAMLReader.read(Data(text.utf8)) }.map { _ in "read" }
        #expect(Date().timeIntervalSince(started) < 5)
        guard case .failure(let error) = outcome, let found = error as? YAMLError else {
            Issue.record("the alias bomb was read")
            return
        }
        // Level 5 makes about 1.3 million nodes: past 1,000 per byte of the text.
        #expect(found.line == 7, "\(found)")
        #expect(
            found.message.hasPrefix("the alias \"*l4\" takes the document past \(text.utf8.count * 1_000) nodes (1000 per byte of its text)"),
            "\(found)")
    }

    @Test func anAliasBombInsideAnExampleIsRefusedWhenTheDocumentIsRead() throws {
        let text = """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /a:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {type: array}
            \(Self.aliasBomb(levels: 8, under: "example", indent: "              "))
            """
        let error = #expect(throws: OpenAPIError.self) { _ = try OpenAPIDocument(data: Data(text.utf8), source: "bomb.yaml") }
        #expect(error?.description.contains("bomb.yaml: line 18, column ") == true, "\(String(describing: error)) \(text)")
        #expect(error?.description.contains("aliases of aliases multiply") == true, "\(String(describing: error))")
    }

    @Test func ordinaryAliasesStillRead() throws {
        var text = "shared: &shared {type: object, properties: {a: {type: string}, b: {type: integer}, c: {type: [string, 'null']}}}\nall:\n"
        for index in 0..<200 { text += "  s\(index): *shared\n" }
        let value = try YAMLReader.read(Data(text.utf8))
        #expect(value.objectValue?["all"]?.objectValue?.count == 200)
    }

    // MARK: In a child process

    private static let childVariable = "URLSTUBS_TEST_YAML_LIMITS_CHILD"

    static func blockMappings(_ depth: Int) -> String {
        (0..<depth).map { String(repeating: " ", count: $0) + "k:\n" }.joined() + String(repeating: " ", count: depth) + "v\n"
    }

    static func explicitKeys(_ depth: Int) -> String {
        (0..<depth).map { String(repeating: " ", count: $0 * 2) + "? k\n" + String(repeating: " ", count: $0 * 2) + ":\n" }.joined()
    }

    static func anchoredMappings(_ depth: Int) -> String {
        (0..<depth).map { String(repeating: " ", count: $0) + "k\($0): &a\($0)\n" }.joined() + String(repeating: " ", count: depth) + "v\n"
    }

    static func flow(_ depth: Int, open: String, close: String) -> String {
        "a: " + String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth) + "\n"
    }

    /// Runs only inside the child: every YAML shape at the nesting limit on a 512 KB stack, each
    /// one level deeper refused; a JSON document nested 512 levels; and the schema alias bomb
    /// the issue measured at 14 s and 1.3 GB (6 levels) through the whole document.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func childReadsYAMLAtTheLimitsOnASmallStack() throws {
        try onASmallStack {
            let limit = YAMLReader.maximumDepth
            let shapes: [(String, (Int) -> String)] = [
                ("block mappings", { Self.blockMappings($0 - 1) }), ("explicit keys", { Self.explicitKeys($0 - 1) }),
                ("anchors", { Self.anchoredMappings($0 / 2 - 1) }), ("flow sequences", { Self.flow($0 - 3, open: "[", close: "]") }),
                ("flow mappings", { Self.flow($0 - 3, open: "{a: ", close: "}") }),
                ("block sequences", { depth in (0..<(depth - 1)).map { String(repeating: " ", count: $0 * 2) + "-\n" }.joined() }),
            ]
            for (name, shape) in shapes {
                #expect(throws: Never.self, "\(name)") { try YAMLReader.read(Data(shape(limit).utf8)) }
                #expect(throws: YAMLError.self, "\(name)") { try YAMLReader.read(Data(shape(limit + 4).utf8)) }
            }
            let deep = String(repeating: "[", count: 510) + String(repeating: "]", count: 510)
            let json = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "x-deep": "# + deep + "}"
            _ = try OpenAPIDocument(data: Data(json.utf8))
        }
        var schemas = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
        schemas += "    S0: &s0 {type: object, properties: {a: {type: string}, b: {type: integer}, c: {type: boolean}}}\n"
        for level in 1...6 {
            let members = (0..<10).map { "p\($0): *s\(level - 1)" }.joined(separator: ", ")
            schemas += "    S\(level): &s\(level) {type: object, properties: {\(members)}}\n"
        }
        let error = #expect(throws: OpenAPIError.self) { try OpenAPIDocument(data: Data(schemas.utf8), source: "schemas.yaml") }
        #expect(error?.description.contains("aliases of aliases multiply") == true, "\(String(describing: error))")
    }

    @Test func yamlLimitsHoldOnASmallStackAndBeforeTheyCost() async throws {
        guard let run = try await runTestInChild("childReadsYAMLAtTheLimitsOnASmallStack", variable: Self.childVariable, timeLimit: 60) else {
            return
        }
        #expect(!run.timedOut, "the child ran for more than 60 s: \(run.output.suffix(2000))")
        #expect(run.status == 0, "\(run.output.suffix(3000))")
        #expect(run.output.contains("childReadsYAMLAtTheLimitsOnASmallStack()") && run.output.contains("passed"), "\(run.output.suffix(3000))")
    }

    @Test func aDocumentWithAnExplicitPathKeyReads() throws {
        let text = """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              ? /a/path/long/enough/that/a/yaml/writer/emits/it/as/an/explicit/key/{id}
              : get:
                  operationId: long
                  responses: {'200': {description: ok}}
            """
        let document = try OpenAPIDocument(data: Data(text.utf8))
        #expect(try document.operation("long").pathTemplate == "/a/path/long/enough/that/a/yaml/writer/emits/it/as/an/explicit/key/{id}")
    }
}
