import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a redirect response becomes the next request, the same on every platform.
///
/// The rules are the Fetch standard's (HTTP-redirect fetch) and RFC 9110 §15.4, which is what
/// browsers and URLSession do for a real server.
enum RedirectHop {
    /// Redirect hops followed before failing with `URLError(.httpTooManyRedirects)` (the bound
    /// browsers use).
    static let maximumHops = 16

    /// The error a request fails with past ``maximumHops``.
    static func tooManyRedirects(target: URL) -> URLError {
        URLError(
            .httpTooManyRedirects,
            userInfo: [
                NSURLErrorFailingURLErrorKey: target,
                NSLocalizedDescriptionKey: "URLStubs: more than \(maximumHops) redirects, the last to \(target.absoluteString).",
            ])
    }

    /// Only these are followed, and only with a `Location`. 300 (a choice for the user), 304
    /// (a cache answer), 305 and 306 (deprecated) and any other 3xx are final responses.
    static func isRedirect(statusCode: Int) -> Bool {
        switch statusCode {
        case 301, 302, 303, 307, 308: return true
        default: return false
        }
    }

    /// Headers that never cross a hop: credentials for a proxy or a challenge answered on the
    /// previous hop, and connection-level fields the next request gets anew.
    private static let droppedOnEveryHop = ["Proxy-Authorization", "Proxy-Authenticate", "WWW-Authenticate", "Connection", "Host"]
    /// Headers that describe a body, dropped with it.
    private static let bodyHeaders = ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location"]

    /// The request the redirect leads to, before the session's delegate sees it.
    /// - Parameters:
    ///   - request: The request that got the redirect, body included (`httpBody`).
    ///   - statusCode: The redirect's status.
    ///   - target: The absolute `Location`.
    /// - Returns: The next hop: 303 becomes a bodiless `GET` (a `HEAD` stays `HEAD`); 301 and
    ///   302 turn a `POST` into a bodiless `GET`; 307 and 308 keep method and body. The
    ///   `Cookie` header is removed, to be recomputed for the new URL from the session's store;
    ///   `Authorization` is removed when the origin changes.
    static func nextRequest(after request: URLRequest, statusCode: Int, to target: URL) -> URLRequest {
        var next = request
        next.url = target
        let method = request.httpMethod?.uppercased() ?? "GET"
        let becomesGet = (statusCode == 303 && method != "HEAD") || ([301, 302].contains(statusCode) && method == "POST")
        if becomesGet { next.httpMethod = "GET" }
        if becomesGet || statusCode == 303 {
            next.httpBody = nil
            next.httpBodyStream = nil
            for name in bodyHeaders { next.setValue(nil, forHTTPHeaderField: name) }
        }
        for name in droppedOnEveryHop { next.setValue(nil, forHTTPHeaderField: name) }
        next.setValue(nil, forHTTPHeaderField: "Cookie")
        if let previous = request.url, !sameOrigin(previous, target) {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        return next
    }

    private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
