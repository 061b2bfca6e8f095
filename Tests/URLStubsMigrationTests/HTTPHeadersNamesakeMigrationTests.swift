import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPHeadersNamesake
import Testing
import URLStubsMigration
import URLStubsTesting

// A test file that imports a module declaring its own public `HTTPHeaders` (as Alamofire and
// NIOHTTP1 do) beside URLStubsTesting and URLStubsMigration: `HTTPHeaders` still names that
// module's type (URLStubsMigration declares no alias of the old name), and a port's
// `[String: String]` helper still builds a response. That this file compiles is most of the
// test. (URLStubsTests holds the same file without URLStubsMigration.)

@Suite("A module's own HTTPHeaders beside URLStubsTesting and URLStubsMigration")
struct HTTPHeadersNamesakeMigrationTests {
    @Test func httpHeadersNamesTheOtherModulesTypeAndHeaderFieldsOurs() throws {
        let theirs: HTTPHeaders = ["Accept": "application/json"]
        let ours = HeaderFields(theirs.dictionary)
        let response = StubResponse(data: Data("ok".utf8), headers: ours)
        #expect(response.headers["accept"] == "application/json")
        let literal = StubResponse(data: Data(), statusCode: 204, headers: ["B": "1", "A": "2"])
        #expect(literal.headers.map(\.name) == ["B", "A"])
    }

    @available(*, deprecated, message: "passes a [String: String], the deprecated spelling")
    @Test func theOtherModulesHeadersPassThroughAsADictionary() {
        let theirs: HTTPHeaders = ["Accept": "application/json", "X-Trace": "1"]
        let response = StubResponse(data: Data("ok".utf8), headers: theirs.dictionary)
        #expect(response.headers.map(\.name) == ["Accept", "X-Trace"])
    }
}
