import Foundation
import URLStubs

/// A stubbed request as WireMock's matchers and templates see it: the path and query as sent,
/// every header line, the cookies, and the form fields of the body.
///
/// Made once per request and read lazily: each part is cut from the request the first time a
/// matcher or a template asks for it, and kept, so a template naming only `request.path` costs
/// neither the headers, the query nor the URL's host, and a part read twice is cut once.
final class WireMockRequestView: TemplateRequestModel {
    let request: StubRequest
    private let pathTemplate: WireMockMapping.URLMatch?
    /// The request target, cut once from the URL's text when first read.
    private lazy var target = Self.target(of: request)
    private var cachedPathParameters: [String: String]?

    /// The view of `request`; `pathTemplate` (a mapping's `urlPathTemplate`) gives
    /// ``pathParameters``.
    init(_ request: StubRequest, pathTemplate: WireMockMapping.URLMatch? = nil) {
        self.request = request
        self.pathTemplate = pathTemplate
    }

    var method: String { request.method }
    var scheme: String { request.url?.scheme ?? "http" }
    var host: String { request.url?.host ?? "" }
    var port: Int { request.url?.port ?? (scheme == "https" ? 443 : 80) }
    var body: Data? { request.body }

    /// `request.url`: the path and query as sent (`/users?page=2`).
    var url: String { target.pathAndQuery }
    var path: String { target.path }
    var query: String? { target.query }

    var pathParameters: [String: String] {
        if let cachedPathParameters { return cachedPathParameters }
        let parameters = pathTemplate?.pathParameters(in: url) ?? [:]
        cachedPathParameters = parameters
        return parameters
    }

    /// Every value of the header `name`, whatever its case (`URLRequest` holds one value per
    /// name, repeated lines joined with `,`, and setting a name replaces any spelling of it).
    func headerValues(_ name: String) -> [String] {
        guard let fields = request.urlRequest.allHTTPHeaderFields else { return [] }
        if let exact = fields[name] { return [exact] }
        let lowercased = name.lowercased()
        return fields.filter { $0.key.lowercased() == lowercased }.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The path and query as sent (`/users?page=2`), cut from the URL's text: the URL kind
    /// runs for every candidate mapping, and parsing the URL would cost more than the match.
    static func pathAndQuery(of request: StubRequest) -> String { target(of: request).pathAndQuery }

    /// The path and query as sent, the path alone and the query alone (without `?`, `nil` when
    /// there is none), cut from the URL's text byte by byte: Foundation's `range(of:)` and
    /// `URLComponents` cost more than the rest of a template's render.
    static func target(of request: StubRequest) -> (pathAndQuery: String, path: String, query: String?) {
        guard let text = request.url?.absoluteString else { return ("/", "/", nil) }
        let bytes = text.utf8
        var index = bytes.startIndex
        var afterScheme: String.Index?
        // The authority starts after the first "://".
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":") {
                let next = bytes.index(after: index)
                if next < bytes.endIndex, bytes[next] == UInt8(ascii: "/") {
                    let second = bytes.index(after: next)
                    if second < bytes.endIndex, bytes[second] == UInt8(ascii: "/") {
                        afterScheme = bytes.index(after: second)
                        break
                    }
                }
            }
            index = bytes.index(after: index)
        }
        guard var start = afterScheme else { return ("/", "/", nil) }
        while start < bytes.endIndex, bytes[start] != UInt8(ascii: "/"), bytes[start] != UInt8(ascii: "?"), bytes[start] != UInt8(ascii: "#") {
            start = bytes.index(after: start)
        }
        var end = start
        var mark: String.Index?
        while end < bytes.endIndex, bytes[end] != UInt8(ascii: "#") {
            if mark == nil, bytes[end] == UInt8(ascii: "?") { mark = end }
            end = bytes.index(after: end)
        }
        let pathText = String(text[start..<(mark ?? end)])
        let path = pathText.isEmpty ? "/" : pathText
        guard let mark else { return (path, path, nil) }
        let query = String(text[bytes.index(after: mark)..<end])
        return (path + "?" + query, path, query)
    }

    /// Every value of the form field `name`, decoded (`+` is a space), in order. WireMock 3
    /// reads form fields from the body whatever its `Content-Type`.
    func formValues(_ name: String) -> [String] {
        guard let body = request.body, let text = String(data: body, encoding: .utf8) else { return [] }
        return URLEncodedPairs.values(named: name, in: Substring(text))
    }
}
