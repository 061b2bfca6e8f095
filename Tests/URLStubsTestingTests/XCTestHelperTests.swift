import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import URLStubsTesting
@testable import TestSupport

/// The setUp/tearDown pattern: `makeStubRegistry()` verifies on tear-down.
final class XCTestHelperTests: FailureCapturingTestCase {
    private var expectedLine = 0

    func testRegistryAnswersAndPassesVerification() async {
        let registry = makeStubRegistry()
        registry.stub(isPath("/me")) { _ in StubResponse(data: Data("Ada".utf8)) }.expect(.once)
        let result = await fetch("https://api.test/me", from: registry)
        XCTAssertEqual(result.body, "Ada")
    }

    #if !canImport(ObjectiveC)
    func testUnmetExpectationIsRecordedAtTheStubLine() {
        capturing = true
        let registry = makeStubRegistry()
        expectedLine = #line + 1
        registry.stub(isPath("/never"), name: "never called") { _ in StubResponse(data: Data()) }.expect(.once)
    }

    override func tearDown() {
        // Tear-down blocks (where the registry is verified) have run by now.
        if capturing {
            capturing = false
            XCTAssertEqual(captured.count, 1)
            XCTAssertEqual(captured.first?.line, expectedLine)
            XCTAssertTrue(captured.first?.file.hasSuffix("XCTestHelperTests.swift") ?? false)
            XCTAssertTrue(captured.first?.message.contains("\"never called\"") ?? false)
        }
        super.tearDown()
    }
    #endif
}
