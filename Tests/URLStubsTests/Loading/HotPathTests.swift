import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs

/// What the per-request path shares between requests to stay cheap, pinned so that sharing
/// never changes what a request sees.
@Suite("Hot path")
struct HotPathTests {
    /// Requests started within one quarter second have their first timeout check at one
    /// moment, so the monitor's timer fires once for all of them; the check still comes
    /// within a second, and never before three quarters of one.
    @Test func firstTimeoutChecksShareAQuarterSecondGrid() {
        let start = DispatchTime.now().uptimeNanoseconds
        var moments = Set<UInt64>()
        for offset in stride(from: UInt64(0), to: 250_000_000, by: 1_000_000) {
            let now = DispatchTime(uptimeNanoseconds: start + offset)
            let check = ExchangePlayer.firstCheck(after: now).uptimeNanoseconds
            #expect(check % ExchangePlayer.firstCheckGrid == 0)
            #expect(check > now.uptimeNanoseconds + 750_000_000)
            #expect(check <= now.uptimeNanoseconds + 1_000_000_000)
            moments.insert(check)
        }
        #expect(moments.count <= 2)
    }

    /// A stub answering the same head again hands out the same `HTTPURLResponse` (Foundation
    /// spends most of a stubbed request building one); any difference in URL, status, header
    /// fields or body length gets a response of its own, with exactly its own head.
    @Test func equalHeadsShareOneHTTPURLResponse() async throws {
        let registry = StubRegistry()
        registry.stub(.get, "https://api.test/same", data: Data("one".utf8))
        registry.stub(isPath("/closure")) { request in
            let status = request.url?.query == "missing" ? 404 : 200
            return StubResponse(data: Data("two".utf8), statusCode: status, headers: ["X-Kind": "closure"])
        }
        let session = registry.makeSession()
        func head(_ url: String) async throws -> HTTPURLResponse {
            let (_, response) = try await session.data(from: URL(string: url)!)
            return try #require(response as? HTTPURLResponse)
        }
        let first = try await head("https://api.test/same")
        let second = try await head("https://api.test/same")
        #expect(first === second)
        #expect(first.statusCode == 200 && first.value(forHTTPHeaderField: "Content-Length") == "3")

        let closure = try await head("https://api.test/closure")
        #expect(try await head("https://api.test/closure") === closure)
        let otherURL = try await head("https://api.test/closure?x=1")
        let missing = try await head("https://api.test/closure?missing")
        #expect(otherURL !== closure && missing !== otherURL)
        #expect(otherURL.url?.absoluteString == "https://api.test/closure?x=1" && otherURL.statusCode == 200)
        #expect(missing.statusCode == 404 && missing.value(forHTTPHeaderField: "X-Kind") == "closure")
    }

    /// The method a matcher sees is the request's, uppercased: unchanged when it already is,
    /// and uppercased (Unicode included) when it is not.
    @Test func methodIsUppercasedOnlyWhenItNeedsIt() {
        func method(_ name: String?) -> String {
            var request = URLRequest(url: URL(string: "https://api.test/m")!)
            request.httpMethod = name
            return StubRequest(request).method
        }
        #expect(method(nil) == "GET")
        #expect(method("POST") == "POST")
        #expect(method("patch") == "PATCH")
        #expect(method("M-SEARCH") == "M-SEARCH")
        #expect(method("Ärger") == "ÄRGER")
    }
}
