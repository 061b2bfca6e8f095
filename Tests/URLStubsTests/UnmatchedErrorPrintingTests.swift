import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// The error of an unmatched request stays a `URLError` (app code handles those), and every
/// way of printing it shows the near-miss report once.
@Suite("Printing the unmatched-request error")
struct UnmatchedErrorPrintingTests {
    private func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test(arguments: FetchAPI.allCases)
    func printedErrorShowsTheReportOnce(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isHost("api.myapp.test") && isPath("/users") && containsQueryParams(["page": "1"]), name: "first page") { _ in
            StubResponse(data: Data("[]".utf8))
        }
        let result = await fetch("https://api.myapp.test/users?page=2", from: registry, using: api)
        let error = try #require(result.error)
        let urlError = try #require(error as? URLError, "still a URLError: app code handles those")
        #expect(urlError.code == .resourceUnavailable)
        let report = try #require(
            StubError.from(error).flatMap { error -> String? in
                if case .unmatchedRequest(let report) = error { return report }
                return nil
            })
        #expect(error.localizedDescription == report)

        // (On Linux, `error as NSError` builds a new NSError from the user info, whose
        // description is Foundation's dump; the report is its localized description.)
        #expect((error as NSError).localizedDescription == report)
        for printed in [String(describing: error), "\(error)", String(describing: urlError), String(reflecting: error)] {
            #expect(
                printed.hasPrefix("URLError(.resourceUnavailable): URLStubs: no stub matches GET https://api.myapp.test/users?page=2"),
                "\(printed)")
            #expect(occurrences(of: "no stub matches", in: printed) == 1, "\(printed)")
            #expect(occurrences(of: "Closest stubs:", in: printed) == 1)
            #expect(printed.contains("\"first page\""))
            #expect(!printed.contains("UserInfo="), "no dump of the user info")
        }
        // What `print(error)` writes, line by line: the report, readable as it is.
        var printed = ""
        print(error, to: &printed)
        #expect(printed == "URLError(.resourceUnavailable): \(report)\n")
    }

    @Test func errorKeepsItsFailingURLAndUnderlyingStubError() async throws {
        let registry = StubRegistry()
        let result = await fetch("https://api.test/nothing", from: registry)
        let urlError = try #require(result.urlError)
        #expect(urlError.failingURL == URL(string: "https://api.test/nothing"))
        guard case .unmatchedRequest? = StubError.from(urlError) else {
            Issue.record("no StubError under NSUnderlyingErrorKey: \(urlError)")
            return
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func theSnippetOfARequestWithAScrubbedQueryValueMatchesItWhenPasted(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/elsewhere")) { _ in StubResponse(statusCode: 204) }
        let url = "https://api.test/users/1?token=QUERYSECRET456&page=1"
        let first = await fetch(url, from: registry, using: api)
        guard case .unmatchedRequest(let report)? = first.stubError else {
            Issue.record("expected an unmatched request, got \(String(describing: first.error))")
            return
        }
        #expect(!report.contains("QUERYSECRET456"))
        #expect(
            report.contains(#"containsQueryParams(["token": nil, "page": "1"])"#),
            "a scrubbed value is written nil, present with any value:\n\(report)")
        // The snippet, pasted as printed, answers the request.
        registry.stub(isMethod(.get) && isHost("api.test") && isPath("/users/1") && containsQueryParams(["token": nil, "page": "1"])) { _ in
            StubResponse(statusCode: 200)
        }
        #expect(await fetch(url, from: registry, using: api).statusCode == 200)
    }
}
