import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// Every JSON builder writes a value the same way: JSON values with sorted keys first, an
/// `Encodable` value by its encoder otherwise.
@Suite("One JSON encoding order")
struct OneJSONOrderTests {
    struct Pet: Encodable {
        let name: String
        let born: Date
    }

    @Test func theBuildersWriteOneDictionaryToTheSameBytes() async throws {
        let value: [String: Int] = ["b": 1, "a": 2, "c": 3]
        let registry = StubRegistry()
        registry.stub(.get, "https://api.test/one-liner", json: value)
        registry.stub(isPath("/builder")) { _ in try StubResponse(json: value, encoder: JSONEncoder()) }
        try registry.stub(
            StubDeclaration(
                request: RequestPattern(path: .equalTo("/declared")), response: ResponseDefinition(body: .json(["b": 1, "a": 2, "c": 3]))))
        var bodies: [String] = []
        for path in ["/one-liner", "/builder", "/declared"] {
            bodies.append(await fetch(URLRequest(url: URL(string: "https://api.test\(path)")!), from: registry).body)
        }
        #expect(bodies == Array(repeating: #"{"a":2,"b":1,"c":3}"#, count: 3))
    }

    @Test func anEncodableThatIsNotMadeOfJSONValuesUsesItsEncoder() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        let response = try StubResponse(json: Pet(name: "Rex", born: Date(timeIntervalSince1970: 7)), encoder: encoder)
        #expect(response.body.data.map { String(decoding: $0, as: UTF8.self) } == #"{"born":7,"name":"Rex"}"#)
    }
}
