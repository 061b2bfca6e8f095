import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Where a server's passthroughs go: only to the upstream its test names, as a reverse proxy
/// does, never to the host a request names (that would make the server an open proxy for any
/// page or process on the machine) and never back to a stub server.
///
/// The request sent keeps the client's method, fields and body; its URL is the upstream's
/// base with the request's path and query appended; the fields that belong to one hop
/// (`Host`, `Connection`, …) are left for the loader to set; `Via` names the stub server, and a
/// request that already passed one is not passed on again (two servers that are each other's
/// upstream answer in one hop, not forever).
enum ServerUpstream {
    /// The `Via` entry a stub server adds to what it passes on.
    static let via = "1.1 URLStubsServer"

    private static let hopFields = [
        "Host", "Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authorization", "TE", "Trailer", "Transfer-Encoding",
        "Upgrade", "Content-Length", "Expect",
    ]

    /// The request to send upstream for `stubRequest` (`outgoing` is it with its body).
    /// - Throws: ``URLStubs/StubError/unmatchedRequest(report:)`` with the near-miss report
    ///   when there is no upstream or the request came from a stub server.
    static func request(
        for stubRequest: StubRequest, _ outgoing: URLRequest, upstream: URL?, registry: StubRegistry
    ) throws -> URLRequest {
        let cameThroughAServer = stubRequest.headers["Via"]?.contains("URLStubsServer") == true
        guard let upstream, !cameThroughAServer else {
            let why =
                cameThroughAServer
                ? "URLStubs: the stub server does not pass this request on: it came from a stub server already (its Via field says so), and passing it on could loop."
                : "URLStubs: the stub server passes a request to the network only to an upstream the test names, serve(upstream: URL(string: \"https://api.example.com\")!), and none is named."
            throw StubError.unmatchedRequest(report: why + "\n" + registry.nearMissReport(for: stubRequest))
        }
        var request = outgoing
        request.url = url(upstream, appending: outgoing.url)
        for name in hopFields { request.setValue(nil, forHTTPHeaderField: name) }
        let passedThrough = outgoing.value(forHTTPHeaderField: "Via").map { $0 + ", " + Self.via } ?? Self.via
        request.setValue(passedThrough, forHTTPHeaderField: "Via")
        return request
    }

    /// `base` with the path and query of `url`: `https://api.test/v2` and `/users?page=2` make
    /// `https://api.test/v2/users?page=2`.
    static func url(_ base: URL, appending url: URL?) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return base }
        let asked = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        var basePath = components.percentEncodedPath
        if basePath.hasSuffix("/") { basePath.removeLast() }
        let path = asked?.percentEncodedPath ?? ""
        components.percentEncodedPath = basePath + (path.hasPrefix("/") ? path : "/" + path)
        components.percentEncodedQuery = asked?.percentEncodedQuery
        return components.url ?? base
    }

    /// `true` when `upstream` is the server on `port` itself.
    static func isServerItself(_ upstream: URL, port: UInt16) -> Bool {
        guard let host = upstream.host?.lowercased() else { return false }
        let own = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        let upstreamPort = upstream.port ?? (upstream.scheme?.lowercased() == "https" ? 443 : 80)
        return own && upstreamPort == Int(port)
    }
}
