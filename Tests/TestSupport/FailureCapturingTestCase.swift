import XCTest

/// An XCTest case that can capture its own failures instead of failing, to check the failures
/// a helper records (Linux: `recordFailure` is the one door they all go through; Apple's
/// `XCTExpectFailure` does not exist there).
class FailureCapturingTestCase: XCTestCase {
    /// Failures captured while ``capturing`` was on, oldest first.
    var captured: [(message: String, file: String, line: Int)] = []
    /// Turn on in a test; check ``captured`` (and turn it off) in `tearDown()`, after the
    /// tear-down blocks where helpers verify have run.
    var capturing = false

    #if !canImport(ObjectiveC)
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #endif
}
