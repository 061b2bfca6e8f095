import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsMigration
import URLStubsTesting
@testable import TestSupport

/// The deprecated spellings of the project's public-surface contract (the list of spellings
/// users' tests compile against) compile with `import URLStubsMigration` added to the usual
/// imports, and each group behaves like the spelling that replaced it. (Tests marked
/// deprecated may call deprecated API without a warning.)
@Suite("The contract's deprecated spellings compile with URLStubsMigration")
struct ContractSpellingTests {
    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func ohhttpstubsMethodAndJSONMatchersAcceptWhatTheirReplacementsAccept() {
        let upload = StubRequest(request("https://api.example.com/upload/a", method: "POST", body: Data(#"{"k":"v"}"#.utf8)))
        #expect((isMethodPOST() && pathStartsWith("/upload")).matches(upload))
        #expect(hasJsonBody(["k": "v"]).matches(upload) && !hasJsonBody(["k": "w"]).matches(upload))
        let methods: [(RequestMatcher, StubRequest.Method)] = [
            (isMethodGET(), .get), (isMethodPOST(), .post), (isMethodPUT(), .put),
            (isMethodPATCH(), .patch), (isMethodDELETE(), .delete), (isMethodHEAD(), .head),
        ]
        for (old, method) in methods {
            #expect(old.description == isMethod(method).description)
            #expect(old.matches(StubRequest(request("https://a.test/", method: method.rawValue))), "\(method.rawValue)")
        }
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func stubConditionAnswersThroughASession() async {
        let registry = StubRegistry()
        registry.stub(condition: isPath("/a")) { _ in StubResponse(string: "a") }
        #expect(await fetch("https://api.test/a", from: registry).body == "a")
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func anHTTPMessageFileWithOHHTTPStubsTimingReadsAsItsFixture() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("created.response")
        try Data("HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\n\r\nmade".utf8).write(to: url)

        let old = try StubResponse(httpMessageAt: url)
            .requestTime(0.5, responseTime: 2.0)
            .responseTime(-400)
            .downloadSpeed(.threeG)
        #expect(old.statusCode == 201 && old.body.data == Data("made".utf8))
        #expect(old.responseTime == StubResponse(statusCode: 200).downloadSpeed(.threeG).responseTime)
        #expect(old.responseTime == StubResponse(statusCode: 200).responseTime(-400).responseTime)
        let registry = StubRegistry()
        registry.stub(isPath("/made")) { _ in try StubResponse(httpMessageAt: url) }
        let result = await fetch("https://api.test/made", from: registry)
        #expect(result.response?.statusCode == 201 && result.body == "made")
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func fileAtJSONObjectAndGraphQLDataAnswerAsTheirReplacements() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString).bin")
        try Data("0123456789".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let registry = StubRegistry()
        registry.stub(isPath("/file")) { _ in StubResponse(fileAt: file, statusCode: 200, headers: [:]) }
        registry.stub(isPath("/object")) { _ in try StubResponse(jsonObject: ["users": []], statusCode: 200) }
        registry.stub(isPath("/id")) { _ in try StubResponse(jsonObject: ["id": 1]) }
        registry.stub(isPath("/graphql")) { _ in
            StubResponse(graphQLData: nil, errors: [["message": "Not found"]], extensions: nil)
        }
        let streamed = await fetch("https://api.test/file", from: registry)
        #expect(streamed.body == "0123456789" && streamed.response?.expectedContentLength == 10)
        let object = await fetch("https://api.test/object", from: registry)
        #expect(object.body == #"{"users":[]}"# && object.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(await fetch("https://api.test/id", from: registry).body == #"{"id":1}"#)
        let graphQL = await fetch("https://api.test/graphql", from: registry)
        #expect(graphQL.body == #"{"data":null,"errors":[{"message":"Not found"}]}"#)
    }

    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test(.stubbed(unmatchedRequests: .passThrough))
    func theTraitTakesPassThroughInTwoWords() {
        #expect(StubRegistry.current.unmatchedRequestPolicy == .passthrough)
    }
}
