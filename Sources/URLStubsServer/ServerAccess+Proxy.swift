import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

extension ServerAccess {
    /// Refuses a proxying stub's request aimed at this server itself (a WireMock mapping whose
    /// `proxyBaseUrl` is the server's own address would loop): a proxy reaches only the base
    /// it names, and that base is never the server.
    static func refuseProxyToItself(_ outgoing: URLRequest, port: UInt16) throws {
        guard let url = outgoing.url, let host = url.host?.lowercased() else { return }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        let targetPort = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        guard loopback, targetPort == Int(port) else { return }
        throw StubError.invalidDeclaration(
            source: "proxy", path: "$.response.failure.proxy.baseURL",
            problem: "the base \(url.scheme ?? "http")://\(host):\(port) is this server itself, which would answer its own request "
                + "forever; proxy to another server")
    }
}
