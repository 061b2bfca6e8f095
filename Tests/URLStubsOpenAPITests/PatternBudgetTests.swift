import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// One check of a value has one time budget for all its regular expressions, so a pattern that
/// backtracks catastrophically costs about that budget, not that budget for each string.
@Suite(.enabled(if: ChildCase.binary != nil, "the child is the .xctest binary swift test runs on Linux"))
struct PatternBudgetTests {
    static let codes = try! document(
        """
        openapi: 3.0.3
        info: {title: t, version: '1'}
        paths: {}
        components:
          schemas:
            Codes: {type: array, items: {type: string, pattern: '(a+)+c|!'}}
        """)

    @Test func thirtyStringsAgainstACatastrophicPatternCostOneBudget() async throws {
        let outcome = try await ChildCase.run("validateCodes", argument: "30", stackSize: 8 << 20, timeLimit: 120)
        let result = try #require(outcome.result, "\(outcome)")
        // "ok: <count> violations in <seconds> s; <first>; <last>"
        let words = result.split(separator: " ")
        guard words.count > 5, words[0] == "ok:", let count = Int(words[1]), let seconds = Double(words[4]) else {
            Issue.record("\(result)")
            return
        }
        // Each string is undecided, a violation each, and all of them cost one budget of 0.5 s
        // (not 0.5 s each: 15 s).
        #expect(count == 30, "\(result)")
        #expect(seconds < 5, "\(result)")
        #expect(result.contains("$[0]: expected a string matching /(a+)+c|!/"), "\(result)")
        #expect(result.contains("ran out of its 0.5 s time budget on the string (200 characters)"), "\(result)")
        #expect(
            result.hasSuffix(
                "$[29]: expected a string matching /(a+)+c|!/, found \"\(String(repeating: "a", count: 57))...\", which was not checked: "
                    + "the check's 0.5 s for regular expressions was spent (/(a+)+c|!/ on $[0] ran out of it) "
                    + "(#/components/schemas/Codes/items/pattern)"),
            "\(result)")
    }
}
