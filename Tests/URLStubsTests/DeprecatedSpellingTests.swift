import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs

@Suite("Deprecated spellings still compile and forward")
struct DeprecatedSpellingTests {
    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func ohhttpstubsJSONSpelling() {
        let request = StubRequest(URLRequest(url: URL(string: "https://a.test/")!), body: Data("{\"a\":1}".utf8))
        #expect(hasJsonBody(["a": 1]).matches(request))
    }
}
