import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A way of reading requests that speak a protocol the engine does not know: a wing's
/// strategy explains such requests in the unmatched report, suggests the stub to type, and may
/// split one request into parts that are answered one by one.
///
/// A strategy plugs in by ``RequestStrategies/register(_:)``; its matchers carry their own
/// ``IndexKey`` for the stub index. The engine asks registered strategies only about requests
/// no stub answers, so a strategy costs the common path nothing.
///
/// Every requirement has a default that says nothing: implement what the protocol needs.
package protocol RequestStrategy: Sendable {
    /// Orders strategies wherever several speak (report lines, the suggested stub, the split):
    /// lower first. A strategy that reads requests through another one's format (an operation
    /// sent as an upload) goes before it.
    var precedence: Int { get }

    /// Lines for the unmatched report that describe `request` as this protocol sees it
    /// (`"  Operation: query \"GetUser\""`), each indented by two spaces; none when `request`
    /// does not speak it.
    func reportLines(for request: StubRequest) -> [String]

    /// What a stub for exactly `request` should add to the report's suggestion, or `nil` when
    /// `request` does not speak this protocol. Values `scrubbing` hides stay out of it.
    func suggestion(for request: StubRequest, scrubbing: Scrubbing) -> StubSuggestion?

    /// `request` as parts answered one by one and joined into one response (a batch),
    /// or `nil` when it is not such a request.
    func split(_ request: StubRequest) -> RequestSplit?
}

extension RequestStrategy {
    /// No lines.
    package func reportLines(for request: StubRequest) -> [String] { [] }
    /// No suggestion.
    package func suggestion(for request: StubRequest, scrubbing: Scrubbing) -> StubSuggestion? { nil }
    /// No split.
    package func split(_ request: StubRequest) -> RequestSplit? { nil }
}

/// A strategy's part of the stub an unmatched report suggests.
package struct StubSuggestion: Sendable {
    /// Matcher expressions, Swift source, joined to the method, host and path with `&&`.
    package var matchers: [String]
    /// Query parameters the matchers above already cover: left out of `containsQueryParams`.
    package var coveredQueryParameters: Set<String>
    /// The response expression, Swift source; `nil` keeps the engine's plain one.
    package var response: String?

    /// A suggestion of `matchers`, covering `coveredQueryParameters`, answered by `response`.
    package init(matchers: [String], coveredQueryParameters: Set<String> = [], response: String? = nil) {
        self.matchers = matchers
        self.coveredQueryParameters = coveredQueryParameters
        self.response = response
    }
}

/// The strategies the engine asks about unmatched requests, for every registry of the process.
///
/// A wing registers its strategy on first use of any of its entry points, so an app that never
/// speaks its protocol never pays for it.
package enum RequestStrategies {
    private static let list = Locked((strategies: [any RequestStrategy](), types: Set<ObjectIdentifier>()))

    /// Adds `strategy`; a second strategy of the same type is ignored.
    package static func register(_ strategy: some RequestStrategy) {
        list.withLock { registered in
            guard registered.types.insert(ObjectIdentifier(type(of: strategy))).inserted else { return }
            var list = registered.strategies
            list.append(strategy)
            list.sort { $0.precedence < $1.precedence }
            registered.strategies = list
        }
    }

    /// The registered strategies, by ``RequestStrategy/precedence``.
    static var registered: [any RequestStrategy] {
        list.withLock { $0.strategies }
    }
}
