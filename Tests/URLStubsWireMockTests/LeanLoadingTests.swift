import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TestSupport
import URLStubs
@testable import URLStubsWireMock

/// Registering a folder reads each `jsonBody` as checked text, never as a tree, and each
/// templated response reads the request once, lazily: neither changes what a request gets or
/// which files are refused.
@Suite("WireMock lean loading and the request view")
struct LeanLoadingTests {
    /// The error registering `files` throws.
    static func registrationProblem(_ files: [String: String]) throws -> FixtureError? {
        let root = try FolderTests.folder(files)
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            try StubRegistry().stubs(fromWireMock: root)
            Issue.record("expected an error")
            return nil
        } catch let error as FixtureError {
            return error
        }
    }

    // Jackson refuses a trailing comma and a bare word: the body is checked, and the error is
    // the full reader's, with the line and column.
    @Test func aJSONBodyThatIsNotJSONIsRefusedWithItsLine() throws {
        let error = try Self.registrationProblem([
            "mappings/comma.json": "{\"request\": {\"urlPath\": \"/a\"},\n \"response\": {\"jsonBody\": {\"a\": [1, 2,]}}}",
            "mappings/word.json": "{\"request\": {},\n\n \"response\": {\"jsonBody\": {\"a\": nope}}}",
        ])
        #expect(error?.found.contains("mappings/comma.json: $: expected JSON text, but") == true)
        #expect(error?.found.contains("line 2") == true)
        #expect(error?.found.contains("mappings/word.json: $: expected JSON text, but") == true)
        #expect(error?.found.contains("line 3") == true)
    }

    // What a checked body may hold: escapes, text beyond ASCII, a surrogate pair, numbers in
    // every form the grammar allows, deep nesting; each sent as written, without whitespace.
    @Test func checkedBodiesAreSentAsWritten() async throws {
        let deep = String(repeating: "[", count: 100) + "1" + String(repeating: "]", count: 100)
        let (registry, root) = try DeclarationTests.registry([
            "mappings/a.json": #"""
            {"request": {"urlPath": "/a"}, "response": {"jsonBody": {
              "text": "caf\u00e9 — ☕ \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t",
              "numbers": [0, -0, 12, -3.25, 1e3, 2E-2, 6.02e+23],
              "deep": \#(deep)
            }}}
            """#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let body = await fetch(request("https://api.test/a"), from: registry).body
        #expect(body.hasPrefix(#"{"text":"caf\u00e9 — ☕ \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t","numbers":[0,-0,12,-3.25,1e3,2E-2,6.02e+23],"#))
        #expect(body.hasSuffix(#""deep":"# + deep + "}"))
        #expect(try JSONValue(data: Data(body.utf8)) != .null)
    }

    // A lone surrogate is for the engine's reader to judge, as a file WireMockFolder reads:
    // registering gives the same verdict.
    @Test func aLoneSurrogateGetsTheFullReadersVerdict() throws {
        let files = ["mappings/a.json": #"{"request": {}, "response": {"jsonBody": ["\ud800"]}}"#]
        let root = try FolderTests.folder(files)
        defer { try? FileManager.default.removeItem(at: root) }
        var folderError: String?
        do { _ = try WireMockFolder(contentsOf: root) } catch { folderError = "\(error)" }
        var registryError: String?
        do { try StubRegistry().stubs(fromWireMock: root) } catch { registryError = "\(error)" }
        #expect(folderError == registryError)
    }

    // The checker and the engine's reader agree on what is JSON.
    @Test(arguments: [
        "{}", "[]", "[1,[2,{\"a\":[]}]]", " \"x\" ", "-0.5e-3", "true", "null", "{\"a\":1,\"a\":2}", "\"\\u00e9\"",
        "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[+1]", "{a:1}", "['x']", "[\"\t\"]", "[\"\\x\"]", "[\"\\u12\"]", "[1 2]", "[",
        "{\"a\"}", "tru", "nulls", "[1]]", "", "[NaN]", "[-]", "[1e]",
        // Long strings, whose bytes are read eight at a time: what ends, escapes or spoils
        // one at each place of a word.
        "[\"abcdefgh\\\"ijklmnopqrstu\"]", "[\"abcdefghijklmnopqrs\\u0041tuvwxyz\"]", "[\"0123456\u{01}89abcdef\"]",
        "[\"ünïcødé strings, long enough\"]", "[\"abcdefghijklmnopq", "[\"abcdefghijklmno\\q\"]", "[\"abcdefg\u{7f}hijklmnop\"]",
    ])
    func theCheckerAgreesWithTheEngine(_ text: String) {
        let data = Data(text.utf8)
        let checked = data.withUnsafeBytes { raw in
            var checker = JSONChecker(bytes: raw.bindMemory(to: UInt8.self))
            return checker.checkDocument()
        }
        let parsed = (try? JSONValue.parsing(data)) != nil
        #expect(checked == parsed, "\(text): checker \(checked), engine \(parsed)")
    }

    // A templated or delayed response keeps its body's value for its declaration, read from
    // the checked text: the declarations of a registered folder equal those of a folder read whole.
    @Test func templatedAndDelayedBodiesKeepTheirValues() throws {
        let root = try FolderTests.folder([
            "mappings/t.json":
                #"{"request": {"urlPath": "/t"}, "response": {"jsonBody": {"path": "{{request.path}}", "n": [1, 2]}, "transformers": ["response-template"]}}"#,
            "mappings/d.json":
                #"{"request": {"urlPath": "/d"}, "response": {"jsonBody": {"b": true}, "delayDistribution": {"type": "uniform", "lower": 1, "upper": 2}}}"#,
            "mappings/p.json": #"{"request": {"urlPath": "/p"}, "response": {"jsonBody": {"plain": 1}}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let registry = StubRegistry()
        try registry.stubs(fromWireMock: root, seed: 1)
        let whole = try WireMockFolder(contentsOf: root).declarations(seed: 1)
        let registered = registry.declarations
        #expect(registered.count == 3)
        func transformer(_ declarations: [StubDeclaration], _ file: String) -> JSONValue? {
            let declaration = declarations.first { $0.source?.file == "mappings/" + file }
            guard case .object(let options)? = declaration?.response.transformer?.value else { return nil }
            return options["response"]
        }
        #expect(transformer(registered, "t.json") != nil)
        #expect(transformer(registered, "t.json") == transformer(whole, "t.json"))
        #expect(transformer(registered, "d.json") == transformer(whole, "d.json"))
    }

    // The request model a template reads, in process: each part, from one lazy view.
    @Test func aTemplateReadsEveryPartOfTheRequest() async throws {
        let template = [
            "{{request.url}}", "{{request.path}}", "{{request.path.[1]}}", "{{request.pathSegments.[2]}}", "{{request.path.id}}",
            "{{request.query.tag.[1]}}", "{{request.headers.x-token}}", "{{request.cookies.session}}", "{{request.method}}",
            "{{request.baseUrl}}", "{{request.host}}", "{{request.port}}", "{{request.scheme}}", "{{request.requestLine.path}}",
            "{{request.body}}",
        ].joined(separator: "|")
        let (registry, root) = try DeclarationTests.registry([
            "mappings/a.json": """
            {"request": {"method": "POST", "urlPathTemplate": "/v1/users/{id}"},
             "response": {"body": "\(template)", "transformers": ["response-template"]}}
            """
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        var sent = request("https://api.test:8443/v1/users/a%20b?tag=x&tag=y#part")
        sent.httpMethod = "POST"
        sent.setValue("t0k", forHTTPHeaderField: "X-Token")
        sent.setValue("theme=dark; session=s1", forHTTPHeaderField: "Cookie")
        sent.httpBody = Data("hello".utf8)
        let body = await fetch(sent, from: registry).body
        #expect(
            body
                == "/v1/users/a%20b?tag=x&tag=y|/v1/users/a%20b|users|a b|a b|y|t0k|s1|POST|https://api.test:8443|api.test|8443|https|/v1/users/a%20b|hello"
        )
    }

    // WireMock's --global-response-templating: every response is a template, a jsonBody's
    // text too; without it, the same braces are sent as written.
    @Test func globalTemplatingRendersEveryResponse() async throws {
        let root = try FolderTests.folder([
            "mappings/a.json":
                #"{"request": {"urlPath": "/a"}, "response": {"jsonBody": {"path": "{{request.path}}"}, "headers": {"X-M": "{{request.method}}"}}}"#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let global = StubRegistry()
        try global.stubs(fromWireMock: root, globalTemplating: true)
        let rendered = await fetch(request("https://api.test/a"), from: global)
        #expect(rendered.body == #"{"path":"/a"}"#)
        #expect(rendered.response?.value(forHTTPHeaderField: "X-M") == "GET")
        let plain = StubRegistry()
        try plain.stubs(fromWireMock: root)
        #expect(await fetch(request("https://api.test/a"), from: plain).body == #"{"path":"{{request.path}}"}"#)
    }
}
