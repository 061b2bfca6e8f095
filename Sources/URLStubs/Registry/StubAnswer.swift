import Foundation

/// How a stub builds its response: a value known when the stub was added, or code to run.
///
/// The difference decides where a request is answered: a value is played on the loading
/// context at once, while code (the test's closure) runs on the registry's user-code lane
/// (``UserCodeRunner``), so a closure that blocks never holds up another request.
enum StubAnswer: Sendable {
    /// The same response every time (the one-line stubs, `json:`/`data:`/status-only).
    case constant(StubResponse)
    /// Each response in turn, the last one repeated (``StubRegistry/stub(_:name:responses:afterLast:fileID:filePath:line:)``).
    case sequence([StubResponse])
    /// A closure of the activation index.
    case closure(@Sendable (StubRequest, Int) throws -> StubResponse)

    /// The responses known without a request (none for a closure).
    var knownResponses: [StubResponse] {
        switch self {
        case .constant(let response): return [response]
        case .sequence(let responses): return responses
        case .closure: return []
        }
    }

    /// `true` when building the response runs code that may block.
    var runsUserCode: Bool {
        if case .closure = self { return true }
        return false
    }

    func response(to request: StubRequest, activation: Int) throws -> StubResponse {
        switch self {
        case .constant(let response): return response
        case .sequence(let responses):
            guard !responses.isEmpty else { return StubResponse(data: Data(), statusCode: 204) }
            return responses[min(activation, responses.count - 1)]
        case .closure(let respond): return try respond(request, activation)
        }
    }
}
