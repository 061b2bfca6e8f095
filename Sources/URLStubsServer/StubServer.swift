import Foundation
import URLStubs

/// An HTTP/1.1 server on the loopback address that answers with a ``URLStubs/StubRegistry``'s
/// stubs: the same stubs, matchers, journal, verification, hooks, held responses, pacing and
/// live streams as the registry's sessions, for clients that never load through `URLSession`
/// (`WKWebView`, `AVPlayer`, AsyncHTTPClient, `curl`, another process, an app under a UI test).
///
/// ```swift
/// let registry = StubRegistry()
/// registry.stub(isPath("/me")) { _ in try StubResponse(json: ["name": "Ada"]) }
/// let server = try registry.serve()
/// // Hand server.baseURL (http://127.0.0.1:PORT) to the client under test.
/// let profileURL = server.url("/me")
/// _ = profileURL
/// server.stop()   // also when the server is released
/// ```
///
/// It listens on 127.0.0.1 (and on ::1 when asked), never on a wildcard address, so only this
/// machine reaches it; it speaks plain HTTP (no TLS): give an `https` client the `http://`
/// ``baseURL``. The article "Serving stubs over HTTP" says what differs from the sessions'
/// transport.
public final class StubServer: @unchecked Sendable {
    // @unchecked: the immutable fields are set in init; the core has its own lock.

    /// The registry whose stubs answer. The server keeps it alive while it runs.
    public let registry: StubRegistry
    /// The port the server listens on (the one the system picked when `port` was 0).
    public let port: UInt16
    /// `http://127.0.0.1:PORT`: the URL to give a client, to which it appends its paths.
    public let baseURL: URL
    let core: ServerCore

    init(registry: StubRegistry, port: UInt16, alsoOnIPv6: Bool, access: ServerAccess, limits: Limits) throws {
        self.registry = registry
        core = try ServerCore(registry: registry, port: port, alsoOnIPv6: alsoOnIPv6, access: access, limits: limits)
        self.port = core.port
        baseURL = URL(string: "http://127.0.0.1:\(core.port)")!
    }

    deinit { core.stop() }

    /// The URL of `path` on this server: `server.url("/users?page=2")` is
    /// `http://127.0.0.1:PORT/users?page=2`. A path without a leading `/` gets one; characters
    /// a URL cannot hold are percent-encoded.
    public func url(_ path: String) -> URL {
        let absolute = path.hasPrefix("/") ? path : "/" + path
        if let url = URL(string: baseURL.absoluteString + absolute) { return url }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "/?#%")
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? "/"
        return URL(string: baseURL.absoluteString + encoded) ?? baseURL
    }

    /// Stops listening and closes every connection (requests being answered end as cancelled
    /// in the journal). Returns once the port is free, every connection is closed and every
    /// request it handed to the registry is journaled (a response closure or closure matcher
    /// still running is waited for), so a `verify()` after it sees every request. After 5
    /// seconds it returns anyway, having journaled the exchanges still open as cancelled
    /// (`URLError(-999)`), a response closure or closure matcher still running among them:
    /// what it returns later is dropped, neither sent nor journaled again. A request whose
    /// matcher had not returned is journaled with no stub (an unmatched request, for `verify()`). Calling it again does nothing. A released server stops by
    /// itself.
    public func stop() { core.stop() }

    /// The number of client connections open now.
    public var openConnections: Int { core.connectionCount }
}

