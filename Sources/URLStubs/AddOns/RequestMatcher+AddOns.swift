import Foundation

/// An add-on matcher's answer for one request (see `RequestMatcher(description:verdict:)`).
@_spi(AddOns) public enum MatcherVerdict: Sendable {
    /// The request is accepted.
    case matched
    /// The request is refused; the reason completes a near-miss report's line.
    case failed(String)
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
    @_spi(AddOns) public init(
        description: String, indexKey: IndexKey? = nil, verdict: @escaping @Sendable (StubRequest) -> MatcherVerdict
    ) {
        self.init(description: description, keys: MatchKeys(strategyKey: indexKey), runsUserCode: false) {
            (request: StubRequest) -> MatchResult in
            switch verdict(request) {
            case .matched: return .matched
            case .failed(let reason): return .failed(reason)
            case .bodyUnknown: return .bodyUnknown
            }
        }
    }

    /// The method (upper-cased) and the exact path every request this matcher accepts has,
    /// where it requires them (`isMethod(.get) && isPath("/pets")`); `nil` where it does not.
    @_spi(AddOns) public var requiredMethodAndPath: (method: String?, path: String?) {
        (keys.method, keys.path)
    }
}
