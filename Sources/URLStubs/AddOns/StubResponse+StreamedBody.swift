import Foundation

/// One write of a body that arrives over time (``StubResponse/init(streamedBody:statusCode:headers:)``).
package enum StreamedWrite: Sendable {
    /// Bytes, delivered as one `didReceive data` where the client takes chunks.
    case data(Data)
    /// The end: the request finishes once the writes before it are delivered.
    case finish
    /// The end with an error, like a connection lost mid-stream: the request fails with it once
    /// the writes before it are delivered.
    case failure(any Error)
}

/// How a streamed body arrives for one request: what an add-on's source answers when the
/// response head is due.
package enum StreamedBodyPlay {
    /// Writes the source pushes while the request runs: the engine takes them from the
    /// connection each time the source calls its `wake`, and tells it what the app has taken
    /// (room for more) and when the request lets go.
    case pushed(any StreamedBodyConnection)
    /// Writes at set moments: each after its `pause` (seconds after the previous one; the first
    /// counts from the head), and paced like any other body on top of the pauses
    /// (`requestTime(_:responseTime:)`, `downloadSpeed(_:)`). The body finishes after the last
    /// write unless a `.finish` or `.failure` ends it sooner; writes after one are not sent.
    case scripted([(pause: TimeInterval, write: StreamedWrite)])
}

/// One request connected to a source that pushes writes (``StreamedBodyPlay/pushed(_:)``).
/// The engine calls it on the loading context, never twice at once.
package protocol StreamedBodyConnection: AnyObject, Sendable {
    /// The writes waiting, oldest first; none when nothing waits (a `wake` may come twice).
    /// After a write that ends the body, the engine takes nothing more.
    func take() -> [StreamedWrite]
    /// The app has taken `bytes` of the writes handed on (a delegate's `didReceive data` ran,
    /// or the whole body was delivered): the source's room to write grows by that much.
    func consumed(_ bytes: Int)
    /// The request let go of the body: called once as it ends, after the end was delivered or
    /// before it (`reason` says why: `"the app cancelled the request that was reading it"`, for
    /// a source that is still being written).
    func disconnect(reason: String)
}

extension StubResponse {
    /// A response whose body arrives over time from a source an add-on provides (a live stream
    /// the test writes, a script): the head goes out without `Content-Length`, then each write
    /// as it comes. A `HEAD` request gets the head alone, and `play` is not called.
    ///
    /// - Parameter play: Called once per request when its head is due, with the request, the
    ///   stub's description (for errors) and `wake`, which a pushing source calls (from any
    ///   thread) when writes wait to be taken. What it throws fails the request before any head.
    package init(
        streamedBody play: @escaping StubBody.StreamedSource, statusCode: Int = 200, headers: HeaderFields = [:]
    ) {
        self.init(bodySource: .streamed(play), statusCode: statusCode, headers: headers)
    }
}

extension StubBody {
    /// Where a streamed body comes from (``StubResponse/init(streamedBody:statusCode:headers:)``):
    /// given the request, the stub's description and a wake call, how its writes arrive.
    package typealias StreamedSource =
        @Sendable (_ request: StubRequest, _ stub: String, _ wake: @escaping @Sendable () -> Void) throws -> StreamedBodyPlay
}
