import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsMigration
import URLStubsStreaming
@testable import TestSupport

/// A 0.1 (or OHHTTPStubs, or Mocker) port passes a `[String: String]` value as `headers:`; with
/// `import URLStubsMigration` that still builds every kind of response, deprecated. A dictionary
/// LITERAL still chooses the `HeaderFields` spelling: no deprecation warning (CI builds the tests
/// with warnings as failures, and this file calls it outside any deprecated context), order and
/// repeated names kept (a `Dictionary` would sort the names, and trap on a repeated one).
@Suite("Headers from a [String: String] value, with URLStubsMigration")
struct HeaderDictionaryTests {
    /// The helper every port has: a status and a header dictionary it was handed.
    @available(*, deprecated, message: "passes a [String: String], the deprecated spelling")
    private static func portedResponse(statusCode: Int, headers: [String: String]) -> StubResponse {
        StubResponse(data: Data("{}".utf8), statusCode: statusCode, headers: headers)
    }

    private static let dictionary: [String: String] = ["X-Trace": "t1", "Content-Type": "application/vnd.test+json"]
    private static let expected = HeaderFields(dictionary)

    private static func bodyFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("header-dictionary-\(UUID().uuidString).json")
        try Data("{\"ok\":true}".utf8).write(to: url)
        return url
    }

    @available(*, deprecated, message: "passes a [String: String], the deprecated spelling")
    @Test func aDictionaryValueBuildsEveryKindOfResponse() throws {
        let headers = Self.dictionary
        let file = try Self.bodyFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let responses: [(String, StubResponse)] = [
            ("data:", StubResponse(data: Data(), statusCode: 201, headers: headers)),
            ("string:", StubResponse(string: "hi", headers: headers)),
            ("json:", try StubResponse(json: ["a": 1], headers: headers)),
            ("fixture: url", try StubResponse(fixture: file, headers: headers)),
            ("stream(_:)", .stream(LiveStream(), headers: headers)),
            ("stream(script:)", .stream(script: [.data(Data("x".utf8))], headers: headers)),
            ("fileAt:", StubResponse(fileAt: file, headers: headers)),
            ("jsonObject:", try StubResponse(jsonObject: ["a": 1], headers: headers)),
            ("graphQLData:", StubResponse(graphQLData: ["a": 1], headers: headers)),
            ("stream(length:)", .stream(length: 1, headers: headers) { InputStream(data: Data("x".utf8)) }),
        ]
        for (builder, response) in responses {
            #expect(response.headers == Self.expected, "\(builder)")
        }
        let live = StubResponse.eventStream(LiveStream(), headers: headers)
        #expect(live.headers["X-Trace"] == "t1")
        let script = StubResponse.eventStream(script: [], headers: headers)
        #expect(script.headers["X-Trace"] == "t1")
        #expect(Self.portedResponse(statusCode: 202, headers: headers).statusCode == 202)
    }

    @available(*, deprecated, message: "passes a [String: String], the deprecated spelling")
    @Test func aDictionaryValueReachesTheAppThroughEveryOneLineStub() async throws {
        let registry = StubRegistry()
        let headers = Self.dictionary
        registry.stub(.get, "https://api.test/json", headers: headers, json: ["a": 1])
        registry.stub(.get, "https://api.test/data", headers: headers, data: Data("d".utf8))
        registry.stub(isPath("/ported")) { _ in Self.portedResponse(statusCode: 200, headers: headers) }
        for path in ["/json", "/data", "/ported"] {
            let result = await fetch(request("https://api.test" + path), from: registry)
            #expect(result.response?.value(forHTTPHeaderField: "X-Trace") == "t1", "\(path)")
        }
        let json = await fetch(request("https://api.test/json"), from: registry)
        #expect(json.response?.value(forHTTPHeaderField: "Content-Type") == "application/vnd.test+json")
    }

    /// Not deprecated: a literal that picked a `[String: String]` overload would warn here, sort
    /// the names and trap on the repeated `Set-Cookie`.
    @Test func aDictionaryLiteralStillChoosesHeaderFields() throws {
        let file = try Self.bodyFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let responses: [(String, StubResponse)] = [
            ("data:", StubResponse(data: Data(), statusCode: 201, headers: ["B": "1", "Set-Cookie": "a=1", "Set-Cookie": "b=2"])),
            ("string:", StubResponse(string: "hi", headers: ["B": "1", "Set-Cookie": "a=1", "Set-Cookie": "b=2"])),
            ("json:", try StubResponse(json: ["a": 1], headers: ["B": "1", "Set-Cookie": "a=1", "Set-Cookie": "b=2"])),
            ("fixture:", try StubResponse(fixture: file, headers: ["B": "1", "Set-Cookie": "a=1", "Set-Cookie": "b=2"])),
            ("stream(_:)", .stream(LiveStream(), headers: ["B": "1", "Set-Cookie": "a=1", "Set-Cookie": "b=2"])),
            ("stream(script:)", .stream(script: [], headers: ["B": "1", "Set-Cookie": "a=1", "Set-Cookie": "b=2"])),
        ]
        for (builder, response) in responses {
            #expect(response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"], "\(builder)")
            #expect(response.headers.first?.name == "B", "\(builder)")
        }
        let empty = StubResponse(data: Data(), headers: [:])
        #expect(empty.headers.isEmpty)
        let registry = StubRegistry()
        registry.stub(.get, "https://api.test/a", headers: ["B": "1", "Set-Cookie": "a=1", "Set-Cookie": "b=2"], data: Data())
        registry.stub(.get, "https://api.test/b", headers: ["B": "1", "Set-Cookie": "a=1", "Set-Cookie": "b=2"], json: [1])
        #expect(registry.stubs.count == 2)
    }
}
