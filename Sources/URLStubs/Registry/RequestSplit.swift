import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request that no stub answers whole, read as parts that each stub answers on its own (the
/// operations of a batch), and how the parts' answers become one response.
///
/// The registry looks each part up as it looks up a request, newest stub first: when every
/// part finds a stub, each of those stubs is used once and ``join`` builds the response; when
/// one part finds none, the request is unmatched and no stub keeps a use.
package struct RequestSplit: Sendable {
    /// The parts, in the order their answers are joined.
    package var parts: [RequestPart]
    /// What a part is called in the report: `"Operation"` reads "Operation 1 of 2, …".
    package var partNoun: String
    /// What the whole is called: the journal names its answer "\(wholeName) of a, b".
    package var wholeName: String
    /// The response to the whole request, from each part's answer in order; thrown errors fail
    /// the request as a throwing response closure does.
    package var join: @Sendable ([AnsweredPart]) throws -> StubResponse

    /// A split into `parts`, named and joined as the properties of the same names say.
    package init(
        parts: [RequestPart], partNoun: String, wholeName: String, join: @escaping @Sendable ([AnsweredPart]) throws -> StubResponse
    ) {
        self.parts = parts
        self.partNoun = partNoun
        self.wholeName = wholeName
        self.join = join
    }
}

/// One part of a ``RequestSplit``: the request as if it had been sent alone.
package struct RequestPart: Sendable {
    /// The part as a request of its own.
    package var request: StubRequest
    /// The part in a few words, for the report and errors (`query "GetUser"`).
    package var summary: String

    /// A part sent as `request`, described by `summary`.
    package init(request: StubRequest, summary: String) {
        self.request = request
        self.summary = summary
    }
}

/// A part and the stub that answers it, one of its uses already taken.
package struct AnsweredPart: Sendable {
    /// The part answered.
    package let part: RequestPart
    /// The stub that answers it.
    package let stub: StubDescriptor
    /// The part's request as the stub's matcher saw it (with its path parameters).
    let request: StubRequest
    let activation: Int

    /// The stub's response to this part (its response closure runs here).
    package func response() throws -> StubResponse {
        try stub.response(to: request, activation: activation)
    }
}
