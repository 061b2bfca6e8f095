import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// A stub whose response no client can receive is a verification problem at its line, whether
/// its answer is known when it is added or found when a request gets it; a matcher that no
/// request can meet is refused when it is made.
@Suite("Invalid stubs are reported")
struct InvalidStubTests {
    private func invalidStubSummaries(_ registry: StubRegistry) -> [String] {
        registry.verify().problems.filter { $0.kind == .invalidStub }.map(\.summary)
    }

    @Test(arguments: [-5, 0, 600])
    func aOneLineStubWithAnImpossibleStatusFailsVerifyWithoutARequest(status: Int) throws {
        let registry = StubRegistry()
        let stub = registry.stub(.get, "https://api.test/x", name: "odd", statusCode: status)
        let report = registry.verify()
        #expect(!report.isSuccess)
        let problem = try #require(report.problems.first { $0.kind == .invalidStub })
        #expect(problem.summary.contains("status code \(status)"), "\(problem.summary)")
        #expect(problem.location?.line == stub.location.line)
    }

    @Test func aOneLineStubWithACRLFInAHeaderFailsVerify() {
        let registry = StubRegistry()
        registry.stub(.get, "https://api.test/x", name: "split", headers: ["X-Note": "a\r\nSet-Cookie: b=1"])
        let summaries = invalidStubSummaries(registry)
        #expect(summaries.count == 1)
        #expect(summaries.first?.contains("cannot be sent") == true, "\(summaries)")
    }

    @Test func aSequenceIsCheckedResponseByResponse() {
        let registry = StubRegistry()
        registry.stub(isPath("/retry"), name: "retry", responses: [StubResponse(statusCode: 503), StubResponse(statusCode: 700)])
        #expect(invalidStubSummaries(registry).first?.contains("status code 700") == true)
    }

    @Test(arguments: [FetchAPI.completionHandler, .delegate])
    func aClosureStubThatAnsweredAnImpossibleStatusFailsVerify(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/x"), name: "closure") { _ in StubResponse(statusCode: 600) }
        #expect(registry.verify().isSuccess, "nothing is known before a request")
        let result = await fetch(request("https://api.test/x"), from: registry, using: api)
        #expect(result.stubError.map { if case .invalidStatusCode = $0 { true } else { false } } == true)
        let summaries = invalidStubSummaries(registry)
        #expect(summaries == [summaries.first ?? ""] && summaries.first?.contains("status code 600") == true, "\(summaries)")
        _ = await fetch(request("https://api.test/x"), from: registry, using: api)
        #expect(invalidStubSummaries(registry).count == 1, "reported once however many requests got it")
    }

    @Test(arguments: [(204, "no content"), (304, "not modified"), (101, "switching")])
    func aBodyOnAStatusThatCarriesNoneIsRefused(status: Int, body: String) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/x"), name: "bodied") { _ in StubResponse(string: body, statusCode: status) }
        let result = await fetch(request("https://api.test/x"), from: registry)
        let error = try #require(result.stubError)
        guard case .bodyNotAllowed(let code, let length, _) = error else {
            Issue.record("expected bodyNotAllowed, got \(error)")
            return
        }
        #expect(code == status && length == body.utf8.count)
        #expect("\(error)".contains("carries no body"), "\(error)")
        #expect(invalidStubSummaries(registry).count == 1)
    }

    /// An unnamed stub is described as `stub where …`: a message says "stub" once, and every
    /// sentence is whole.
    @Test func messagesSayAnUnnamedStubOnceAndInWholeSentences() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/x")) { _ in StubResponse(statusCode: 600) }
        registry.stub(isPath("/named"), name: "named") { _ in StubResponse(statusCode: 600) }
        let unnamed = try #require(await fetch(request("https://api.test/x"), from: registry).stubError)
        #expect("\(unnamed)".hasPrefix("URLStubs: stub where path is \"/x\" ("), "\(unnamed)")
        let named = try #require(await fetch(request("https://api.test/named"), from: registry).stubError)
        #expect("\(named)".hasPrefix("URLStubs: stub \"named\" ("), "\(named)")
        let summaries = invalidStubSummaries(registry)
        #expect(summaries.count == 2 && !summaries.contains { $0.contains("stub stub") }, "\(summaries)")
        let badValue = hasHeaderNamed("Accept", value: "json\r\nX-Evil: 1")
        #expect(badValue.problems.first?.hasSuffix("which no header value may hold") == true, "\(badValue.problems)")
    }

    @Test func aNoContentResponseWithoutABodyIsFine() async {
        let registry = StubRegistry()
        registry.stub(.delete, "https://api.test/items/1", statusCode: 204)
        let result = await fetch(request("https://api.test/items/1", method: "DELETE"), from: registry)
        #expect(result.statusCode == 204)
        #expect(registry.verify().isSuccess)
    }

    @Test func aHeaderNameOutsideTheTokenCharactersIsRefused() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/x"), name: "umlaut") { _ in StubResponse(string: "x", headers: ["X-Ü": "1"]) }
        let result = await fetch(request("https://api.test/x"), from: registry)
        guard case .invalidHeader(let name, _, _)? = result.stubError else {
            Issue.record("expected invalidHeader, got \(String(describing: result.error))")
            return
        }
        #expect(name == "X-Ü")
        #expect(invalidStubSummaries(registry).count == 1)
    }

    @Test func aHeaderMatcherNoRequestCanMeetIsRefusedWhenMade() {
        let badName = hasHeaderNamed("X-Ü")
        #expect(badName.problems.first?.contains("is not a header name") == true, "\(badName.problems)")
        let badValue = hasHeaderNamed("Accept", value: "json\r\nX-Evil: 1")
        #expect(badValue.problems.first?.contains("CR, LF or NUL") == true, "\(badValue.problems)")
        #expect(hasHeaderNamed("Accept", value: "application/json").problems.isEmpty)
        let registry = StubRegistry()
        registry.stub(badValue, name: "evil") { _ in StubResponse(statusCode: 200) }
        #expect(invalidStubSummaries(registry).first?.contains("invalid matcher") == true)
    }
}
