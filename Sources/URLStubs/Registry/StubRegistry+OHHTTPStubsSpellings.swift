import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// OHHTTPStubs' spellings that a search-and-replace migration produces. They compile, and the
// deprecation message (with a fix-it) names the URLStubs spelling.

extension StubRegistry {
    /// OHHTTPStubs' `stub(condition:response:)`: use ``stub(_:name:times:fileID:filePath:line:response:)``.
    @available(
        *, deprecated, renamed: "stub(_:response:)",
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

/// OHHTTPStubs' global `stub(condition:response:)`: use ``stub(_:name:times:fileID:filePath:line:response:)``
/// (``StubRegistry/shared``), or better a registry of the test's own.
@available(
    *, deprecated, renamed: "stub(_:response:)",
    message: "URLStubs spells it stub(isPath(\"/a\")) { _ in … } (the shared registry), or registry.stub(…) on a registry of the test's own"
)
@discardableResult
public func stub(
    condition: RequestMatcher, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    response: @escaping @Sendable (StubRequest) throws -> StubResponse
) -> StubDescriptor {
    StubRegistry.shared.stub(condition, fileID: fileID, filePath: filePath, line: line, response: response)
}
