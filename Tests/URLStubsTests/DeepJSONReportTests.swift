import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// A JSON body nested deeper than the reader's limit is explained in the near-miss report, with
/// its depth, whatever the stub expected of it.
@Suite("A JSON body nested too deep is explained")
struct DeepJSONReportTests {
    private static func nested(_ depth: Int) -> Data {
        Data((#"{"a":"# + String(repeating: "[", count: depth - 1) + "1" + String(repeating: "]", count: depth - 1) + "}").utf8)
    }

    private func report(_ body: Data, stub matcher: RequestMatcher) async -> String {
        let registry = StubRegistry()
        registry.stub(matcher, name: "deep") { _ in StubResponse(data: Data()) }
        let result = await fetch(request("https://api.test/deep", method: "POST", body: body), from: registry)
        guard case .unmatchedRequest(let report)? = result.stubError else { return "no report: \(String(describing: result.error))" }
        return report
    }

    @Test(arguments: [
        hasJSONBody(["a": 1]), hasJSONBody(containing: ["a": 1]), hasJSONBody(["a": 1], ignoring: ["$.b"]),
    ])
    func theReportSaysTheBodyIsNestedTooDeepAndHowDeep(matcher: RequestMatcher) async {
        let text = await report(Self.nested(600), stub: isMethod(.post) && matcher)
        #expect(text.contains("nested 600 levels deep"), "\(text)")
        #expect(text.contains("deeper than the 512 levels"), "\(text)")
    }

    @Test func aStubThatReadsNoJSONStillGetsTheBodyExplained() async {
        let text = await report(Self.nested(600), stub: isMethod(.post) && isPath("/elsewhere"))
        #expect(text.contains("nested 600 levels deep"), "\(text)")
    }
}
