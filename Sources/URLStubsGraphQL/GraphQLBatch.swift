import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsMultipart

// A batch (a JSON array of operations, as apollo-link-batch-http and Apollo Kotlin send) is
// answered operation by operation: each element is looked up as a request of its own, so the
// stubs written for single operations answer batches too, and the answers are joined into one
// JSON array in the same order.

extension StubRequest {
    /// The request as if it carried `operation` alone, as a JSON POST body.
    func answering(_ operation: GraphQLOperationRequest) -> StubRequest {
        var single = urlRequest
        single.httpBodyStream = nil
        single.httpBody = operation.body
        single.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return StubRequest(single, body: operation.body)
    }
}

/// A batch's answers joined into one response.
enum GraphQLBatch {
    /// The batch's response: a JSON array of each stub's body in order, with the status,
    /// headers and timing of the first answer (cookies of all). An answer that fails, never
    /// responds or passes through decides for the whole batch, as one HTTP exchange must.
    @Sendable static func joinedResponse(_ answers: [AnsweredPart]) throws -> StubResponse {
        var bodies: [JSONValue] = []
        var first: StubResponse?
        var cookies: [String] = []
        var requestTime: TimeInterval = 0
        for (index, answer) in answers.enumerated() {
            let response = try answer.response()
            if !response.action.sendsHead || response.action.error != nil { return response }
            let data: Data
            if let inMemory = response.body.data {
                data = inMemory
            } else {
                data = RequestBodyReader.readAll(try response.body.open().stream)
            }
            guard let json = try? JSONValue(data: data) else {
                throw StubError.invalidResponse(
                    reason:
                        "GraphQL response: \(StubError.theStub("\(answer.stub)")) answered operation \(index + 1) of a batch (\(answer.part.summary)) with a body that is not JSON: \(describeBody(data))"
                )
            }
            bodies.append(json)
            if first == nil { first = response }
            cookies += response.headers.values(for: "Set-Cookie")
            requestTime = max(requestTime, response.pacing.requestTime)
        }
        guard let first else { return StubResponse(data: Data("[]".utf8)) }
        var headers = first.headers
        headers.removeAll(named: "Content-Length")
        headers.removeAll(named: "Set-Cookie")
        for cookie in cookies { headers.append(name: "Set-Cookie", value: cookie) }
        var joined = StubResponse(data: JSONValue.array(bodies).serialized(), statusCode: first.statusCode, headers: headers)
        joined.httpVersion = first.httpVersion
        joined.pacing = first.pacing
        joined.pacing.requestTime = requestTime
        return joined
    }
}
