import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request strategy that also tells HAR replay when a live request is a recorded one in its
/// format: by what the format means (an operation and its variables) rather than by the raw
/// bytes (a document's spacing, a boundary that changes on every run).
///
/// It plugs in as its strategy does, by ``RequestStrategies/register(_:)``; replay asks every
/// registered strategy of this kind, by precedence, and the first identity wins. A request no
/// strategy reads is compared by its JSON or its bytes.
package protocol ReplayStrategy: RequestStrategy {
    /// `request`'s identity in this format with the `volatile` fields left out, or `nil` when it
    /// is not this format's.
    ///
    /// - Parameter sent: For a live request, the request as the app sent it; `request` is then
    ///   the same request scrubbed as the recording was. `nil` for a recorded request.
    func replayIdentity(of request: StubRequest, sent: StubRequest?, volatile: VolatileFields) -> ReplayIdentity?

    /// A tag that tells apart recorded requests of one identity (sent with a document, or by
    /// its hash only): a live request prefers the entry whose tag equals its own. `nil` when
    /// `request` is not this format's.
    func replayTag(of request: StubRequest) -> String?
}

extension ReplayStrategy {
    /// No tag.
    package func replayTag(of request: StubRequest) -> String? { nil }
}

/// What makes a recorded request and a live one the same request in a format
/// (``ReplayStrategy``). Two identities are equal when their formats and keys are.
package struct ReplayIdentity: Sendable, Equatable {
    /// The format, telling identities of different formats apart.
    package let format: String
    /// The text two requests of this format share exactly when they are the same request.
    package let key: String
    /// The identity in a few words, for stub names and reports (`pin text hello`).
    package let summary: String
    /// Query parameters this identity compares (a GET's `query`): left out of the URL.
    package let queryParameters: Set<String>
    /// What the stub index files the replayed entry under, or `nil` for nothing more.
    package let indexKey: IndexKey?
    /// The format's own reading of the request, for its `differences`.
    package let payload: any Sendable
    /// Why `live` is not this recorded request, one reason per difference; `live` is `nil` when
    /// the live request is not of this format. `nil` for the engine's generic line.
    package let differences: @Sendable (ReplayIdentity?) -> [String]?

    /// An identity of `format`, compared by `key`, described by `summary`.
    /// - Parameters:
    ///   - queryParameters: The query parameters the identity covers.
    ///   - indexKey: What the stub index files the entry under.
    ///   - payload: The format's reading of the request, which `differences` reads back.
    ///   - differences: Why a live identity (of the same format, or `nil`) is not this one; `nil`
    ///     for the generic "expected the recorded body …, got …".
    package init(
        format: String, key: String, summary: String, queryParameters: Set<String> = [], indexKey: IndexKey? = nil,
        payload: any Sendable, differences: @escaping @Sendable (ReplayIdentity?) -> [String]?
    ) {
        self.format = format
        self.key = key
        self.summary = summary
        self.queryParameters = queryParameters
        self.indexKey = indexKey
        self.payload = payload
        self.differences = differences
    }

    /// Whether both are the same request of the same format.
    package static func == (lhs: ReplayIdentity, rhs: ReplayIdentity) -> Bool {
        lhs.format == rhs.format && lhs.key == rhs.key
    }
}

extension RequestStrategies {
    /// The registered strategies that read requests for replay, by precedence.
    package static var replaying: [any ReplayStrategy] {
        registered.compactMap { $0 as? any ReplayStrategy }
    }
}
