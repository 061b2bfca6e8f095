import Foundation
import URLStubs
import URLStubsServer

extension StubRegistry {
    /// Serves this registry over the loopback server with WireMock's admin API under
    /// `/__admin/`, so existing WireMock clients (curl, Python's `wiremock`, a Swift client in a
    /// UI test) drive it unchanged; every other path is answered by the stubs.
    ///
    /// ```swift
    /// let server = try registry.serveWireMock(token: "s3cret")
    /// // POST \(server.baseURL)/__admin/mappings with a mapping, then request what it stubs.
    /// ```
    ///
    /// The admin API is off unless the server is started this way. It is loopback-only and
    /// obeys the server's `Host` and `Origin` rules like every stub; with a `token`, an admin
    /// request must send `Authorization: Token <token>` (or `Bearer`) or gets `401`.
    /// - Parameters:
    ///   - token: The admin token, or `nil` for none.
    ///   - files: The `__files/` folder where mappings posted find their `bodyFileName`.
    ///   - port: The port on 127.0.0.1; 0 lets the system pick one.
    ///   - upstream: Where passthroughs go (see the server's `serve`).
    ///   - allowedHosts: Names besides the server's own a `Host` may give.
    ///   - allowedOrigins: Web origins whose pages may call the server.
    ///   - limits: The server's limits.
    public func serveWireMock(
        token: String? = nil, files: URL? = nil, port: UInt16 = 0, upstream: URL? = nil, allowedHosts: [String] = [],
        allowedOrigins: [String] = [], limits: StubServer.Limits = StubServer.Limits()
    ) throws -> StubServer {
        let admin = WireMockAdmin(registry: self, token: token, files: files, bodyLimit: limits.maximumBodyBytes)
        return try serve(
            port: port, upstream: upstream, allowedHosts: allowedHosts, allowedOrigins: allowedOrigins, limits: limits,
            routes: [AdminRoute(admin: admin)])
    }
}

/// The admin API as the server's route under `/__admin/`.
private struct AdminRoute: ServerRoute {
    let admin: WireMockAdmin
    var pathPrefix: String { "/__admin" }

    func answer(method: String, target: String, headers: [(name: String, value: String)], body: Data) -> ServerRouteReply {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var fields: [String: String] = [:]
        for (name, value) in headers { fields[name] = fields[name].map { "\($0), \(value)" } ?? value }
        let reply = admin.handle(
            method: method, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil, headers: fields, body: body)
        return ServerRouteReply(status: reply.status, headers: reply.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, body: reply.body)
    }
}
