import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import URLStubsTesting
@testable import TestSupport

#if !canImport(ObjectiveC)
/// An XCTest test that throws is still verified at tear-down, as the Swift Testing trait does:
/// the thrown error and the verification problems are all reported. The failures are captured
/// (and checked in `tearDown`) instead of failing this suite.
final class XCTestThrowingTests: XCTestCase {
    private struct AppFailure: Error {}
    private var captured: [(message: String, line: Int)] = []
    private var capturing = true
    private var stubLine = 0

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append((description, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testThrowingTestIsVerifiedToo() async throws {
        let registry = makeStubRegistry()
        stubLine = #line + 1
        registry.stub(isPath("/users") && containsQueryParams(["page": "1"]), name: "first page") { _ in StubResponse(string: "[]") }
            .expect(.once)
        _ = await fetch("https://api.test/users?page=2", from: registry)  // the app swallows this failure…
        throw AppFailure()  // …and the test then throws
    }

    override func tearDown() {
        // Tear-down blocks (where the registry is verified) have run by now.
        capturing = false
        let messages = captured.map(\.message)
        XCTAssertEqual(messages.count, 3, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("threw error") }, "the thrown error")
        XCTAssertTrue(
            captured.contains {
                $0.message.hasPrefix("\"first page\"") && $0.message.contains("was expected exactly once, answered 0 times") && $0.line == stubLine
            })
        XCTAssertTrue(
            messages.contains {
                $0.contains("unexpected request: GET https://api.test/users?page=2 (no stub matched)")
                    && $0.contains(#"expected query parameter "page" = "1", got "2""#) && $0.contains("To stub this request, add:")
            })
        super.tearDown()
    }
}
#endif
