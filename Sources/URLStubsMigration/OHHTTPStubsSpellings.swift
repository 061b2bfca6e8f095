import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

// OHHTTPStubs' spellings that a search-and-replace migration produces. They compile, and the
// deprecation message (with a fix-it) names the URLStubs spelling. Each forwards to it and
// behaves exactly as it does.

extension StubRegistry {
    /// OHHTTPStubs' `stub(condition:response:)`: use `stub(_:name:times:fileID:filePath:line:response:)`.
    @available(
        *, deprecated, renamed: "stub(_:fileID:filePath:line:response:)",
        message: "URLStubs spells it registry.stub(isPath(\"/a\")) { _ in … }: the matcher is the first, unlabeled argument"
    )
    @discardableResult
    public func stub(
        condition: RequestMatcher, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        response: @escaping @Sendable (StubRequest) throws -> StubResponse
    ) -> StubDescriptor {
        stub(condition, fileID: fileID, filePath: filePath, line: line, response: response)
    }
}

/// OHHTTPStubs' global `stub(condition:response:)`: use `stub(_:name:times:fileID:filePath:line:response:)`
/// (`StubRegistry/shared`), or better a registry of the test's own.
@available(
    *, deprecated, renamed: "stub(_:fileID:filePath:line:response:)",
    message: "URLStubs spells it stub(isPath(\"/a\")) { _ in … } (the shared registry), or registry.stub(…) on a registry of the test's own"
)
@discardableResult
public func stub(
    condition: RequestMatcher, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    response: @escaping @Sendable (StubRequest) throws -> StubResponse
) -> StubDescriptor {
    StubRegistry.shared.stub(condition, fileID: fileID, filePath: filePath, line: line, response: response)
}

/// OHHTTPStubs' `hasJsonBody`: use `hasJSONBody(_:)`.
@available(*, deprecated, renamed: "hasJSONBody(_:)", message: "URLStubs spells it hasJSONBody(_:), JSON in capitals")
public func hasJsonBody(_ json: Any) -> RequestMatcher {
    hasJSONBody(json)
}

/// OHHTTPStubs' `isMethodGET()`: use `isMethod(.get)`.
@available(*, deprecated, message: "use isMethod(.get)")
public func isMethodGET() -> RequestMatcher { isMethod(.get) }

/// OHHTTPStubs' `isMethodPOST()`: use `isMethod(.post)`.
@available(*, deprecated, message: "use isMethod(.post)")
public func isMethodPOST() -> RequestMatcher { isMethod(.post) }

/// OHHTTPStubs' `isMethodPUT()`: use `isMethod(.put)`.
@available(*, deprecated, message: "use isMethod(.put)")
public func isMethodPUT() -> RequestMatcher { isMethod(.put) }

/// OHHTTPStubs' `isMethodPATCH()`: use `isMethod(.patch)`.
@available(*, deprecated, message: "use isMethod(.patch)")
public func isMethodPATCH() -> RequestMatcher { isMethod(.patch) }

/// OHHTTPStubs' `isMethodDELETE()`: use `isMethod(.delete)`.
@available(*, deprecated, message: "use isMethod(.delete)")
public func isMethodDELETE() -> RequestMatcher { isMethod(.delete) }

/// OHHTTPStubs' `isMethodHEAD()`: use `isMethod(.head)`.
@available(*, deprecated, message: "use isMethod(.head)")
public func isMethodHEAD() -> RequestMatcher { isMethod(.head) }

extension StubResponse {
    /// OHHTTPStubs' `responseTime(_:)`: spreads the body over `responseTime` seconds, or, when
    /// negative, sends it at that many KB/s. Use `requestTime(_:responseTime:)` for a time and
    /// `downloadSpeed(_:)` for a speed.
    @available(
        *, deprecated,
        message: """
            a time is .requestTime(0, responseTime: seconds); a negative value is a speed: -400 is .downloadSpeed(.threeG) \
            (-7 .gprs, -16 .edge, -900 .threeGPlus, -1500 .wifi), another -N is .downloadSpeed(.kilobytesPerSecond(N))
            """
    )
    public func responseTime(_ responseTime: TimeInterval) -> StubResponse {
        var copy = self
        copy.pacing.responseTime = responseTime
        return copy
    }
}
