import Foundation
import URLStubs

extension StubRegistry {
    /// Serves this registry over the loopback server with a route for declarations, so a
    /// process that cannot call Swift (a UI test's app, a script, a browser test) reads and
    /// sets the stubs as data:
    ///
    /// - `GET /__urlstubs/declarations`: the declared stubs (`registry.declarations`)
    ///   as a JSON array;
    /// - `POST /__urlstubs/declarations`: one declaration, an array of them, or
    ///   `{"stubs": [...]}`, registered as `stub(_:)` does (all or none); `400` with the
    ///   reader's error, naming the JSON path, for one it cannot take;
    /// - `DELETE /__urlstubs/declarations`: removes every declared stub (stubs made in code stay).
    ///
    /// ```swift
    /// let server = try registry.serveDeclarations(token: "s3cret")
    /// // curl -H "Authorization: Bearer s3cret" -d '{"request": {"path": "/me"},
    /// //   "response": {"body": {"json": {"name": "Ada"}}}}' \(server.baseURL)/__urlstubs/declarations
    /// server.stop()
    /// ```
    ///
    /// The route is off unless the server is started this way. It obeys the server's `Host`
    /// and `Origin` rules like every stub; with a `token`, a request to it must send
    /// `Authorization: Bearer <token>` (or `Token <token>`) or gets `401`.
    /// - Parameters:
    ///   - token: The route's token, or `nil` for none.
    ///   - files: The folder a posted declaration's `file` body is read from (a relative path
    ///     inside it); `nil` (the default): posted declarations may not read files.
    ///   - port: The port on 127.0.0.1; 0 lets the system pick one.
    ///   - upstream: Where passthroughs go (see ``serve(port:alsoOnIPv6:upstream:allowedHosts:allowedOrigins:limits:)``).
    ///   - allowedHosts: Names besides the server's own a `Host` may give.
    ///   - allowedOrigins: Web origins whose pages may call the server.
    ///   - limits: The server's limits.
    public func serveDeclarations(
        token: String? = nil, files: URL? = nil, port: UInt16 = 0, upstream: URL? = nil, allowedHosts: [String] = [],
        allowedOrigins: [String] = [], limits: StubServer.Limits = StubServer.Limits()
    ) throws -> StubServer {
        try serve(
            port: port, upstream: upstream, allowedHosts: allowedHosts, allowedOrigins: allowedOrigins, limits: limits,
            routes: [DeclarationsRoute(registry: self, token: token, files: files)])
    }
}
