import Foundation
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
