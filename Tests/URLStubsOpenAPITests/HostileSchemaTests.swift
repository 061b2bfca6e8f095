import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// Schemas written to exhaust time, memory or the stack end in a clear, bounded answer.
@Suite(.enabled(if: ChildCase.binary != nil, "the child is the .xctest binary swift test runs on Linux"))
struct HostileSchemaTests {
    /// `levels` levels of 10 schemas, each a `oneOf` of the 10 of the next level; the last
    /// level's schemas want integers of at least 10, 20, …
    static func nestedOneOf(levels: Int) -> String {
        var text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
        for level in 0..<levels {
            for branch in 0..<10 {
                let next = (0..<10).map { "{$ref: '#/components/schemas/L\(level + 1)_\($0)'}" }.joined(separator: ", ")
                text += "    L\(level)_\(branch): {oneOf: [\(next)]}\n"
            }
        }
        for branch in 0..<10 { text += "    L\(levels)_\(branch): {type: integer, minimum: \((branch + 1) * 10)}\n" }
        return text
    }

    @Test func nestedOneOfGivesOneBoundedViolationFast() async throws {
        let outcome = try await ChildCase.run("nestedOneOf", argument: "8", stackSize: 8 << 20, timeLimit: 120)
        let result = try #require(outcome.result, "\(outcome)")
        // "<count> violations, <longest> bytes, <seconds> s"
        let parts = result.split(separator: " ")
        #expect(parts.first == "ok:", "\(result)")
        guard parts.count >= 6, let count = Int(parts[1]), let longest = Int(parts[3]), let seconds = Double(parts[5]) else {
            Issue.record("\(result)")
            return
        }
        #expect(count == 1)
        // One line of a report: 1 KB of expected, 1 KB found, the paths.
        #expect(longest < 3_000, "\(result)")
        #expect(seconds < 20, "\(result)")
    }

    @Test func aPatternThatRunsOutOfTimeIsAViolationNamingIt() async throws {
        let contract = try document(
            """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths: {}
            components:
              schemas:
                Code: {type: string, pattern: '(a+)+c|!'}
            """)
        let text = String(repeating: "a", count: 200)
        let outcome = try await ChildCase.run("validateCode", argument: text, stackSize: 8 << 20, timeLimit: 60)
        let result = try #require(outcome.result, "\(outcome)")
        #expect(result.contains("ran out of its 0.5 s time budget on the string (200 characters)"), "\(result)")
        #expect(result.contains("/(a+)+c|!/"), "\(result)")
        _ = contract
    }
}
