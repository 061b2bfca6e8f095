import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPHeadersNamesake
import Testing
import URLStubsTesting

// A test file that imports a module declaring its own public `HTTPHeaders` (as Alamofire and
// NIOHTTP1 do) beside URLStubsTesting: `HTTPHeaders` names that module's type, and URLStubs'
// header fields are `HeaderFields`. That this file compiles is most of the test.
// (URLStubsMigrationTests holds the same file with URLStubsMigration imported too.)

@Suite("A module's own HTTPHeaders beside URLStubsTesting")
struct HTTPHeadersNamesakeTests {
    @Test func httpHeadersNamesTheOtherModulesTypeAndHeaderFieldsOurs() throws {
        let theirs: HTTPHeaders = ["Accept": "application/json"]
        let ours = HeaderFields(theirs.dictionary)
        let response = StubResponse(data: Data("ok".utf8), headers: ours)
        #expect(response.headers["accept"] == "application/json")
        let literal = StubResponse(data: Data(), statusCode: 204, headers: ["B": "1", "A": "2"])
        #expect(literal.headers.map(\.name) == ["B", "A"])
        let back = HTTPHeaders(Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }))
        #expect(back == theirs)
    }
}
