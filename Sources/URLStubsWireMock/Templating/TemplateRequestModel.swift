import Foundation

/// What a template and WireMock's matchers read of a request. Two models give it: the public
/// ``WireMockTemplateRequest`` (every part computed when it is made), and `WireMockRequestView`
/// over a stubbed request (each part read from the request only when something asks for it, so
/// a template naming `request.path` costs no header, query or host work).
protocol TemplateRequestModel {
    /// `request.method`.
    var method: String { get }
    /// `request.scheme`: `http` or `https`.
    var scheme: String { get }
    /// `request.host`.
    var host: String { get }
    /// `request.port`: the URL's port, else 443 for https and 80 otherwise.
    var port: Int { get }
    /// `request.path`, percent-encoded as sent.
    var path: String { get }
    /// `request.url`: the path and query, as sent.
    var url: String { get }
    /// The query as sent, without `?`; `nil` when the URL has none.
    var query: String? { get }
    /// `request.body`.
    var body: Data? { get }
    /// The variables of the mapping's `urlPathTemplate`, for `request.path.<name>`.
    var pathParameters: [String: String] { get }
    /// Every value of the header `name`, whatever its case.
    func headerValues(_ name: String) -> [String]
}

extension TemplateRequestModel {
    /// `request.baseUrl`: the URL up to its path (`https://my.example.com:8080`; the port only
    /// when it is not the scheme's).
    var baseURLText: String {
        let scheme = scheme
        let port = port
        let defaultPort = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        return "\(scheme)://\(host)" + (defaultPort ? "" : ":\(port)")
    }

    /// `request.pathSegments`: the path's segments, percent-decoded.
    var pathSegments: [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map { String($0).removingPercentEncoding ?? String($0) }
    }

    /// Every value of the query parameter `name`, decoded (`+` is a space), in order.
    func queryValues(_ name: String) -> [String] {
        guard let query else { return [] }
        return URLEncodedPairs.values(named: name, in: Substring(query))
    }

    /// The query parameters' names, in the order they first occur.
    func queryNames() -> [String] {
        guard let query else { return [] }
        return URLEncodedPairs.names(in: Substring(query))
    }

    /// Every value of the cookie `name`, from the `Cookie` headers.
    func cookieValues(_ name: String) -> [String] {
        var values: [String] = []
        for header in headerValues("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts[0].trimmingCharacters(in: .whitespaces) == name {
                    values.append(parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
                }
            }
        }
        return values
    }
}

/// `name=value&name=value` text, as a query or an `application/x-www-form-urlencoded` body
/// writes it: names and values percent-decoded, `+` a space.
enum URLEncodedPairs {
    /// Every value of `name`, in order; a name without `=` has the value `""`.
    static func values(named name: String, in text: Substring) -> [String] {
        var values: [String] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if decode(parts[0]) == name { values.append(parts.count > 1 ? decode(parts[1]) : "") }
        }
        return values
    }

    /// The names, in the order they first occur.
    static func names(in text: Substring) -> [String] {
        var names: [String] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let key = decode(pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
            if !names.contains(key) { names.append(key) }
        }
        return names
    }

    static func decode(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
