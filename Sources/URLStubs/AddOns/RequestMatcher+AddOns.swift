import Foundation

/// An add-on matcher's answer for one request (see `RequestMatcher(description:verdict:)`).
package enum MatcherVerdict: Sendable {
    /// The request is accepted.
    case matched
    /// The request is refused; the reason completes a near-miss report's line.
    case failed(String)
    /// The request is refused for these reasons after it agreed on what names the stub (the
    /// method and URL of a recorded request): it ranks above a plain ``failed(_:)`` among the
    /// closest stubs of a near-miss report. No reasons accept the request.
    case nearMiss([String])
    /// The body the answer depends on cannot be read yet (a stream while the request is being
    /// claimed): "maybe", decided again once the body is known.
    case bodyUnknown
}

extension RequestMatcher {
    /// A matcher an add-on builds from its own reading of a request (a scenario folder's
    /// operation's variables): unlike the public closure initializers, it may answer "maybe" for a
    /// body it cannot see yet, and it runs on the loading context (it must not block).
    ///
    /// - Parameter indexKey: The exact value of a strategy's ``IndexKind`` every request this
    ///   matcher accepts carries (an operation name): the stub index files the stub under it.
    package init(
        description: String, indexKey: IndexKey? = nil, verdict: @escaping @Sendable (StubRequest) -> MatcherVerdict
    ) {
        self.init(description: description, keys: MatchKeys(strategyKey: indexKey), verdict: verdict)
    }

    /// A matcher an add-on builds as above, filed in the stub index by every exact value in
    /// `keys` (a replayed request's method, host, path and body), and failing every request with
    /// `problems` (an invalid volatile path) when there are any.
    package init(
        description: String, keys: MatchKeys, problems: [String] = [], verdict: @escaping @Sendable (StubRequest) -> MatcherVerdict
    ) {
        self.init(description: description, keys: keys, problems: problems, runsUserCode: false) { (request: StubRequest) -> MatchResult in
            switch verdict(request) {
            case .matched: return .matched
            case .failed(let reason): return .failed(reason)
            case .nearMiss(let reasons): return MatchResult(failures: reasons, passed: 1)
            case .bodyUnknown: return .bodyUnknown
            }
        }
    }

    /// The method (upper-cased) and the exact path every request this matcher accepts has,
    /// where it requires them (`isMethod(.get) && isPath("/pets")`); `nil` where it does not.
    package var requiredMethodAndPath: (method: String?, path: String?) {
        (keys.method, keys.path)
    }
}

extension MatchKeys {
    /// The exact values a matcher of one recorded request requires: `method`, `url`'s host and
    /// path, and those given of a query parameter's value, the JSON body, the body's bytes and a
    /// strategy's ``IndexKind``. Each must be a value every request the matcher accepts carries
    /// as it is: a request lacking one is never offered the stub.
    package init(
        method: String, url: URL, queryParameter: (name: String, value: String)? = nil, jsonBody: JSONValue? = nil, body: Data? = nil,
        strategyKey: IndexKey? = nil
    ) {
        self.init(
            host: url.host?.lowercased(), path: pathOf(url), method: method,
            queryParameters: queryParameter.map { [QueryParameter(name: $0.name, value: $0.value)] } ?? [], strategyKey: strategyKey,
            jsonBody: jsonBody, body: body)
    }
}
