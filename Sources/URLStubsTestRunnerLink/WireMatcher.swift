import Foundation
import URLStubsGraphQL
import URLStubs

/// Which requests a stub the test adds to the app answers, as it crosses the test-runner link:
/// the ``RequestMatcher``s a closure-free description can hold, all of which must accept a
/// request. Test authors write it as `RemoteMatcher` (URLStubsTesting), which converts to this.
///
/// Every field is optional; an empty matcher accepts every request.
package struct WireMatcher: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP method, any case.
    package var method: String?
    /// The host, exactly.
    package var host: String?
    /// Exact, or a pattern (`/users/:id`, `*`, `**`), as for ``isPath(_:)``.
    package var path: String?
    /// An absolute URL, query parameters in any order, as for ``isAbsoluteURLString(_:)``.
    package var url: String?
    /// `nil` values: present, with any value.
    package var queryItems: [String: String?]?
    /// `nil` values: present, with any value.
    package var headers: [String: String?]?
    /// A subset the JSON body must contain, as for ``hasJSONBody(containing:arrays:)``.
    package var jsonBody: WireJSON?
    /// The GraphQL operation name.
    package var graphQLOperation: String?

    /// A matcher of the fields given; empty collections are sent as absent.
    package init(
        method: String? = nil, host: String? = nil, path: String? = nil, url: String? = nil,
        queryItems: [String: String?] = [:], headers: [String: String?] = [:], jsonBody: WireJSON? = nil,
        graphQLOperation: String? = nil
    ) {
        self.method = method
        self.host = host
        self.path = path
        self.url = url
        self.queryItems = queryItems.isEmpty ? nil : queryItems
        self.headers = headers.isEmpty ? nil : headers
        self.jsonBody = jsonBody
        self.graphQLOperation = graphQLOperation
    }

    /// The ``RequestMatcher`` the app answers with.
    package var requestMatcher: RequestMatcher {
        var parts: [RequestMatcher] = []
        if let method { parts.append(isMethod(StubRequest.Method(rawValue: method))) }
        if let host { parts.append(isHost(host)) }
        if let path { parts.append(isPath(path)) }
        if let url { parts.append(isAbsoluteURLString(url)) }
        if let queryItems { parts.append(containsQueryParams(queryItems)) }
        for (name, value) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) { parts.append(hasHeaderNamed(name, value: value)) }
        if let jsonBody { parts.append(hasJSONBody(containing: jsonBody.value)) }
        if let graphQLOperation { parts.append(isGraphQLOperation(graphQLOperation)) }
        guard var combined = parts.first else { return .any }
        for part in parts.dropFirst() { combined = combined && part }
        return combined
    }

    /// What is wrong with this matcher (a path pattern's syntax, an empty method); empty when
    /// nothing is. Both sides check: the test before sending, the app on receipt.
    package var problems: [String] {
        var problems: [String] = []
        if let method, method.isEmpty || method.contains(where: { $0.isWhitespace }) {
            problems.append("method \"\(method)\" is not an HTTP method")
        }
        if let path, !path.hasPrefix("/") { problems.append("path \"\(path)\" must start with \"/\"") }
        if let url, URL(string: url)?.host == nil { problems.append("url \"\(url)\" is not an absolute URL") }
        return problems + requestMatcher.problems
    }

    /// What the matcher accepts, in words (`method is "GET" and path is "/api/cart"`).
    package var description: String { requestMatcher.description }
}
