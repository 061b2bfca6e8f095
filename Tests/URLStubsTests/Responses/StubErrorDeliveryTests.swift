import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// How a `StubError` reaches the app, as `StubError`'s documentation says: a stub's own
/// mistake arrives as the `StubError` itself; an unmatched request arrives as the `URLError`
/// app code handles, carrying the `StubError` underneath, which `StubError.from(_:)` reads; a
/// timeout is a plain `URLError(.timedOut)`.
@Suite("How a StubError reaches the app")
struct StubErrorDeliveryTests {
    @Test(arguments: FetchAPI.allCases)
    func aStubsMistakeArrivesAsTheStubErrorItself(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/x"), name: "impossible") { _ in StubResponse(statusCode: 600) }
        let result = await fetch(request("https://api.test/x"), from: registry, using: api)
        let error = try #require(result.error as? StubError, "\(api): \(String(describing: result.error))")
        #expect(StubError.from(error) == error)
    }

    @Test(arguments: FetchAPI.allCases)
    func anUnmatchedRequestArrivesAsAURLErrorCarryingTheStubError(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/users"), name: "users") { _ in StubResponse(statusCode: 204) }
        let result = await fetch(request("https://api.test/orders"), from: registry, using: api)
        let urlError = try #require(result.urlError, "\(api): \(String(describing: result.error))")
        #expect(urlError.code == .resourceUnavailable)
        #expect(result.error as? StubError == nil, "not the StubError itself")
        guard case .unmatchedRequest(let report)? = StubError.from(urlError) else {
            Issue.record("expected StubError.from to read .unmatchedRequest, got \(String(describing: StubError.from(urlError)))")
            return
        }
        #expect(report.contains("\"users\""), "\(report)")
        #expect(urlError.localizedDescription == report)
    }

    @Test func aTimeoutIsAPlainURLError() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/slow"), name: "silent") { _ in .neverResponding() }
        var slow = request("https://api.test/slow")
        slow.timeoutInterval = 0.3
        let result = await fetch(slow, from: registry)
        let urlError = try #require(result.urlError, "\(String(describing: result.error))")
        #expect(urlError.code == .timedOut)
        #expect(StubError.from(urlError) == nil)
    }

    @Test func theDocumentationSaysWhichErrorsArriveWrapped() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/URLStubs/Responses/StubError.swift").standardizedFileURL
        let text = try String(contentsOf: source, encoding: .utf8)
        let documentation =
            text.components(separatedBy: "public enum StubError")[0]
            .components(separatedBy: "\n\n").last ?? ""
        #expect(!documentation.contains("The task's error is this value itself"), "\(documentation)")
        for phrase in ["URLError(.resourceUnavailable)", "NSUnderlyingErrorKey", "``StubError/from(_:)``", "URLError(.timedOut)"] {
            #expect(documentation.contains(phrase), "\(phrase)")
        }
    }
}
