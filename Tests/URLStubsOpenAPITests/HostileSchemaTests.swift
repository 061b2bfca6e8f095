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

    enum Nesting { case refs, properties, oneOf }

    /// Schemas `S0` … `S<depth>`: each a `$ref` to the next (`refs`), an object whose property `a`
    /// is the next (`properties`), or a `oneOf` of an integer and such an object (`oneOf`);
    /// getThing answers with `S0`.
    static func deepDocument(_ nesting: Nesting, depth: Int) -> String {
        var text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /thing:\n    get:\n      operationId: getThing\n"
        text += "      responses:\n        '200':\n          description: ok\n          content:\n"
        text += "            application/json: {schema: {$ref: '#/components/schemas/S0'}}\ncomponents:\n  schemas:\n"
        for level in 0..<depth {
            switch nesting {
            case .refs: text += "    S\(level): {$ref: '#/components/schemas/S\(level + 1)'}\n"
            case .properties: text += "    S\(level): {type: object, required: [a], properties: {a: {$ref: '#/components/schemas/S\(level + 1)'}}}\n"
            case .oneOf:
                text +=
                    "    S\(level): {oneOf: [{type: integer}, {type: object, required: [a], properties: {a: {$ref: '#/components/schemas/S\(level + 1)'}}}]}\n"
            }
        }
        text += "    S\(depth): {type: string}\n"
        return text
    }

    /// `{"a": {"a": … "x" …}}`, `depth` levels.
    static func deepValue(depth: Int) -> JSONValue {
        var value: JSONValue = "x"
        for _ in 0..<min(depth, 200) { value = ["a": value] }
        return value
    }

    /// On a 512 KB stack (a secondary thread's on Apple platforms), in a debug build: a clear
    /// answer, never a crash.
    @Test(arguments: ["refs 25", "refs 2000", "properties 25", "properties 40", "properties 500", "oneOf 500"])
    func deepSchemasEndInAClearAnswerOnASmallStack(argument: String) async throws {
        let outcome = try await ChildCase.run("deepSchema", argument: argument, stackSize: 512 << 10, timeLimit: 120)
        let result = try #require(outcome.result, "crashed: \(outcome)")
        #expect(outcome.status == 0, "\(outcome)")
        // A chain of $refs is followed in a loop, at any length.
        if argument.hasPrefix("refs") || argument == "properties 25" || argument == "properties 40" {
            #expect(result.hasPrefix("ok:"), "\(result)")
        } else if argument.hasPrefix("oneOf") {
            // The integer branch makes the response; the value 200 levels deep breaks both
            // branches: the object branch at its bottom, a string where S200 wants an integer
            // or an object.
            #expect(result.hasPrefix("ok: 1 violations, 1 bytes"), "\(result)")
        } else {
            #expect(result.contains("levels"), "\(result)")
        }
    }
}

/// Building a response from a wide, interlinked schema (an error object reaching many others
/// through optional properties, `oneOf`s and `$ref`s) takes milliseconds, not minutes.
@Suite(.enabled(if: ChildCase.binary != nil, "the child is the .xctest binary swift test runs on Linux"))
struct GenerationSpeedTests {
    /// `count` schemas of 12 optional properties each; property `k` of `N<i>` is a `$ref` to
    /// `N<(i + k + 1) % count>` or an `anyOf` of two of them, so every schema reaches every other.
    static func interlinked(count: Int) -> String {
        var text = "type: object\nrequired: [error]\nproperties:\n  error: {$ref: '#/components/schemas/N0'}\n"
        text += "SPLIT\ncomponents:\n  schemas:\n"
        for index in 0..<count {
            var properties: [String] = []
            for property in 0..<12 {
                let target = "'#/components/schemas/N\((index + property + 1) % count)'"
                let other = "'#/components/schemas/N\((index + 2 * property + 3) % count)'"
                properties.append(
                    property % 3 == 0
                        ? "p\(property): {anyOf: [{$ref: \(target)}, {$ref: \(other)}]}"
                        : property % 3 == 1 ? "p\(property): {type: array, items: {$ref: \(target)}}" : "p\(property): {$ref: \(target)}")
            }
            text += "    N\(index): {type: object, properties: {code: {type: string}, \(properties.joined(separator: ", "))}}\n"
        }
        return text
    }

    @Test func aResponseFromAWideInterlinkedSchemaIsBuiltFast() async throws {
        let outcome = try await ChildCase.run("timedResponse", argument: Self.interlinked(count: 40), stackSize: 8 << 20, timeLimit: 120)
        let result = try #require(outcome.result, "\(outcome)")
        #expect(result.hasPrefix("ok:"), "\(result)")
        let seconds = Double(result.split(separator: " ").last ?? "") ?? .infinity
        // A few milliseconds in a debug build on an idle machine; generous for a loaded one.
        #expect(seconds < 2, "\(result)")
    }
}
