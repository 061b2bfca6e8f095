import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubsTesting

@Suite("Swift Testing trait")
struct TraitTests {
    @Test(.stubbed) func stubbedTraitProvidesAFreshRegistry() async {
        let registry = StubRegistry.current
        #expect(registry.stubs.isEmpty)
        registry.stub(isPath("/me")) { _ in StubResponse(data: Data("Ada".utf8)) }.expect(.once)
        #expect(await fetch("https://api.test/me", from: registry).body == "Ada")
    }

    @Test(.stubs { registry in
        registry.stub(isPath("/prepared")) { _ in StubResponse(data: Data("ready".utf8)) }
    }, arguments: [1, 2, 3])
    func stubsTraitSetsUpEveryCase(value: Int) async {
        let registry = StubRegistry.current
        #expect(registry.stubs.count == 1, "each case gets its own registry")
        registry.stub(isPath("/case")) { _ in StubResponse(data: Data("\(value)".utf8)) }
        #expect(await fetch("https://api.test/prepared", from: registry).body == "ready")
        #expect(await fetch("https://api.test/case", from: registry).body == "\(value)")
    }

    @Test func traitRecordsProblemsAtTheStubDeclaration() async throws {
        let line = #line + 4
        try await withKnownIssue {
            try await StubsTrait.stubbed.provideScope(for: Test.current!, testCase: Test.Case.current) {
                let registry = StubRegistry.current
                registry.stub(isPath("/never-called"), name: "expected") { _ in StubResponse(data: Data()) }.expect(.once)
            }
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "TraitTests.swift"
                && "\(issue)".contains("\"expected\"")
        }
    }

    @Test func traitRecordsUnexpectedRequests() async throws {
        try await withKnownIssue {
            try await StubsTrait.stubbed.provideScope(for: Test.current!, testCase: Test.Case.current) {
                _ = await fetch("https://api.test/nobody-stubbed-this", from: StubRegistry.current)
            }
        } matching: { issue in
            "\(issue)".contains("unexpected request: GET https://api.test/nobody-stubbed-this")
        }
    }
}
