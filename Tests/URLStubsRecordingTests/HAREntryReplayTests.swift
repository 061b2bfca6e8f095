import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
@testable import TestSupport

/// `stubs(fromHAREntries:)` with nothing but the public imports of the recording library: entries
/// built in code replay through a real session, matched by method, URL (query in any order) and
/// body, and a recording's unused entries are reported when asked.
@Suite("Replaying HAR entries")
struct HAREntryReplayTests {
    @Test(arguments: FetchAPI.allCases)
    func entriesBuiltInCodeReplayThroughASession(api: FetchAPI) async throws {
        let entries = [
            HAREntry(
                method: "GET", url: URL(string: "https://replay.test/users?page=1&sort=name")!, status: 200,
                responseHeaders: ["Content-Type": "application/json", "Content-Length": "999"],
                responseBody: Data(#"{"users":["ada"]}"#.utf8)),
            HAREntry(
                method: "POST", url: URL(string: "https://replay.test/users")!, requestHeaders: ["Content-Type": "application/json"],
                requestBody: Data(#"{"name":"grace"}"#.utf8), status: 201, responseBody: Data("created".utf8)),
            HAREntry(method: "GET", url: URL(string: "https://replay.test/never")!, status: 204),
        ]
        var options = HARReplayOptions()
        options.reportsUnusedEntries = true
        let registry = StubRegistry()
        let stubs = registry.stubs(fromHAREntries: entries, named: "users.har", options: options)
        #expect(
            stubs.map(\.name) == [
                "users.har: GET https://replay.test/users?page=1&sort=name", "users.har: POST https://replay.test/users",
                "users.har: GET https://replay.test/never",
            ])
        let list = await fetch("https://replay.test/users?sort=name&page=1", from: registry, using: api)
        #expect(list.statusCode == 200)
        #expect(list.body == #"{"users":["ada"]}"#, "query order does not matter")
        #expect(
            list.response?.value(forHTTPHeaderField: "Content-Length") == "\(#"{"users":["ada"]}"#.utf8.count)", "the recorded length is not replayed"
        )
        let created = await fetch(
            request(
                "https://replay.test/users", method: "POST", body: Data(#"{ "name": "grace" }"#.utf8), headers: ["Content-Type": "application/json"]),
            from: registry, using: api)
        #expect(created.statusCode == 201)
        #expect(created.body == "created", "JSON bodies compare by value")
        let other = await fetch(
            request(
                "https://replay.test/users", method: "POST", body: Data(#"{"name":"linus"}"#.utf8), headers: ["Content-Type": "application/json"]),
            from: registry, using: api)
        guard case .unmatchedRequest(let report)? = other.stubError else {
            Issue.record("expected an unmatched request, got \(String(describing: other.error))"); return
        }
        #expect(report.contains("users.har: POST https://replay.test/users"), "\(report)")
        let unused = registry.verify().problems.filter { $0.kind == .unusedRecordedEntry }.map(\.summary)
        #expect(unused.count == 1, "only the entry never asked for is reported: \(unused)")
        #expect(unused.first?.contains("GET https://replay.test/never") == true, "\(unused)")
    }
}
