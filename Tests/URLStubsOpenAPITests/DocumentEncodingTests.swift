import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// JSON and YAML documents that do not read say why, at which line and column: a missing
/// comma, nesting past the limit, a member written twice, a raw control character in a string,
/// and text that is not UTF-8 (UTF-16, UTF-32, invalid bytes, half a surrogate pair), which is
/// refused rather than repaired.
@Suite struct DocumentEncodingTests {
    private func error(_ data: Data) -> String {
        do {
            _ = try OpenAPIDocument(data: data, source: "api.json")
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    private func error(_ text: String) -> String { error(Data(text.utf8)) }

    private static let head = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}"#

    @Test func aMissingCommaIsNamedWithItsLineAndColumn() {
        #expect(
            error(Self.head + ",\n  \"paths\": {}\n  \"components\": {}\n}")
                == "api.json: line 3, column 3: not valid JSON: expected ',' or '}' after an object member")
    }

    @Test func nestingPastTheLimitSaysSo() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(error(Self.head + ", \"x-deep\": \(deep)}") == "api.json: line 1, column 583: not valid JSON: nested deeper than 512 levels")
    }

    @Test func aMemberWrittenTwiceIsRefusedAsInYAML() {
        #expect(
            error(Self.head + ",\n\"paths\": {},\n\"paths\": {}}")
                == "api.json: line 3, column 1: not valid JSON: the member \"paths\" appears twice in one object")
    }

    @Test func invalidUTF8IsRefusedByNameInJSONAndYAML() {
        let json = Data((Self.head + ", \"paths\": {\"/caf").utf8) + Data([0xE9]) + Data("\": {}}}".utf8)
        #expect(
            error(json).hasPrefix("api.json: line 1, column 77: not valid JSON: invalid UTF-8 (the byte 0xE9 starts no valid UTF-8 sequence)"),
            "\(error(json))")
        let yaml = Data("openapi: 3.0.3\ninfo:\n  title: caf".utf8) + Data([0xE9]) + Data("\n  version: '1'\npaths: {}\n".utf8)
        #expect(error(yaml).hasPrefix("api.json: line 3, column 13: invalid UTF-8 (the byte 0xE9"), "\(error(yaml))")
    }

    @Test func utf16IsRefusedByName() throws {
        let text = Self.head + ", \"paths\": {}}"
        let plain = try #require(text.data(using: .utf16LittleEndian))
        #expect(error(plain) == "api.json: line 1, column 1: not valid JSON: the text is UTF-16 (little-endian), not UTF-8: save it as UTF-8")
        let marked = Data([0xFF, 0xFE]) + plain
        #expect(error(marked) == "api.json: line 1, column 1: the text is UTF-16 or UTF-32, not UTF-8: save it as UTF-8")
        #expect(
            error(Self.head + ", \"paths\": {\"/a\\ud800\": {}}}")
                == #"api.json: line 1, column 75: not valid JSON: "\uD800" is half of a UTF-16 surrogate pair, without its other half (invalid UTF-16)"#
        )
    }

    @Test func aRawControlCharacterInAStringIsRefused() {
        #expect(
            error(Self.head + ", \"paths\": {\"/a\u{0}b\": {}}}")
                == #"api.json: line 1, column 75: not valid JSON: a control character in a string (write it as an escape such as \n)"#)
        #expect(
            error(Self.head + ", \"x-note\": \"a\u{1F}b\", \"paths\": {}}")
                == #"api.json: line 1, column 74: not valid JSON: a control character in a string (write it as an escape such as \n)"#)
        // YAML, which a text starting with "{" may also be, allows none either.
        #expect(
            error("openapi: 3.0.3\ninfo:\n  title: \"a\u{0}b\"\n  version: '1'\npaths: {}\n")
                == #"api.json: line 3, column 12: the control character U+0000 is not allowed in YAML text; write it as "\x00" in a double-quoted string"#
        )
        #expect(
            error("openapi: 3.0.3\ninfo: {title: a\u{9F}b, version: '1'}\npaths: {}\n").hasPrefix(
                "api.json: line 2, column 16: the control character U+009F"))
    }

    @Test func aUFFFDWrittenInTheDocumentStays() throws {
        let document = try OpenAPIDocument(
            data: Data((Self.head + ", \"paths\": {\"/\u{FFFD}\": {\"get\": {\"responses\": {\"200\": {\"description\": \"ok\"}}}}}}").utf8))
        #expect(document.operations.map(\.pathTemplate) == ["/\u{FFFD}"])
    }
}
