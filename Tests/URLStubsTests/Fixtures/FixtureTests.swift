import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

@Suite("Fixtures and HTTP message files")
struct FixtureTests {
    @Test(arguments: FetchAPI.allCases)
    func bundleFixtureIsServedWithItsContentType(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/catalog")) { _ in try StubResponse(fixture: "catalog.json", in: .module, subdirectory: "Resources") }
        registry.stub(isPath("/users")) { _ in try StubResponse(fixture: fixturesFolder.appendingPathComponent("users.json")) }
        let result = await fetch("https://api.test/catalog", from: registry, using: api)
        #expect(result.body.contains("kettle"))
        #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let users = await fetch("https://api.test/users", from: registry, using: api)
        #expect(users.data == (try Data(contentsOf: fixturesFolder.appendingPathComponent("users.json"))))
    }

    @Test func missingFixtureNamesFileFolderAndClosestNames() async {
        let registry = StubRegistry()
        registry.stub(isPath("/users")) { _ in try StubResponse(fixture: "catalogue.json", in: .module, subdirectory: "Resources") }
        let result = await fetch("https://api.test/users", from: registry)
        guard let error = result.error as? FixtureError else {
            Issue.record("expected FixtureError, got \(String(describing: result.error))")
            return
        }
        #expect(error.source == "catalogue.json")
        #expect(error.searchedPath.hasSuffix("Resources"))
        #expect(error.suggestions.first == "catalog.json")
        #expect(error.description.contains("Did you mean \"catalog.json\""))
        #expect(throws: FixtureError.self) { try StubResponse(fixture: fixturesFolder.appendingPathComponent("user.json")) }
    }

    @Test(arguments: FetchAPI.allCases)
    func responseFileWithCRLFAndSeveralCookies(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/users")) { _ in try StubResponse(fixture: fixturesFolder.appendingPathComponent("users.response")) }
        let configuration = URLSessionConfiguration.ephemeral
        let result: FetchResult
        if api == .delegate {
            result = await fetch(request("https://api.test/users"), from: registry, using: api)
        } else {
            let session = registry.makeSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            result = await fetchWithCompletionHandler(request("https://api.test/users"), session: session)
            let names = configuration.httpCookieStorage?.cookies(for: URL(string: "https://api.test/")!)?.map(\.name).sorted()
            #expect(names == ["session", "theme"])
        }
        #expect(result.body == #"{"users":[{"name":"Ada"}]}"#, "the editor's final newline is not part of the body")
        #expect(result.statusCode == 200)
        #expect(result.response?.value(forHTTPHeaderField: "X-Request-Id") == "42")
    }

    @Test func lfOnlyHTTP2FileWithFoldedHeader() throws {
        let response = try StubResponse(fixture: fixturesFolder.appendingPathComponent("lf-only.response"))
        #expect(response.statusCode == 404)
        #expect(response.body.data == Data("not here".utf8))
        #expect(response.headers["x-folded"] == "first second")
    }

    @Test func emptyBodyAndInterimBlocks() throws {
        let empty = try StubResponse(fixture: fixturesFolder.appendingPathComponent("empty-body.response"))
        #expect(empty.statusCode == 204)
        #expect(empty.body.data?.isEmpty == true)
        let created = try StubResponse(fixture: fixturesFolder.appendingPathComponent("continue.response"))
        #expect(created.statusCode == 201)
        #expect(created.body.data == Data("{}".utf8))
        let chain = try StubResponse(fixture: fixturesFolder.appendingPathComponent("redirect-chain.response"))
        #expect(chain.statusCode == 200)
        #expect(chain.body.data == Data("final".utf8))
    }

    @Test func binaryBodyIsKeptByteForByte() async throws {
        let binary = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var file = Data("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n".utf8)
        file.append(binary)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("binary-\(UUID().uuidString).response")
        try file.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let registry = StubRegistry()
        registry.stub(.any) { _ in try StubResponse(fixture: url) }
        #expect(await fetch("https://api.test/blob", from: registry, using: .asyncData).data == binary)
    }

    @Test(arguments: [
        ("truncated-status.response", 1, "a 3-digit status code"),
        ("bad-header.response", 3, #"a header line "Name: value""#),
        ("wrong-length.response", 4, "a body of 10 bytes"),
        ("bad-status-code.response", 1, "a status code from 100 to 599"),
    ])
    func malformedResponseFilesSayWhereAndWhat(file: String, line: Int, expected: String) {
        #expect {
            try StubResponse(fixture: fixturesFolder.appendingPathComponent("Malformed/\(file)"))
        } throws: { error in
            guard let error = error as? FixtureError else { return false }
            return error.source == file && error.line == line && error.expected.contains(expected)
                && error.description.hasPrefix("\(file):\(line): expected")
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func curlCompressedBodyLosesItsStaleEncodingHeaders(api: FetchAPI) async throws {
        // `curl -is --compressed` prints the decoded body under the compressed Content-Length.
        let json = #"{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]}"#
        let file = "HTTP/2 200\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: 61\r\n\r\n" + json
        let response = try StubResponse(httpMessageData: Data(file.utf8), source: "users-compressed.response")
        let registry = StubRegistry()
        registry.stub(isPath("/users")) { _ in response }
        let result = await fetch("https://api.test/users", from: registry, using: api)
        #expect(result.body == json)
        #expect(result.response?.value(forHTTPHeaderField: "Content-Encoding") == nil)
        #expect(result.response?.value(forHTTPHeaderField: "Content-Length") == String(json.utf8.count))
        #expect(result.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func stillCompressedBodyIsAnErrorNamingTheFix() {
        var file = Data("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 12\r\n\r\n".utf8)
        file.append(contentsOf: [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03, 0x03, 0x00])
        #expect {
            try StubResponse(httpMessageData: file, source: "gzip.response")
        } throws: { error in
            guard let error = error as? FixtureError else { return false }
            return error.source == "gzip.response" && error.line == 5 && error.expected.contains("--compressed")
                && error.found.hasPrefix("gzip-compressed bytes")
        }
    }

    @Test func rawChunkedBodyIsDecoded() throws {
        let raw = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;name=value\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
        let response = try StubResponse(httpMessageData: Data(raw.utf8), source: "raw.response")
        #expect(response.body.data == Data("hello world".utf8))
        #expect(response.headers["Transfer-Encoding"] == nil)
        // curl's usual output: the header stays, the body is already decoded and kept as it is.
        let decoded = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nnot really chunks"
        #expect(try StubResponse(httpMessageData: Data(decoded.utf8)).body.data == Data("5\r\nnot really chunks".utf8))
    }

    /// Found by fuzzing: a signed chunk size (`-5`) made an inverted range and trapped. A body
    /// that is not a run of chunks is kept as it is.
    @Test func signedChunkSizeIsNotAChunk() throws {
        for size in ["-5", "+5"] {
            let raw = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nhello\r\n0\r\n\r\n"
            let response = try StubResponse(httpMessageData: Data(raw.utf8), source: "signed.response")
            #expect(response.body.data == Data("\(size)\r\nhello\r\n0\r\n\r\n".utf8))
        }
    }

    @Test func emptyResponseFileIsAnError() {
        #expect {
            try StubResponse(httpMessageData: Data(), source: "x")
        } throws: { error in
            (error as? FixtureError)?.description == #"x:1: expected a status line like "HTTP/1.1 200 OK", found an empty file"#
        }
    }
}
