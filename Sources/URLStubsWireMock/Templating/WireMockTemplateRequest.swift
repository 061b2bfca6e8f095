import Foundation

/// The request a response template reads, as WireMock's template model shows it:
/// `request.url`, `request.path` (and its segments, `request.path.[0]`, or a path template's
/// variables, `request.path.contactId`), `request.pathSegments`, `request.query.<name>`,
/// `request.headers.<name>` (any case), `request.cookies.<name>`, `request.method`,
/// `request.scheme`, `request.host`, `request.port`, `request.baseUrl`, `request.body`,
/// `request.bodyAsBase64`, and the same under `request.requestLine`.
///
/// ```swift
/// let request = WireMockTemplateRequest(
///     method: "GET", url: URL(string: "https://api.test/users/42?tag=a&tag=b")!, headers: [("Accept", "application/json")])
/// ```
///
/// Building one costs no parsing: the query and the cookies are read when a template asks for them.
public struct WireMockTemplateRequest: Sendable, TemplateRequestModel {
    /// `request.method`.
    public var method: String
    /// `request.scheme`: `http` or `https`.
    public var scheme: String
    /// `request.host`.
    public var host: String
    /// `request.port`: the URL's port, else 443 for https and 80 otherwise.
    public var port: Int
    /// `request.path`, percent-encoded as sent.
    public var path: String
    /// The query as sent, without `?`; `nil` when the URL has none.
    public var query: String?
    /// The headers in the order sent; a name may repeat.
    public var headers: [(name: String, value: String)]
    /// `request.body`.
    public var body: Data?
    /// The variables of the mapping's `urlPathTemplate`, for `request.path.<name>`.
    public var pathParameters: [String: String]

    /// The model of a request to `url`.
    public init(
        method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil, pathParameters: [String: String] = [:]
    ) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        self.method = method
        scheme = components?.scheme ?? "http"
        host = components?.host ?? ""
        port = components?.port ?? (scheme == "https" ? 443 : 80)
        let encodedPath = components?.percentEncodedPath ?? url.path
        path = encodedPath.isEmpty ? "/" : encodedPath
        query = components?.percentEncodedQuery
        self.headers = headers
        self.body = body
        self.pathParameters = pathParameters
    }

    /// `request.url`: the path and query, as sent.
    public var url: String { query.map { path + "?" + $0 } ?? path }

    /// `request.baseUrl`: the URL up to its path (`https://my.example.com:8080`; the port only
    /// when it is not the scheme's).
    public var baseURL: String { baseURLText }

    /// Every value of the header `name`, whatever its case.
    func headerValues(_ name: String) -> [String] {
        headers.compactMap { $0.name.caseInsensitiveCompare(name) == .orderedSame ? $0.value : nil }
    }
}
