import Foundation
import URLStubs

/// A request as WireMock's matchers and templates see it: the path and query as sent, every
/// header line, the cookies, and the form fields of an `application/x-www-form-urlencoded` body.
struct WireMockRequestView {
    let template: WireMockTemplateRequest

    init(_ request: StubRequest, pathParameters: [String: String] = [:]) {
        let url = request.url ?? URL(string: "http://localhost/")!
        template = WireMockTemplateRequest(
            method: request.method, url: url, headers: request.headers.map { (name: $0.name, value: $0.value) }, body: request.body,
            pathParameters: pathParameters)
    }

    /// The path and query as sent (`/users?page=2`), cut from the URL's text: the URL kind
    /// runs for every candidate mapping, and parsing the URL would cost more than the match.
    static func pathAndQuery(of request: StubRequest) -> String {
        guard let text = request.url?.absoluteString, let schemeEnd = text.range(of: "://") else { return "/" }
        let rest = text[schemeEnd.upperBound...]
        let start = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var tail = rest[start...]
        if let fragment = tail.firstIndex(of: "#") { tail = tail[..<fragment] }
        return tail.first == "/" ? String(tail) : "/" + tail
    }

    /// Every value of the form field `name`, decoded (`+` is a space), in order. WireMock 3
    /// reads form fields from the body whatever its `Content-Type`.
    func formValues(_ name: String) -> [String] {
        guard let body = template.body, let text = String(data: body, encoding: .utf8) else { return [] }
        var values: [String] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if Self.decode(parts[0]) == name { values.append(parts.count > 1 ? Self.decode(parts[1]) : "") }
        }
        return values
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
