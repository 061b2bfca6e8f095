import Foundation
import Testing
@testable import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// What the journal keeps of request bodies has a ceiling, per request and in total, however
/// many uploads a test makes over the server.
@Suite("Serving stubs: the journal's memory")
struct JournalMemoryTests {
    /// 12,000 POSTs of 32 KB: the journal keeps 64 MB of their bodies (the
    /// oldest entries say how large theirs were), the unmatched ledger at most 64 MB more.
    @Test func twelveThousandUploadsKeepABoundedJournal() async throws {
        let registry = StubRegistry()
        registry.stub(isMethod("POST")) { _ in StubResponse(string: "ok") }
        let server = try registry.serve()
        defer { server.stop() }
        // Matched: an unmatched request costs a near-miss report on the user-code threads the
        // whole test process shares; its entry goes through the same journal.
        let batches = 120
        try await offThePool {
            let connection = try RawConnection(port: server.port)
            let body = String(repeating: "x", count: 32 * 1024)
            for batch in 0..<batches {
                var text = ""
                for index in 0..<100 {
                    text += "POST /upload/\(batch)/\(index) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
                }
                try connection.send(text)
                for _ in 0..<100 { _ = try connection.readResponse(timeout: 30) }
            }
        }
        let journal = registry.journal
        let kept = journal.reduce(0) { $0 + ($1.request.body?.count ?? 0) }
        #expect(journal.count == min(10_000, batches * 100))
        #expect(kept <= 64 << 20, "the journal keeps \(kept >> 20) MB of bodies")
        #expect(journal.first?.cutBodySize == 32 * 1024)
        #expect(journal.last?.request.body?.count == 32 * 1024)
        let ledger = registry.unmatchedRequestGroups.groups.reduce(0) { $0 + ($1.first.request.body?.count ?? 0) }
        #expect(ledger <= 64 << 20, "unmatched requests keep \(ledger >> 20) MB of bodies")
    }

    /// Unmatched uploads of 2 MB keep 1 MB each for verification, which still reports them.
    @Test func unmatchedUploadsKeepAMegabyteEach() async throws {
        let registry = StubRegistry()
        let server = try registry.serve()
        defer { server.stop() }
        let statuses = try await offThePool {
            let connection = try RawConnection(port: server.port)
            let body = Data(repeating: 0x61, count: 2 << 20)
            return try (0..<3).map { index in
                try connection.send("POST /big/\(index) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.count)\r\n\r\n")
                try connection.send(body)
                return try connection.readResponse(timeout: 30).status
            }
        }
        #expect(statuses == [404, 404, 404])
        let groups = registry.unmatchedRequestGroups.groups
        #expect(groups.count == 3)
        #expect(groups.allSatisfy { $0.first.request.body?.count == 1 << 20 && $0.first.cutBodySize == 2 << 20 })
        let report = registry.verify()
        #expect(report.problems.count == 3, "\(report)")
    }
}
#endif
