import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TestSupport
import URLStubs
import URLStubsServer
@testable import URLStubsWireMock

#if os(Linux) || os(macOS)
/// One mapping folder answers the same in process (a registry's session) and over the
/// loopback server (a plain URLSession, and curl): status, the mappings' headers, body, delay,
/// scenario steps and faults.
@Suite("WireMock: the same answers in process and over loopback")
struct SameAnswersTests {
    static let files: [String: String] = [
        "mappings/templated.json": #"""
        {"request": {"urlPathTemplate": "/hello/{name}"},
         "response": {"status": 201, "headers": {"X-Name": "{{request.path.name}}", "Content-Type": "text/plain"},
                      "body": "Hello {{request.path.name}}, page {{request.query.page}} ({{request.method}})",
                      "transformers": ["response-template"]}}
        """#,
        "mappings/file.json":
            #"{"request": {"urlPath": "/file"}, "response": {"bodyFileName": "data/file.json", "headers": {"Content-Type": "application/json"}}}"#,
        "__files/data/file.json": #"{"from": "a file"}"#,
        "mappings/json.json":
            #"{"request": {"method": "GET", "url": "/json?x=1"}, "response": {"jsonBody": {"b": [1, 2.50], "a": "text"}, "headers": {"X-Two": ["1", "2"]}}}"#,
        "mappings/slow.json": #"{"request": {"urlPath": "/slow"}, "response": {"body": "late", "fixedDelayMilliseconds": 150}}"#,
        "mappings/cart-empty.json": #"""
        {"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "filled",
         "request": {"method": "POST", "urlPath": "/cart"}, "response": {"status": 200, "body": "added"}}
        """#,
        "mappings/cart-get-started.json": #"""
        {"scenarioName": "cart", "requiredScenarioState": "Started", "request": {"urlPath": "/cart", "method": "GET"}, "response": {"body": "empty"}}
        """#,
        "mappings/cart-get-filled.json": #"""
        {"scenarioName": "cart", "requiredScenarioState": "filled", "request": {"urlPath": "/cart", "method": "GET"}, "response": {"body": "one item"}}
        """#,
        "mappings/fault.json": #"{"request": {"urlPath": "/broken"}, "response": {"fault": "EMPTY_RESPONSE"}}"#,
        "mappings/low.json": #"{"priority": 9, "request": {"urlPathPattern": "/hello/.*"}, "response": {"status": 404}}"#,
    ]

    /// What a client saw of one request, for comparing.
    struct Seen: Equatable, CustomStringConvertible {
        var status: Int?
        var headers: [String: String]
        var body: String
        var failed: Bool
        var description: String { "\(status.map(String.init) ?? "failed") \(headers) \(body)" }

        init(_ result: FetchResult) {
            status = result.statusCode
            failed = result.error != nil
            body = result.body
            // The mappings' own headers; framing fields are each transport's.
            var headers: [String: String] = [:]
            for name in ["Content-Type", "X-Name", "X-Two"] { headers[name] = result.response?.value(forHTTPHeaderField: name) }
            self.headers = headers
        }
    }

    static let requests: [(method: String, path: String)] = [
        ("GET", "/hello/ada?page=2"), ("POST", "/hello/bob?page=3"), ("GET", "/file"), ("GET", "/json?x=1"), ("GET", "/json?x=2"),
        ("GET", "/cart"), ("POST", "/cart"), ("GET", "/cart"), ("GET", "/slow"), ("GET", "/broken"), ("GET", "/missing"),
    ]

    @Test func oneFolderAnswersTheSameInProcessAndOverLoopback() async throws {
        let root = try DeclarationTests.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        let inProcess = StubRegistry()
        try inProcess.stubs(fromWireMock: root)
        let served = StubRegistry()
        try served.stubs(fromWireMock: root)
        let server = try served.serveWireMock()
        defer { server.stop() }
        let plain = URLSession(configuration: .ephemeral)
        defer { plain.invalidateAndCancel() }
        for (method, path) in Self.requests {
            let started = Date()
            let local = Seen(await fetch(request("https://api.test" + path, method: method), from: inProcess))
            let localTime = Date().timeIntervalSince(started)
            var overHTTP = URLRequest(url: URL(string: server.baseURL.absoluteString.trimmingCharacters(in: ["/"]) + path)!)
            overHTTP.httpMethod = method
            let remoteStart = Date()
            let remote = Seen(await fetchWithCompletionHandler(overHTTP, session: plain))
            let remoteTime = Date().timeIntervalSince(remoteStart)
            if path == "/missing" || path == "/json?x=2" {
                // Unmatched: a stub error in process, the near-miss 404 over HTTP.
                #expect(local.failed && remote.status == 404)
                continue
            }
            #expect(local == remote, "\(method) \(path): in process \(local), over loopback \(remote)")
            if path == "/slow" { #expect(localTime >= 0.14 && remoteTime >= 0.14, "\(localTime) \(remoteTime)") }
        }
        // curl sees the same body and status as URLSession.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { return }
        let curl = try await runChildProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            arguments: [
                "--silent", "--noproxy", "*", "--max-time", "20", "--write-out", " %{http_code}", server.url("/hello/cy").absoluteString + "?page=4",
            ],
            environment: ProcessInfo.processInfo.environment, timeLimit: 30)
        let local = await fetch(request("https://api.test/hello/cy?page=4"), from: inProcess)
        #expect(curl.output == local.body + " 201", "\(curl.output)")
    }
}
#endif
