import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackTestServer
import Testing
@testable import URLStubs
@testable import URLStubsGraphQL
@testable import URLStubsMultipart
@testable import TestSupport

/// The JSON reader decides every text itself: where it is wrong (line and column), a member
/// written twice in a document, invalid UTF-8 and half a UTF-16 surrogate pair refused by name,
/// and nesting that never recurses, so a body at the 512-level limit is read, matched and
/// explained on a 512 KB stack.
@Suite("JSON reader limits")
struct JSONReaderLimitTests {
    static func arrays(_ depth: Int) -> Data {
        Data((String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)).utf8)
    }

    static func objects(_ depth: Int) -> Data {
        Data((String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
    }

    private func problem(_ data: Data, rules: JSONBytesReader.Rules = .body) -> JSONSyntaxError? {
        do {
            _ = try JSONBytesReader.read(data, rules: rules)
            return nil
        } catch {
            return error as? JSONSyntaxError
        }
    }

    @Test func aMissingCommaIsNamedWithItsLineAndColumn() {
        let text = Data("{\n  \"a\": 1\n  \"b\": 2\n}".utf8)
        #expect(problem(text)?.description == "expected ',' or '}' after an object member at line 3, column 3 (byte 13)")
    }

    @Test func aMemberWrittenTwiceIsRefusedInADocumentAndTheLastWinsInABody() throws {
        let text = Data("{\"a\": 1,\n \"a\": 2}".utf8)
        #expect(problem(text, rules: .document)?.description == "the member \"a\" appears twice in one object at line 2, column 2 (byte 10)")
        #expect(try JSONValue(data: text) == .object(["a": .integer(2)]))
    }

    @Test func invalidUTF8IsRefusedByName() throws {
        let text = Data([UInt8](#"{"a": "caf"#.utf8) + [0xC3, 0x28] + [UInt8](#""}"#.utf8))
        let found = try #require(problem(text))
        #expect(found.reason.hasPrefix("invalid UTF-8 (the byte 0xC3"), "\(found)")
        #expect(found.offset == 10)
        #expect(throws: (any Error).self) { try JSONValue(data: text) }
        // U+FFFD written in the text is valid UTF-8 and stays.
        #expect(try JSONValue(data: Data("[\"\u{FFFD}\"]".utf8)) == .array([.string("\u{FFFD}")]))
    }

    @Test func halfASurrogatePairIsRefusedByName() throws {
        let found = try #require(problem(Data(#"{"name": "a\ud800b"}"#.utf8)))
        #expect(
            found.description
                == #""\uD800" is half of a UTF-16 surrogate pair, without its other half (invalid UTF-16) at line 1, column 12 (byte 11)"#)
        #expect(try JSONValue(data: Data(#"["\ud83d\ude00"]"#.utf8)) == .array([.string("😀")]))
    }

    @Test func utf16IsReadInABodyAndRefusedByNameInADocument() throws {
        let text = #"{"name": "Ada"}"#
        let littleEndian = try #require(text.data(using: .utf16LittleEndian))
        #expect(try JSONBytesReader.read(littleEndian, rules: .body) == .object(["name": .string("Ada")]))
        #expect(
            try JSONBytesReader.read(Data([0xFE, 0xFF]) + #require(text.data(using: .utf16BigEndian)), rules: .body)
                == .object(["name": .string("Ada")]))
        #expect(problem(littleEndian, rules: .document)?.reason == "the text is UTF-16 (little-endian), not UTF-8: save it as UTF-8")
        #expect(problem(try #require(text.data(using: .utf32BigEndian)), rules: .document)?.reason.hasPrefix("the text is UTF-32") == true)
    }

    @Test func numbersBeyondIntAreTheNearestDouble() throws {
        #expect(
            try JSONValue(data: Data("[12345678901234567890, 0.89199999999982540000000000000000001]".utf8))
                == .array([.number(1.2345678901234567e19), .number(0.8919999999998254)]))
        #expect(problem(Data("[1e999]".utf8))?.description == "a number too large for a Double at line 1, column 2 (byte 1)")
    }

    @Test func aTextTooDeepSaysHowDeepItGoes() throws {
        let found = try #require(problem(Self.arrays(600)))
        #expect(found.description == "nested deeper than 512 levels at line 1, column 513 (byte 512)")
        #expect(found.nestingDepth == 600)
        #expect(try JSONValue(data: Self.objects(512)) != .null)
    }

    // MARK: A 512 KB stack

    private static let childVariable = "URLSTUBS_TEST_JSON_SMALL_STACK"

    /// Runs only inside the child: every JSON reading path at the limit on a 512 KB stack.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func childReadsJSONAtTheLimitOnASmallStack() throws {
        try onASmallStack {
            for deep in [Self.arrays(512), Self.objects(512)] {
                let value = try JSONValue(data: deep)
                var hasher = Hasher()
                value.hash(into: &hasher)
                #expect(value == (try JSONValue(data: deep)))
                #expect(value.description.count < 400)
                let post = StubRequest(request("https://api.test/x", method: "POST", body: deep, headers: ["Content-Type": "application/json"]))
                for matcher in [hasJSONBody(["a": 1]), hasJSONBody(containing: ["a": 1]), hasJSONBody(["a": 1], ignoring: ["$.b"])] {
                    #expect(!matcher.mismatches(for: post).isEmpty)
                }
                _ = isGraphQLOperation("Deep").mismatches(for: post)
                // Two levels for the request's object and its variables: 512 in all.
                let variables = Data(#"{"query": "query Deep { a }", "variables": {"v": "#.utf8) + Self.arrays(510) + Data("}}".utf8)
                let graphQL = StubRequest(request("https://api.test/graphql", method: "POST", body: variables))
                #expect(isGraphQLOperation("Deep").mismatches(for: graphQL).isEmpty)
                let boundary = "b0undary"
                let form =
                    Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"meta\"\r\n\r\n".utf8) + deep
                    + Data("\r\n--\(boundary)--\r\n".utf8)
                let upload = StubRequest(
                    request("https://api.test/up", method: "POST", body: form, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
                )
                #expect(!hasMultipartPart(named: "meta", json: ["a": 1]).mismatches(for: upload).isEmpty)
            }
            // The GraphQL document reader and the multipart reader never recurse: brackets
            // 100,000 deep and 10,000 parts cost heap, not stack.
            let braces = String(repeating: "{ a ", count: 100_000) + String(repeating: "}", count: 100_000)
            let document = GraphQLDocument("query Deep " + braces)
            #expect(document.operations.map(\.description) == ["query Deep"])
            let manyParts = MultipartBody.serialize(
                Array(repeating: MultipartPart(headers: [("Content-Disposition", "form-data; name=\"p\"")], body: Data("x".utf8)), count: 10_000),
                boundary: "b")
            #expect(try MultipartBody(manyParts, contentType: "multipart/form-data; boundary=b").parts.count == 10_000)
            #expect(JSONValue.problem(in: Self.arrays(100_000))?.nestingDepth == 100_000)
            #expect(JSONValue.tooDeepBodyNote(Self.objects(100_000)) != nil)
        }
    }

    @Test func jsonReadersAreSafeAtTheirLimitOnASmallStack() async throws {
        guard let run = try await runTestInChild("childReadsJSONAtTheLimitOnASmallStack", variable: Self.childVariable) else { return }
        #expect(run.status == 0 && !run.timedOut, "\(run.output.suffix(3000))")
        #expect(run.output.contains("childReadsJSONAtTheLimitOnASmallStack()") && run.output.contains("passed"), "\(run.output.suffix(3000))")
    }
}
