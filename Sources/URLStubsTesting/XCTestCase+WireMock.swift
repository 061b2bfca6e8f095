#if canImport(XCTest)
import Foundation
import XCTest
import URLStubs
import URLStubsWireMock

extension XCTestCase {
    /// A registry for this test holding every mapping of a WireMock folder, answering as
    /// WireMock's standalone server would; verified and emptied at tear-down as
    /// ``makeStubRegistry(unmatchedRequests:verifyOnTearDown:file:line:)`` makes one.
    ///
    /// ```swift
    /// func testShowsTheCart() async throws {
    ///     let registry = try makeStubRegistry(wireMock: URL(fileURLWithPath: "Fixtures/wiremock"))
    ///     registry.setScenarioState("cart", to: "full")
    /// }
    /// ```
    ///
    /// - Throws: `FixtureError` naming each file and JSON path of the folder that cannot be
    ///   read or served.
    public func makeStubRegistry(
        wireMock folder: URL, globalTemplating: Bool = false, unmatchedRequests: UnmatchedRequestPolicy = .fail,
        verifyOnTearDown: Bool = true, file: StaticString = #filePath, line: UInt = #line
    ) throws -> StubRegistry {
        let registry = makeStubRegistry(unmatchedRequests: unmatchedRequests, verifyOnTearDown: verifyOnTearDown, file: file, line: line)
        try registry.stubs(fromWireMock: folder, globalTemplating: globalTemplating)
        return registry
    }
}
#endif
