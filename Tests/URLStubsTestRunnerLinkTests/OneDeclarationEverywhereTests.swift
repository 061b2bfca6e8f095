import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsTestRunnerLink
import URLStubsScenarios
import URLStubsServer
@testable import URLStubsTesting
@testable import TestSupport

/// One declaration, four ways in: registered in process, read from a scenario folder, sent over
/// the UI-test link, and posted to the loopback server. Each answers the same requests alike.
@Suite("One declaration everywhere")
struct OneDeclarationEverywhereTests {
    /// A declaration with a pattern of each kind a path-only client can send the same way, a
    /// sequence, repeated headers and a JSON body.
    static var declaration: StubDeclaration {
        var pattern = RequestPattern(method: "POST", path: .template("/carts/:id"))
        pattern.query["dry"] = .absent
        pattern.headers["Accept"] = .contains("json")
        pattern.body = [.json(["sku": "tea"], ignoreExtraElements: true)]
        let headers = HeaderFields([(name: "Set-Cookie", value: "a=1"), (name: "Set-Cookie", value: "b=2"), (name: "X-Cart", value: "7")])
        return StubDeclaration(
            name: "cart", request: pattern,
            response: ResponseDefinition(status: 201, headers: headers, body: .json(["id": 7, "items": ["tea"]])),
            followingResponses: [ResponseDefinition(status: 409, body: .text("sold out"))])
    }

    /// What a client sees of one answer, transport aside.
    struct Seen: Equatable, CustomStringConvertible {
        var status: Int?
        var body: String
        var cart: String?
        var cookies: String?
        var description: String { "\(status.map(String.init) ?? "no answer") \(body) X-Cart: \(cart ?? "-") Set-Cookie: \(cookies ?? "-")" }
    }

    static func requests(base: String) -> [URLRequest] {
        func post(_ path: String, _ body: String, accept: String) -> URLRequest {
            var request = URLRequest(url: URL(string: base + path)!)
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
            request.setValue(accept, forHTTPHeaderField: "Accept")
            return request
        }
        return [
            post("/carts/7", #"{"sku":"tea","n":1}"#, accept: "application/json"),
            post("/carts/7?dry=1", #"{"sku":"tea"}"#, accept: "application/json"),
            post("/carts/8", #"{"sku":"tea"}"#, accept: "text/html"),
            post("/carts/9", #"{"sku":"tea"}"#, accept: "application/json"),
            post("/carts/9", #"{"sku":"tea"}"#, accept: "application/json"),
        ]
    }

    static func seen(_ result: FetchResult) -> Seen {
        // An unmatched request is an error in process and the near-miss 404 over HTTP: both are
        // "no answer from the stub".
        guard let response = result.response, response.statusCode != 404 else { return Seen(status: nil, body: "") }
        return Seen(
            status: response.statusCode, body: result.body, cart: response.value(forHTTPHeaderField: "X-Cart"),
            cookies: response.value(forHTTPHeaderField: "Set-Cookie"))
    }

    static func answers(from registry: StubRegistry, base: String = "https://shop.test") async -> [Seen] {
        var seen: [Seen] = []
        for request in requests(base: base) { seen.append(Self.seen(await fetch(request, from: registry))) }
        return seen
    }

    @Test func theSameDeclarationAnswersAlikeInProcessFromAFolderOverTheLinkAndOverLoopback() async throws {
        // In process.
        let inProcess = StubRegistry()
        try inProcess.stub(Self.declaration)
        let expected = await Self.answers(from: inProcess)
        #expect(expected.map(\.status) == [201, nil, nil, 409, 409], "\(expected)")

        // From a scenario folder: the declaration written as a file.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("everywhere-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try JSONEncoder().encode([Self.declaration]).write(to: folder.appendingPathComponent("cart.stubs.json"))
        let fromFolder = StubRegistry()
        try fromFolder.stub(Scenario.declarations(inFolder: folder), relativeTo: folder)
        #expect(await Self.answers(from: fromFolder) == expected)

        // Over the UI-test link, into an app's registry.
        let backend = try AppBackend()
        defer { backend.close() }
        let app = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: app))
        try await backend.stub(Self.declaration)
        #expect(await Self.answers(from: app) == expected)

        // Over loopback: the declaration posted to the server's declarations route, and the
        // requests sent by a plain URLSession.
        let served = StubRegistry()
        let server = try served.serveDeclarations()
        defer { server.stop() }
        var post = URLRequest(url: server.url("/__urlstubs/declarations"))
        post.httpMethod = "POST"
        post.httpBody = try JSONEncoder().encode(Self.declaration)
        let session = URLSession(configuration: .ephemeral)
        let (_, created) = try await session.data(for: post)
        #expect((created as? HTTPURLResponse)?.statusCode == 201)
        var overLoopback: [Seen] = []
        let base = "http://127.0.0.1:\(server.port)"
        for request in Self.requests(base: base) {
            do {
                let (data, response) = try await session.data(for: request)
                var result = FetchResult()
                result.data = data
                result.response = response as? HTTPURLResponse
                overLoopback.append(Self.seen(result))
            } catch {
                overLoopback.append(Seen(status: nil, body: "\(error)"))
            }
        }
        #expect(overLoopback == expected)
    }
}
