import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// The work ``ChildCase/run(_:argument:stackSize:timeLimit:)`` runs in a child process, by
/// name; each takes the argument the parent gave and returns the text the parent checks.
enum ChildCases {
    static let all: [String: @Sendable (String) -> String] = [
        // `argument` is a schema (YAML); the result is what building getThing's 200 gave.
        "buildResponse": { schema in
            outcome {
                let contract = try GeneratedValueTests.document(schema: schema)
                return "\(try contract.response(for: "getThing", status: 200).body.data?.count ?? 0) bytes"
            }
        },
        // `argument` is a whole document (YAML); the result is how reading it ended.
        "readDocument": { text in
            outcome { "\(try document(text))" }
        },
        // `argument` is a number of levels; the result counts the violations of "x" against
        // HostileSchemaTests.nestedOneOf, their longest description and the seconds taken.
        "nestedOneOf": { levels in
            outcome {
                let contract = try document(HostileSchemaTests.nestedOneOf(levels: Int(levels) ?? 8))
                let start = Date()
                let violations = try contract.violations(of: "x", againstSchemaAt: "#/components/schemas/L0_0")
                let seconds = Date().timeIntervalSince(start)
                return "\(violations.count) violations, \(violations.map(\.description.utf8.count).max() ?? 0) bytes, \(seconds) s"
            }
        },
        // `argument` is a string to check against `{type: string, pattern: '(a+)+c|!'}`.
        "validateCode": { text in
            outcome {
                let contract = try document(
                    "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Code: {type: string, pattern: '(a+)+c|!'}\n"
                )
                return try contract.violations(of: .string(text), againstSchemaAt: "#/components/schemas/Code").map(\.description).joined()
            }
        },
        // `argument` is a number of strings of 200 "a"s, checked as one array against
        // PatternBudgetTests.codes; the result counts the violations and the seconds taken, then
        // gives the first and the last violation.
        "validateCodes": { count in
            outcome {
                let value = JSONValue.array(Array(repeating: .string(String(repeating: "a", count: 200)), count: Int(count) ?? 30))
                let start = Date()
                let violations = try PatternBudgetTests.codes.violations(of: value, againstSchemaAt: "#/components/schemas/Codes")
                let seconds = Date().timeIntervalSince(start)
                return "\(violations.count) violations in \(seconds) s; \(violations.first?.description ?? ""); \(violations.last?.description ?? "")"
            }
        },
        // `argument` is "refs N" or "properties N": HostileSchemaTests.deepDocument read, a
        // value checked against it and a response built from it.
        "deepSchema": { argument in
            outcome {
                let parts = argument.split(separator: " ")
                let nesting: HostileSchemaTests.Nesting = parts[0] == "refs" ? .refs : parts[0] == "oneOf" ? .oneOf : .properties
                let contract = try document(HostileSchemaTests.deepDocument(nesting, depth: Int(parts[1])!))
                let schema = try #require(contract.operations.first?.response(for: 200)?.content.first?.schema)
                let value = parts[0] == "refs" ? "x" : HostileSchemaTests.deepValue(depth: Int(parts[1])!)
                let violations = SchemaValidator.violations(of: value, against: schema, in: contract.schemas).violations
                let body = try contract.response(for: "getThing", status: 200).body.data?.count ?? 0
                return "\(violations.count) violations, \(body) bytes; \(violations.first?.description ?? "")"
            }
        },
        // `argument` is a schema, "SPLIT", then the document's components; the result ends in
        // the seconds building getThing's 200 took.
        "timedResponse": { argument in
            outcome {
                let parts = argument.components(separatedBy: "SPLIT\n")
                let contract = try GeneratedValueTests.document(schema: parts[0], components: parts[1])
                let start = Date()
                let bytes = try contract.response(for: "getThing", status: 200).body.data?.count ?? 0
                return "\(bytes) bytes in \(Date().timeIntervalSince(start))"
            }
        },
    ]

    /// `work`'s result, or its error's text.
    static func outcome(_ work: () throws -> String) -> String {
        do {
            return "ok: " + (try work())
        } catch {
            return "error: \(error)"
        }
    }
}
