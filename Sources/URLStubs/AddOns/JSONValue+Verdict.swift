import Foundation

extension JSONValue {
    /// Why `data` is not JSON, as a report says it after "the file" (`is not valid JSON:
    /// expected … at line 3, column 7 (byte 20)`, or that it is nested too deep); `nil` when it
    /// is JSON.
    package static func verdict(on data: Data) -> String? {
        problem(in: data)?.verdict
    }

    /// How ``verdict(on:)`` says `error`, when it is the error of a JSON text that
    /// `parsing(_:)` rejected; `nil` for any other error.
    package static func verdict(of error: any Error) -> String? {
        (error as? JSONSyntaxError)?.verdict
    }

    /// For JSON text that nests deeper than the readers go (this package's, `JSONDecoder`'s
    /// and `JSONSerialization`'s limit is the same), how deep it nests and that limit; `nil`
    /// otherwise. Counts brackets outside strings only: cheap for a large text.
    package static func excessNesting(of data: Data) -> (depth: Int, limit: Int)? {
        JSONNesting.depthBeyondLimit(of: data).map { (depth: $0, limit: JSONSyntaxError.maximumDepth) }
    }

    /// What a reader of a JSON-based format (HAR) expected, for an error `parsing(_:)` threw:
    /// `valid JSON: <reason, line, column and byte>`, or `JSON nested at most 512 levels deep,
    /// but the text is nested deeper …`; `nil` for any other error.
    package static func expectation(after error: any Error) -> String? {
        guard let problem = error as? JSONSyntaxError else { return nil }
        let expected =
            problem.isTooDeep ? "JSON nested at most \(JSONSyntaxError.maximumDepth) levels deep, but the text is" : "valid JSON:"
        return "\(expected) \(problem)"
    }
}
