import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// A near-miss report prints a declared candidate as JSON and as Swift when asked, secrets hidden.
@Suite("Near-miss declaration forms")
struct NearMissDeclarationFormsTests {
    static var declaration: StubDeclaration {
        StubDeclaration(
            name: "user 1", request: RequestPattern(method: "GET", path: .equalTo("/users/1"), headers: ["Authorization": .equalTo("Bearer S3CRET")]),
            response: ResponseDefinition(body: .json(["id": 1, "tags": [], "note": .null])),
            followingResponses: [ResponseDefinition(status: 404)], source: .init(file: "Stubs/users.json", line: 3))
    }

    static func report(forms: NearMissDeclarationForms?, api: FetchAPI) async throws -> String {
        let registry = StubRegistry()
        if let forms { registry.nearMissDeclarationForms = forms }
        try registry.stub(declaration)
        var request = URLRequest(url: URL(string: "https://api.test/users/2")!)
        request.setValue("Bearer S3CRET", forHTTPHeaderField: "Authorization")
        let result = await fetch(request, from: registry, using: api)
        guard case .unmatchedRequest(let report)? = result.stubError else { return "answered: \(String(describing: result.error))" }
        return report
    }

    @Test(arguments: FetchAPI.allCases)
    func aDeclaredCandidatePrintsAsJSONAndAsSwift(api: FetchAPI) async throws {
        let report = try await Self.report(forms: [.json, .swift], api: api)
        #expect(!report.contains("S3CRET"), "\(report)")
        let jsonLine = try #require(report.split(separator: "\n").first { $0.contains("as JSON: ") })
        let json = String(jsonLine.split(separator: "as JSON: ", maxSplits: 1)[1])
        var printed = try #require(try StubDeclaration.read(from: Data(json.utf8), source: "report").first)
        printed.request.headers = Self.declaration.request.headers  // the report hides the expected secret
        #expect(printed == Self.declaration)
        #expect(report.contains("     as Swift: StubDeclaration(\n         name: \"user 1\",\n"), "\(report)")
        #expect(report.contains(#"body: .json(["id": 1, "note": .null, "tags": []])"#), "\(report)")
        #expect(report.contains("followingResponses: [ResponseDefinition(status: 404)]"), "\(report)")
    }

    @Test func reportsPrintNoDeclarationUnlessAsked() async throws {
        let report = try await Self.report(forms: nil, api: .completionHandler)
        #expect(report.contains("\"user 1\" (Stubs/users.json:3)"))
        #expect(!report.contains("as JSON") && !report.contains("as Swift"))
    }

    @Test func theSwiftSourceSpellsEveryField() {
        let source = StubDeclarationTests.everyField.swiftSource
        for fragment in [
            #"id: "6f1c""#, #"method: "POST""#, #"url: .matches("^https://")"#, #"host: .equalTo("api.test", caseInsensitive: true)"#,
            #"path: .template("/users/:id")"#, #""q": .anyOf([.equalTo("a"), .hasPrefix("b")])"#, #""debug": .absent"#,
            #".not(.matches("^0+$"))"#, #".binaryEqualTo(Data(base64Encoded: "AAEC")!)"#,
            #".json(["a": [1, 2]], ignoreArrayOrder: true, ignoreExtraElements: true)"#, #".jsonPath("$.b", .equalTo("x"))"#,
            #"noneOf: [RequestPattern(headers: ["X-Skip": .present])]"#, #"status: 201"#, #""Set-Cookie": "a=1", "Set-Cookie": "b=2""#,
            "requestTime: 0.5", "downloadSpeed: 40", #"gate: "checkout""#, "failure: .afterBytes(10, errorCode: -1005)",
            #"body: .fixture("conflict.json")"#, #"body: .stream("feed")"#, "priority: 2",
            #"scenario: .init(name: "signup", requiredState: "Started", newState: "done")"#, "times: 3",
            #"metadata: ["tags": ["a"], "team": "ios"]"#, #"source: .init(file: "Stubs/users.json", line: 4)"#,
        ] {
            #expect(source.contains(fragment), "\(fragment) in \(source)")
        }
    }
}
