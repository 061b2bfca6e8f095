import Foundation
import SyntheticFixtures
import Testing
@testable import URLStubs
@testable import URLStubsOpenAPI

@Suite struct YAMLReaderTests {
    @Test func theShopDocumentReadsAsTheIndependentJSONConversionDoes() throws {
        let fromYAML = try YAMLReader.read(Data(contentsOf: Shop.yamlURL))
        let fromJSON = try JSONValue(data: Data(contentsOf: Shop.jsonURL))
        #expect(fromYAML.differenceLines(from: fromJSON) == [])
    }

    @Test func blockAndFlowCollections() throws {
        let value = try yaml(
            """
            # a comment
            name: shop   # trailing comment
            list:
            - a
            -   b
            - - nested
              - deeper
            - key: value
              other: 2
            flow: [1, "two", {three: 3, 'four': [4]}, ]
            map: {a: 1,
                  b: [x,
                      y]}
            empty:
            emptyFlow: {}
            """)
        #expect(
            value == [
                "name": "shop", "list": ["a", "b", ["nested", "deeper"], ["key": "value", "other": 2]],
                "flow": [1, "two", ["three": 3, "four": [4]]], "map": ["a": 1, "b": ["x", "y"]], "empty": .null, "emptyFlow": [:],
            ])
    }

    @Test func scalarsResolveAsTheCoreSchemaSays() throws {
        let value = try yaml(
            """
            - ~
            - null
            - true
            - False
            - 12
            - -7
            - 0x1F
            - 0o17
            - 1.5e3
            - .5
            - .inf
            - 1.0.0
            - "12"
            - '~'
            - 200: ok
            - http://example.com:80/a#b
            - a#not a comment
            - b # a comment
            """)
        #expect(
            value == [
                .null, .null, true, false, 12, -7, 31, 15, 1500.0, 0.5, .number(.infinity), "1.0.0", "12", "~", ["200": "ok"],
                "http://example.com:80/a#b", "a#not a comment", "b",
            ])
    }

    @Test func quotedScalarsWithEscapesAndFolding() throws {
        let value = try yaml(
            #"""
            double: "tab\there \"quoted\" \\ \u00e9 \U0001F600 \x41 \/ \N\_end"
            single: 'it''s ''quoted'' \n stays'
            folded: "first
              second

              third"
            escapedBreak: "joined\
              together"
            emoji: "\ud83d\ude00"
            """#)
        #expect(
            value == [
                "double": "tab\there \"quoted\" \\ é 😀 A / \u{85}\u{A0}end", "single": "it's 'quoted' \\n stays",
                "folded": "first second\nthird", "escapedBreak": "joinedtogether", "emoji": "😀",
            ])
    }

    @Test func blockScalarsWithChompingAndIndentation() throws {
        let value = try yaml(
            """
            literal: |
              line one
                indented
              line three

            strip: |-
              no newline
            keep: |+
              kept

            folded: >
              folded
              together

              new paragraph
                kept indented
              back
            explicit: |2
                four spaces
            foldedStrip: >-
              a
              b
            after: end
            """)
        #expect(
            value == [
                "literal": "line one\n  indented\nline three\n", "strip": "no newline", "keep": "kept\n\n",
                "folded": "folded together\nnew paragraph\n  kept indented\nback\n", "explicit": "  four spaces\n",
                "foldedStrip": "a b", "after": "end",
            ])
    }

    @Test func multiLinePlainScalarsDocumentMarkersAnchorsAndMergeKeys() throws {
        let value = try yaml(
            """
            %YAML 1.2
            ---
            description: a plain scalar
              over two lines

              and a paragraph
            base: &base {a: 1, b: 2}
            copy: *base
            merged:
              <<: *base
              b: 3
            tagged: !!str 12
            ...
            """)
        #expect(
            value == [
                "description": "a plain scalar over two lines\nand a paragraph", "base": ["a": 1, "b": 2], "copy": ["a": 1, "b": 2],
                "merged": ["a": 1, "b": 3], "tagged": 12,
            ])
    }

    @Test func crlfLineBreaksAndAByteOrderMark() throws {
        let text = "\u{FEFF}a: 1\r\nb:\r\n  - x\r\n"
        #expect(try YAMLReader.read(Data(text.utf8)) == ["a": 1, "b": ["x"]])
    }

    /// YAML writers emit `? key` / `: value` for long keys; the key is a scalar, the value any
    /// node (a compact mapping may start on the `: ` line).
    @Test func explicitKeysReadAsTheirText() throws {
        let value = try yaml(
            """
            ? /a/very/long/path/that/a/writer/emits/as/an/explicit/key
            : get:
                operationId: long
              put: 1
            short: 2
            ? "quoted key"
            : [1, 2]
            ? |
              block key
            : v
            ? plain
              continued
            :
              nested: true
            ? 200
            : two hundred
            ? lonely
            flow: {? a : 1, b: 2}
            """)
        #expect(
            value == [
                "/a/very/long/path/that/a/writer/emits/as/an/explicit/key": ["get": ["operationId": "long"], "put": 1], "short": 2,
                "quoted key": [1, 2], "block key\n": "v", "plain continued": ["nested": true], "200": "two hundred", "lonely": .null,
                "flow": ["a": 1, "b": 2],
            ])
        #expect(throws: YAMLError(line: 3, column: 1, message: "the mapping key \"a\" appears twice")) { try yaml("a: 1\n? b\n? a\n: 2\n") }
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        let text: String
        let error: String
        var testDescription: String { error }
    }

    static let failures: [Failure] = [
        Failure(text: "a: 1\nb 2\n", error: "line 2, column 4: expected \":\" after the mapping key \"b 2\", found the end of the line"),
        Failure(
            text: "a: 1\n  b: 2\n",
            error: "line 2, column 4: \"b:\" inside a multi-line plain scalar; quote the value, or fix the indentation of this key"),
        Failure(
            text: "a:\n  b: 1\n    c: 2\n",
            error: "line 3, column 6: \"c:\" inside a multi-line plain scalar; quote the value, or fix the indentation of this key"),
        Failure(text: "a: 1\na: 2\n", error: "line 2, column 1: the mapping key \"a\" appears twice"),
        Failure(text: "a: [1, 2\n", error: "line 1, column 4: the \"[\" here is never closed"),
        Failure(text: "a: {b: 1]}\n", error: "line 1, column 9: expected \",\" or \"}\" in the flow mapping opened at line 1, found \"]\""),
        Failure(text: "a: \"open\n", error: "line 1, column 4: the double-quoted scalar that starts here never ends"),
        Failure(text: "a: \"\\q\"\n", error: "line 1, column 5: \"\\q\" is not a YAML escape"),
        Failure(text: "a: *missing\n", error: "line 1, column 4: the alias \"*missing\" names no anchor defined before it"),
        Failure(
            text: "? [a, b]\n: key\n", error: "line 1, column 3: a mapping key written after \"? \" must be a scalar; \"[\" cannot start one here"),
        Failure(text: "? a: b\n: key\n", error: "line 1, column 4: a mapping key written after \"? \" must be a scalar, not a mapping"),
        Failure(text: "a: !custom x\n", error: "line 1, column 4: the tag \"!custom\" is not supported (only YAML's core tags are)"),
        Failure(text: "a:\n\tb: 1\n", error: "line 2, column 1: a tab in indentation; YAML indents with spaces"),
        Failure(text: "a: 1\n---\nb: 2\n", error: "line 2, column 1: a second document: only one YAML document per text is read"),
        Failure(
            text: "a: b: c\n",
            error:
                "line 1, column 5: a mapping cannot start on the line of its key (\"b\" is followed by \":\"); quote the value or start the mapping on the next line"
        ),
        Failure(text: "- a\nb: 1\n", error: "line 2, column 1: unexpected \"b\" after the end of the document's top-level node"),
        Failure(
            text: "a: |x\n  b\n",
            error:
                "line 1, column 5: expected the end of the line after the block scalar header (\"|\" or \">\" with an optional digit and \"+\" or \"-\"), found \"x\""
        ),
        Failure(text: "a: @x\n", error: "line 1, column 4: \"@\" is reserved in YAML and cannot start a plain scalar; quote the value"),
        Failure(
            text: "a: [b: c]\n", error: "line 1, column 6: a \"key: value\" pair inside a flow sequence is not supported; write it as {key: value}"),
        Failure(text: String(repeating: "[", count: 300), error: "line 1, column 128: nesting deeper than 128 levels"),
    ]

    @Test(arguments: failures) func errorsNameTheLineTheColumnAndWhatWasExpected(_ failure: Failure) {
        #expect(throws: YAMLError.self) { try yaml(failure.text) }
        do {
            _ = try yaml(failure.text)
        } catch {
            #expect("\(error)" == failure.error)
        }
    }
}

@Suite struct SyntheticDocumentTests {
    @Test func theBenchmarksDocumentReadsTheSameFromYAMLAndFromJSON() throws {
        let (yamlText, jsonText) = SyntheticFixtures.openAPIDocument(bytes: 100_000)
        #expect(try YAMLReader.read(yamlText).differenceLines(from: JSONValue(data: jsonText)) == [])
        let fromYAML = try OpenAPIDocument(data: yamlText, source: "synthetic.yaml")
        let fromJSON = try OpenAPIDocument(data: jsonText, source: "synthetic.json")
        #expect(fromYAML.operations.map(\.description) == fromJSON.operations.map(\.description))
        #expect(fromYAML.operations.count > 30)
        let body = try JSONValue(data: SyntheticFixtures.openAPIResponse(bytes: 20_000))
        #expect(try fromYAML.violations(of: body, againstSchemaAt: "#/components/schemas/ItemPage") == [])
    }

    /// What `openAPI.selfCheck4MBDocumentSeconds` times, on a small document: every response
    /// built from the document checks clean against it.
    @Test func everyResponseBuiltFromTheBenchmarksDocumentChecksClean() throws {
        let document = try OpenAPIDocument(data: SyntheticFixtures.openAPIDocument(bytes: 30_000).json, source: "synthetic.json")
        let registry = StubRegistry()
        for operation in document.operations {
            let path = operation.pathTemplate.replacingOccurrences(of: "{id}", with: "1")
            for status in [200, 400, 404] {
                let response = try document.response(for: try #require(operation.operationId), status: status)
                registry.stub(isMethod(StubRequest.Method(rawValue: operation.method)) && isPath(path), responses: [response])
            }
        }
        let report = document.check(registry)
        #expect(report.checkedCount == document.operations.count * 3)
        #expect(report.findings.isEmpty, "\(report.findings.prefix(3))")
    }
}
