import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// What a connection keeps of its last request to answer the next one for less: a client on
/// a keep-alive connection (a test's loop, polling, a retry) often sends the same head again,
/// and its checks, URL, `URLRequest` and ``URLStubs/StubRequest`` cost thousands of
/// instructions to make. On the connection's queue.
extension ServerConnection {
    /// The last request without a body that passed the server's checks (``ServerAccess``, no
    /// route or CORS preflight took it) on to the stubs, and what was made of it. A class: a
    /// look at it costs one retain, not a copy of every field.
    final class RepeatedRequest {
        let request: ParsedHTTPRequest
        /// `true` when the client asked to close after its answer.
        let closes: Bool
        /// The allowed web origin it came from, whose answers carry CORS fields.
        let sharedWith: String?
        let urlRequest: URLRequest
        let stubRequest: StubRequest

        init(request: ParsedHTTPRequest, closes: Bool, sharedWith: String?, urlRequest: URLRequest, stubRequest: StubRequest) {
            self.request = request
            self.closes = closes
            self.sharedWith = sharedWith
            self.urlRequest = urlRequest
            self.stubRequest = stubRequest
        }
    }

    /// The last request, when `request` has no body and the same method, target, version and
    /// fields (names and values, in order): what was made of that head holds for this one.
    func repeating(_ request: ParsedHTTPRequest) -> RepeatedRequest? {
        guard !request.announcedBody, let last = lastRequest, last.request.sameHead(as: request) else { return nil }
        return last
    }

    /// Keeps what was made of `request` (a request with a body is not kept).
    func remember(_ request: ParsedHTTPRequest, closes: Bool, sharedWith: String?, urlRequest: URLRequest, stubRequest: StubRequest) {
        lastRequest =
            request.announcedBody
            ? nil
            : RepeatedRequest(request: request, closes: closes, sharedWith: sharedWith, urlRequest: urlRequest, stubRequest: stubRequest)
    }

    /// The URL `request` asks for (see ``ParsedHTTPRequest/url(defaultHost:)``): the last one
    /// again for the same Host and target.
    func url(of request: ParsedHTTPRequest) -> URL? {
        let host = request.value(of: "Host")
        if let lastURL, lastURL.target == request.target, lastURL.host == host { return lastURL.url }
        let url = request.url(defaultHost: core.defaultHost)
        if let url { lastURL = (host, request.target, url) }
        return url
    }
}

extension ParsedHTTPRequest {
    /// `true` when `other` has the same method, target, version and fields (names and values,
    /// in order) as this one.
    func sameHead(as other: ParsedHTTPRequest) -> Bool {
        guard method == other.method, target == other.target, minorVersion == other.minorVersion, headers.count == other.headers.count
        else { return false }
        for index in headers.indices where headers[index].name != other.headers[index].name || headers[index].value != other.headers[index].value {
            return false
        }
        return true
    }
}
