import Foundation
import URLStubs

/// A part of the server's URL space answered by code of this package rather than by the
/// registry's stubs: URLStubsWireMock's admin API under `/__admin/`. A route sees a request
/// only after the server's access rules let it through (``ServerAccess``), so it is as
/// loopback-only and Host- and Origin-checked as a stub.
package protocol ServerRoute: Sendable {
    /// The path prefix the route answers (`/__admin/`); the first route whose prefix starts
    /// the request's path answers it.
    var pathPrefix: String { get }
    /// The answer to one request: status, header fields and body. Runs on the connection's
    /// queue: it must not block.
    func answer(method: String, target: String, headers: [(name: String, value: String)], body: Data) -> ServerRouteReply
}

/// What a ``ServerRoute`` answers.
package struct ServerRouteReply: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Data

    package init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The whole answer on the wire (no body for a `HEAD` request).
    func bytes(closes: Bool, headRequest: Bool) -> [UInt8] {
        var fields = headers.filter { !$0.name.equalsIgnoringASCIICase("Content-Length") && !$0.name.equalsIgnoringASCIICase("Connection") }
        fields.append(("Content-Length", String(body.count)))
        if closes { fields.append(("Connection", "close")) }
        var bytes = WireAnswer.head(status: status, fields: fields)
        if !headRequest { bytes += body }
        return bytes
    }
}

extension StubRegistry {
    /// ``serve(port:alsoOnIPv6:upstream:allowedHosts:allowedOrigins:limits:)`` with `routes`
    /// answering their part of the URL space before the stubs.
    package func serve(
        port: UInt16 = 0, alsoOnIPv6: Bool = false, upstream: URL? = nil, allowedHosts: [String] = [], allowedOrigins: [String] = [],
        limits: StubServer.Limits = StubServer.Limits(), routes: [any ServerRoute]
    ) throws -> StubServer {
        var access = ServerAccess(upstream: upstream, allowedHosts: allowedHosts, allowedOrigins: allowedOrigins)
        access.routes = routes
        return try StubServer(registry: self, port: port, alsoOnIPv6: alsoOnIPv6, access: access, limits: limits)
    }
}