extension StubServer {
    /// What a server accepts before it answers with an error and closes the connection: the
    /// defaults suit tests; raise one when a test needs more.
    ///
    /// ```swift
    /// var limits = StubServer.Limits()
    /// limits.maximumBodyBytes = 512 * 1024 * 1024   // a 512 MB upload
    /// let server = try StubRegistry().serve(limits: limits)
    /// server.stop()
    /// ```
    public struct Limits: Sendable {
        /// The largest request head (request line and header fields); past it the answer is
        /// `431 Request Header Fields Too Large` (`414 URI Too Long` when the request line alone
        /// is). 64 KB by default.
        public var maximumHeaderBytes = 64 * 1024
        /// The largest request body; past it the answer is `413 Content Too Large`, sent as soon
        /// as `Content-Length` announces it (a client waiting on `Expect: 100-continue` gets it
        /// instead of `100 Continue`). 64 MB by default.
        public var maximumBodyBytes = 64 * 1024 * 1024
        /// Connections open at once; one more is answered `503 Service Unavailable` and closed.
        /// 1,024 by default. Whatever this says, a connection is also refused (503) once the
        /// process holds all but 1/16 (at least 16) of its descriptors (`ulimit -n`; macOS
        /// starts shells at 256), so the rest of the process never runs out.
        public var maximumConnections = 1024
        /// The descriptor limit the server keeps under; `nil`: the process's (`RLIMIT_NOFILE`).
        package var descriptorLimit: Int?
        /// How long a client may leave the server waiting for the bytes of a request (the next
        /// one on an idle keep-alive connection, or the rest of one begun), or leave a response
        /// unread, before the server closes the connection (a request begun gets
        /// `408 Request Timeout`). While a response is being answered (a held or
        /// never-responding stub, a paced body) the server does not wait for the client: this
        /// does not apply. 30 seconds by default.
        public var readTimeout: TimeInterval = 30
        /// How long a request head (request line and header fields) may take to arrive whole,
        /// from its first byte, however often its bytes come; past it the answer is
        /// `408 Request Timeout` and the connection closes. 10 seconds by default.
        public var requestHeadTimeout: TimeInterval = 10
        /// The slowest a request body may arrive, on average from the end of its head, once
        /// ``readTimeout`` has passed: a body trickled slower gets `408 Request Timeout` and
        /// the connection closes. 1,024 bytes a second by default.
        public var minimumBodyBytesPerSecond = 1024

        /// The defaults.
        public init() {}
    }
}

extension StubRegistry {
    /// Starts a loopback HTTP/1.1 server that answers with this registry's stubs.
    ///
    /// ```swift
    /// let registry = StubRegistry()
    /// registry.stub(isPath("/ping")) { _ in StubResponse(string: "pong") }
    /// let server = try registry.serve()
    /// print(server.url("/ping"))   // http://127.0.0.1:PORT/ping
    /// server.stop()
    /// ```
    ///
    /// A request reaches the stubs as a server sees it: its URL is `http://` with the client's
    /// `Host` header and target, its header fields are the client's (a field sent more than
    /// once is one value joined with `", "`, `"; "` for `Cookie`, since a `URLRequest` keeps
    /// one value per name), and its body is read whole, de-chunked, before matching.
    ///
    /// - Parameters:
    ///   - port: The port on 127.0.0.1; 0 (the default) lets the system pick a free one, so
    ///     tests that run in parallel never clash.
    ///   - alsoOnIPv6: Also listen on `[::1]` on the same port.
    ///   - upstream: Where a passthrough goes (a stub's `StubResponse.passthrough(_:)`,
    ///     a `.passthrough` registry's unmatched requests, recording): this base URL with the
    ///     request's path and query appended. `nil` (the default): nowhere; such a request gets
    ///     the near-miss `404`. Never the host a request names, never the server itself.
    ///   - allowedHosts: Names besides the server's own (`127.0.0.1`, `[::1]`, `localhost`,
    ///     with its port or none) that a request's `Host` may give: `"api.test"` (any port) or
    ///     `"api.test:8080"`. Any other `Host` gets `421 Misdirected Request`.
    ///   - allowedOrigins: Web origins (`"http://localhost:3000"`) whose pages may call the
    ///     server: their requests get CORS fields, their preflights `204`. A request with any
    ///     other `Origin` (but the server's own) gets `403 Forbidden`.
    ///   - limits: Request sizes, connections and the read timeout (``StubServer/Limits``).
    /// - Throws: ``StubServerError`` when the port cannot be bound (in use, not allowed), or
    ///   `upstream` is the server itself.
    public func serve(
        port: UInt16 = 0, alsoOnIPv6: Bool = false, upstream: URL? = nil, allowedHosts: [String] = [], allowedOrigins: [String] = [],
        limits: StubServer.Limits = StubServer.Limits()
    ) throws -> StubServer {
        try StubServer(
            registry: self, port: port, alsoOnIPv6: alsoOnIPv6,
            access: ServerAccess(upstream: upstream, allowedHosts: allowedHosts, allowedOrigins: allowedOrigins), limits: limits)
    }
}

/// A server that could not start: which socket call failed, on which address, and why.
public struct StubServerError: Error, Sendable, CustomStringConvertible {
    /// `URLStubs: the stub server could not bind 127.0.0.1:8080: Address already in use. …`
    public let description: String

    /// A server error saying `description`.
    package init(description: String) { self.description = description }

    static func socketCall(_ call: String, address: String, code: Int32) -> StubServerError {
        let reason = String(cString: strerror(code))
        let advice = call == "bind" ? " Pass port: 0 (the default) to let the system pick a free port, or stop what listens there." : ""
        return StubServerError(description: "URLStubs: the stub server could not \(call) \(address): \(reason).\(advice)")
    }
}
