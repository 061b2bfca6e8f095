import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TestSupport
import URLStubs
@testable import URLStubsWireMock

/// What makes a large folder fast (a `jsonBody` cut from its file, templates prepared once,
/// path patterns filed by their literal start) changes nothing a request sees.
@Suite("WireMock loading and the path index")
struct LoadingAndIndexTests {
    @Test func aJSONBodyIsSentAsWrittenInItsFileCompacted() async throws {
        let (registry, root) = try DeclarationTests.registry([
            "mappings/one.json": #"""
            {"response": {"jsonBody": { "zeta": 1, "alpha" : [ 1.50, "a \" b", "x\ty" ], "mid": {"b": null, "a": true} }},
             "request": {"urlPath": "/one"}}
            """#,
            // A file of several mappings; the second's member written twice: the last counts,
            // as the reader keeps it.
            "mappings/list.json": #"""
            {"mappings": [
              {"request": {"urlPath": "/first"}, "response": {"jsonBody": [ 1, 2 ]}},
              {"request": {"urlPath": "/second"}, "response": {"jsonBody": {"old": 1}, "jsonBody": { "new" : "yes" }}}
            ]}
            """#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        // Jackson keeps the file's member order and the numbers as written; whitespace inside
        // strings stays.
        #expect(
            await fetch(request("https://api.test/one"), from: registry).body
                == #"{"zeta":1,"alpha":[1.50,"a \" b","x\ty"],"mid":{"b":null,"a":true}}"#)
        #expect(await fetch(request("https://api.test/first"), from: registry).body == "[1,2]")
        #expect(await fetch(request("https://api.test/second"), from: registry).body == #"{"new":"yes"}"#)
    }

    @Test func aMappingMadeInCodeWritesItsJSONBodyWithSortedMembers() async throws {
        let made = try mapping(#"{"request": {"urlPath": "/code"}, "response": {"jsonBody": {"b": 1, "a": [true, null]}}}"#)
        let registry = StubRegistry()
        try registry.stub(made.declaration())
        #expect(await fetch(request("https://api.test/code"), from: registry).body == #"{"a":[true,null],"b":1}"#)
    }

    @Test func pathPatternsAmongManyAnswerOnlyTheirOwnPaths() async throws {
        // More than the index's scan threshold, sharing starts that differ only after a slash
        // or within a segment, so the index files them under several starts.
        var files: [String: String] = [:]
        for index in 0..<60 {
            files["mappings/p\(index).json"] =
                #"{"request": {"urlPathPattern": "/v1/orders/\#(index)/[0-9]+"}, "response": {"body": "pattern \#(index)"}}"#
            files["mappings/t\(index).json"] =
                #"{"request": {"urlPathTemplate": "/v1/users/\#(index)/{id}"}, "response": {"body": "template \#(index)"}}"#
            files["mappings/u\(index).json"] =
                #"{"request": {"urlPattern": "/v1/search\#(index)\\?q=.*"}, "response": {"body": "search \#(index)"}}"#
        }
        files["mappings/loose.json"] = #"{"request": {"urlPathPattern": "/v1/ord[a-z]+/x"}, "response": {"body": "loose"}}"#
        files["mappings/any.json"] = #"{"request": {"urlPathPattern": ".*/deep/.*"}, "response": {"body": "any"}}"#
        let (registry, root) = try DeclarationTests.registry(files)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(await fetch(request("https://api.test/v1/orders/1/7"), from: registry).body == "pattern 1")
        #expect(await fetch(request("https://api.test/v1/orders/10/7"), from: registry).body == "pattern 10")
        #expect(await fetch(request("https://api.test/v1/users/59/abc"), from: registry).body == "template 59")
        #expect(await fetch(request("https://api.test/v1/search7?q=a"), from: registry).body == "search 7")
        #expect(await fetch(request("https://api.test/v1/orders/x"), from: registry).body == "loose")
        #expect(await fetch(request("https://api.test/a/b/deep/c"), from: registry).body == "any")
        // A percent-escaped path is decoded before its start is compared, as before.
        #expect(await fetch(request("https://api.test/v1/%6Frders/2/3"), from: registry).body == "pattern 2")
        #expect(await fetch(request("https://api.test/v1/orders/1/x"), from: registry).stubError != nil)
        // The near-miss report still names the closest mappings.
        let missed = await fetch(request("https://api.test/v1/orders/1"), from: registry)
        #expect(missed.stubError.map { "\($0)" }?.contains("/v1/orders/") == true)
    }

    @Test func templatesPreparedAtLoadAnswerAfterTheirFolderIsGone() async throws {
        let root = try DeclarationTests.folder([
            "mappings/greet.json": #"""
            {"request": {"urlPathTemplate": "/greet/{name}"},
             "response": {"jsonBody": {"hello": "{{request.path.name}}"}, "headers": {"X-Name": "{{request.path.name}}"},
                          "transformers": ["response-template"]}}
            """#
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let registry = StubRegistry()
        try registry.stubs(fromWireMock: root)
        let greeting = await fetch(request("https://api.test/greet/ada"), from: registry)
        #expect(greeting.body == #"{"hello":"ada"}"#)
        #expect(greeting.response?.value(forHTTPHeaderField: "X-Name") == "ada")
        // The declarations, sent through their JSON form into another registry (so nothing
        // prepared is found), answer the same.
        let copied = try JSONDecoder().decode([StubDeclaration].self, from: JSONEncoder().encode(registry.declarations))
        let other = StubRegistry()
        try other.stub(copied)
        #expect(await fetch(request("https://api.test/greet/bob"), from: other).body == #"{"hello":"bob"}"#)
        // A declaration whose response was changed after it was prepared answers as changed.
        var changed = registry.declarations[0]
        if case .object(var options)? = changed.response.transformer?.value, case .object(var response)? = options["response"] {
            response["jsonBody"] = ["bye": "{{request.path.name}}"]
            options["response"] = .object(response)
            changed.response.transformer?.value = .object(options)
        }
        let third = StubRegistry()
        try third.stub(changed)
        #expect(await fetch(request("https://api.test/greet/cy"), from: third).body == #"{"bye":"cy"}"#)
    }
}
