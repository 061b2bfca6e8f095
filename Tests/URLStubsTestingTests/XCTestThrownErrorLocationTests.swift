import Foundation
import XCTest
import URLStubsTesting
@testable import TestSupport

#if !canImport(ObjectiveC)
/// swift-corelibs-xctest reports an error a test method throws at `<EXPR>:0`, whatever the
/// error carries: its `recordFailure(for:)` writes that location, and the protocol that would
/// let an error opt out of it is internal. No library can move it, so the documentation says
/// what to do instead (TestingWithURLStubs.md, "XCTest"); this test pins the fact, so that a
/// corelibs that learns locations fails it and the documentation is revisited.
final class XCTestThrownErrorLocationTests: FailureCapturingTestCase {
    func testAThrownURLStubsErrorHasNoLocation() throws {
        capturing = true
        _ = try Fixture.url("missing.json", inDirectory: URL(fileURLWithPath: NSTemporaryDirectory()))
    }

    override func tearDown() {
        capturing = false
        XCTAssertEqual(captured.map { "\($0.file):\($0.line)" }, ["<EXPR>:0"])
        XCTAssertTrue(captured.first?.message.contains("missing.json") == true, "\(captured)")
        super.tearDown()
    }
}
#endif
