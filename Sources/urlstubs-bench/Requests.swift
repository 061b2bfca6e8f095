import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubsGraphQL
import URLStubs

/// The body every per-request scenario answers with.
let oneKilobyte = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

/// The floor of the URLProtocol approach: claims every request and answers inline, inside
/// `startLoading`, with a fixed 1 KB body.
final class BaselineURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        answerOneKilobyte(self)
    }

    override func stopLoading() {}
}

/// Answers `loading`'s request inline: status 200, `Content-Length: 1024`, the 1 KB body.
func answerOneKilobyte(_ loading: URLProtocol) {
    let response = HTTPURLResponse(
        url: loading.request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "1024"])!
    loading.client?.urlProtocol(loading, didReceive: response, cacheStoragePolicy: .notAllowed)
    loading.client?.urlProtocol(loading, didLoad: oneKilobyte)
    loading.client?.urlProtocolDidFinishLoading(loading)
}

/// A per-request scenario: a session and the request it repeats.
struct RequestScenario {
    let name: String
    let session: URLSession
    let request: URLRequest

    /// Runs `count` sequential async requests; returns wall-clock and process CPU µs per request.
    func run(_ count: Int) async throws -> (wall: Double, cpu: Double) {
        let start = now()
        let cpuStart = processCPUTime()
        for _ in 0..<count {
            let (data, response) = try await session.data(for: request)
            guard data.count == 1024, (response as? HTTPURLResponse)?.statusCode == 200 else {
                throw BenchError("\(name): got \(data.count) bytes, status \((response as? HTTPURLResponse)?.statusCode ?? -1)")
            }
        }
        return ((now() - start) / Double(count) * 1e6, (processCPUTime() - cpuStart) / Double(count) * 1e6)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let benchURL = URL(string: "https://api.bench.local/v1/items/42")!

/// The configuration of a session made by URLStubs' `makeSession()`, so that every
/// scenario differs only in who answers (the protocol classes).
func sessionConfiguration(protocolClasses: [AnyClass]?) -> URLSessionConfiguration {
    let registry = StubRegistry()
    let configuration = registry.makeSession().configuration.copy() as! URLSessionConfiguration
    configuration.protocolClasses = protocolClasses
    return configuration
}

func baselineScenario() -> RequestScenario {
    let configuration = sessionConfiguration(protocolClasses: [BaselineURLProtocol.self])
    return RequestScenario(
        name: "baseline", session: URLSession(configuration: configuration),
        request: URLRequest(url: benchURL))
}

/// URLStubs with one stub, or with `others` other stubs registered after it (each on its own
/// host and path, so a linear scan newest-first would evaluate all of them first).
func stubbedScenario(name: String, others: Int) -> (RequestScenario, StubRegistry) {
    let registry = StubRegistry()
    registry.stub(isHost("api.bench.local") && isPath("/v1/items/42"), name: "bench item") { _ in
        StubResponse(data: oneKilobyte)
    }
    for index in 0..<others {
        let matcher: RequestMatcher
        switch index % 4 {
        case 0: matcher = isHost("api\(index).example.com") && isPath("/v1/items/\(index)")
        case 1: matcher = isHost("api.bench.local") && isPath("/v1/other/\(index)")
        case 2: matcher = isMethod(.get) && isHost("host\(index).example.org")
        default: matcher = isPath("/v2/things/\(index)")
        }
        registry.stub(matcher, name: "other \(index)") { _ in StubResponse(data: Data("x".utf8)) }
    }
    let session = registry.makeSession()
    return (RequestScenario(name: name, session: session, request: URLRequest(url: benchURL)), registry)
}

/// URLStubs with one one-line stub, the spelling newcomers start with: a response known when
/// the stub is added, answered without leaving the loading context.
func constantScenario(name: String) -> (RequestScenario, StubRegistry) {
    let registry = StubRegistry()
    registry.stub(.get, benchURL.absoluteString, data: oneKilobyte)
    return (RequestScenario(name: name, session: registry.makeSession(), request: URLRequest(url: benchURL)), registry)
}

/// URLStubs with its stub among 10,000 others on the same host and path, all newer than it,
/// told apart by method, query parameter, JSON body or GraphQL operation: a lookup that
/// scanned the path's stubs would evaluate every one of them first.
func sharedPathScenario(name: String) -> (RequestScenario, StubRegistry) {
    let registry = StubRegistry()
    let endpoint = isHost("api.bench.local") && isPath("/v1/shared")
    registry.stub(endpoint && isMethod(.get) && containsQueryParams(["item": "42"]), name: "bench item") { _ in
        StubResponse(data: oneKilobyte)
    }
    let methods = ["PUT", "PATCH", "DELETE"]
    for index in 0..<10_000 {
        let matcher: RequestMatcher
        switch index % 4 {
        case 0: matcher = endpoint && isMethod(StubRequest.Method(rawValue: methods[(index / 4) % methods.count]))
        case 1: matcher = endpoint && isMethod(.get) && containsQueryParams(["item": "other\(index)"])
        case 2: matcher = endpoint && isMethod(.post) && hasJSONBody(["item": index])
        default: matcher = endpoint && isMethod(.post) && isGraphQLOperation("Operation\(index)")
        }
        registry.stub(matcher, name: "other \(index)") { _ in StubResponse(data: Data("x".utf8)) }
    }
    let url = URL(string: "https://api.bench.local/v1/shared?item=42")!
    return (RequestScenario(name: name, session: registry.makeSession(), request: URLRequest(url: url)), registry)
}
