import Foundation

/// Who may talk to a server: the hosts a request may name and the web origins that may call
/// it. Everything else is refused before any stub is asked, so a web page in the developer's
/// browser (DNS rebinding, a cross-origin request) neither reads a stub nor uses one up.
///
/// A request's `Host` (and an absolute target's authority) must be one of the server's own
/// names (`127.0.0.1`, `[::1]`, `localhost`, with the server's port or none) or an allowed
/// host (`"api.test"`: any port; `"api.test:8080"`: that one). A request with an `Origin` must
/// come from the server's own origin or an allowed one; only allowed ones get CORS fields.
struct ServerAccess: Sendable {
    /// Where passthroughs go (see ``ServerUpstream``).
    let upstream: URL?
    /// Allowed hosts, lowercased: the name, and the port when one was given.
    private let hosts: [(name: String, port: Int?)]
    /// Allowed origins, lowercased, without a trailing `/`.
    private let origins: Set<String>
    /// The server's port, set once it is bound.
    private(set) var port = 0
    private var ownOrigins: Set<String> = []
    /// `127.0.0.1:port`, `localhost:port`, `[::1]:port`: what nearly every request's `Host` is,
    /// recognised by a byte comparison before any parsing.
    private var ownAuthorities: [String] = []
    /// Parts of the URL space answered before the stubs (``ServerRoute``).
    var routes: [any ServerRoute] = []

    /// The route that answers `target`, if any.
    func route(for target: String) -> (any ServerRoute)? {
        guard !routes.isEmpty else { return nil }
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        return routes.first { path.hasPrefix($0.pathPrefix) }
    }

    init(upstream: URL?, allowedHosts: [String], allowedOrigins: [String]) {
        self.upstream = upstream
        hosts = allowedHosts.compactMap { Self.authority($0.lowercased()[...]) }.map { ($0.host, $0.port) }
        origins = Set(allowedOrigins.map(Self.normalized))
    }

    /// The access rules of a server bound to `port`.
    func bound(to port: UInt16) -> ServerAccess {
        var bound = self
        bound.port = Int(port)
        let suffix = port == 80 ? "" : ":\(port)"
        bound.ownAuthorities = ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
        bound.ownOrigins = ["http://127.0.0.1\(suffix)", "http://localhost\(suffix)", "http://[::1]\(suffix)"]
        return bound
    }

    /// Why the server refuses `request`; `nil` when it may be answered.
    func refusal(of request: ParsedHTTPRequest) -> (status: Int, kind: String, message: String)? {
        if let host = request.value(of: "Host"), !allows(host: host) { return hostRefusal(host) }
        if let authority = Self.absoluteTargetAuthority(request.target), !allows(host: authority) { return hostRefusal(authority) }
        if let origin = request.value(of: "Origin"), !isOwn(origin: origin), !origins.contains(Self.normalized(origin)) {
            let message =
                "URLStubs: the stub server refuses a request from the web origin \(origin.debugDescription): a web page may call it only from an origin the test names, serve(allowedOrigins: [\(origin.debugDescription)]), which also turns CORS on for it. (No stub was asked.)\n"
            return (403, "originNotAllowed", message)
        }
        return nil
    }

    /// `true` for a request's `Origin` that the test allowed: its answers carry CORS fields.
    func sharesResources(with origin: String) -> Bool {
        !origins.isEmpty && origins.contains(Self.normalized(origin))
    }

    private func isOwn(origin: String) -> Bool {
        ownOrigins.contains(Self.normalized(origin))
    }

    private func hostRefusal(_ host: String) -> (status: Int, kind: String, message: String) {
        let shown = host.debugDescription
        let name = Self.authority(host.lowercased()[...])?.host ?? host
        let message =
            "URLStubs: the stub server refuses a request for the host \(shown): it answers requests for 127.0.0.1:\(port), localhost:\(port) and [::1]:\(port) only, so that a web page whose name resolves to this machine (DNS rebinding) cannot reach it, and it is no proxy. A test allows another name with serve(allowedHosts: [\(name.debugDescription)]). (No stub was asked.)\n"
        return (421, "hostNotAllowed", message)
    }

    /// `true` when `host` (`name[:port]`) is the server's own or an allowed one.
    func allows(host text: String) -> Bool {
        // Only "localhost" has letters, and field-name comparison folds ASCII letters only.
        if ownAuthorities.contains(where: { $0.isSameFieldName(as: text) }) { return true }
        guard let (name, port) = Self.authority(text[...]) else { return false }
        if Self.isOwnName(name) { return port == nil || port == self.port }
        for allowed in hosts where allowed.name.isSameFieldName(as: name) {
            if allowed.port == nil || allowed.port == (port ?? 80) { return true }
        }
        return false
    }

    private static func isOwnName(_ name: String) -> Bool {
        name == "127.0.0.1" || name == "[::1]" || name.isSameFieldName(as: "localhost")
    }

    /// `name` and `port` of `host[:port]` (`[v6]:port` for IPv6); `nil` when it is not one.
    static func authority(_ text: Substring) -> (host: String, port: Int?)? {
        var name = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[...close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !name.isEmpty, !name.contains(where: { $0 == "@" || $0 == "/" || $0 == " " }) else { return nil }
        guard let portText else { return (String(name), nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText) else {
            return nil
        }
        return (String(name), port)
    }

    /// The authority of a target in absolute form (`http://host:port/path`); `nil` for any
    /// other target.
    static func absoluteTargetAuthority(_ target: String) -> String? {
        guard target.utf8.first != UInt8(ascii: "/"), let scheme = target.range(of: "://") else { return nil }
        let rest = target[scheme.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return String(rest[..<end])
    }

    private static func normalized(_ origin: String) -> String {
        let lowered = origin.lowercased()
        return lowered.hasSuffix("/") ? String(lowered.dropLast()) : lowered
    }
}
