import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a player's output goes (the protocol's client).
protocol PlaybackSink: AnyObject {
    /// `true` once the task is being cancelled but `stopLoading` has not run yet. corelibs
    /// marks the task `.canceling`, then calls `stopLoading` in a later work-queue step; a
    /// finish in between crashes it ("a task that is not in the registry").
    var isBeingCancelled: Bool { get }
    /// `true` once `stopLoading` ran: not one callback after that.
    var isStopped: Bool { get }
    func playerDidReceive(_ response: HTTPURLResponse)
    func playerDidLoad(_ data: Data)
    func playerDidFinish()
    func playerDidFail(_ error: any Error)
    /// Apple platforms: hand the redirect to the session, which asks its delegate and loads
    /// the new request through a new protocol instance (then stops this one), or declines.
    func playerWasRedirected(to request: URLRequest, by response: HTTPURLResponse)
}

/// What a player asks of the registry whose stubs it plays (``StubRegistry`` in the library;
/// the player knows nothing about matching, the registry nothing about `URLProtocol`).
protocol PlaybackHost: AnyObject, Sendable {
    /// Where the registry's user code runs (``UserCodeRunner``).
    var userCode: UserCodeRunner.Lane { get }
    /// Answers `request` at once when that runs no user code; otherwise says what must run
    /// off the loading context. Called on the loading context.
    func prepareInline(_ request: StubRequest) -> InlinePreparation
    /// Resolves and answers `request`, running any user code. Called off the loading context.
    func prepare(_ request: StubRequest) -> PreparedItem
    /// Runs `stub`'s response closure for `request`. Called off the loading context.
    func respond(with stub: StubDescriptor, to request: StubRequest, activation: Int) -> PreparedItem
    /// The next hop of a redirect followed inside one player (Linux). Off the loading context.
    func resolveRedirect(to next: URLRequest, from previous: PlaybackItem) -> PreparedItem
    /// A stub answered with a redirect, about to be followed or handed on.
    func announceRedirect(of item: PlaybackItem, to next: URLRequest)
    /// A hop ended.
    func playbackEnded(item: PlaybackItem, outcome: PlaybackOutcome)
    /// A gate released `item` with another response than its stub built (``ResponseGate``).
    func responseReplaced(in item: PlaybackItem)
    /// What a failure of the real network is scrubbed of before the app sees it
    /// (``StubRegistry/scrubbing``).
    var scrubbing: Scrubbing { get }
    /// `true` when a hook is set: the last callback then waits for the hooks to run.
    var hasHooks: Bool { get }
    /// Runs `work` on `scheduler` once the hooks called so far have run.
    func afterHooks(on scheduler: any DeliveryScheduler, _ work: @escaping @Sendable () -> Void)
}

/// What ``PlaybackHost/prepareInline(_:)`` found.
enum InlinePreparation {
    /// The item (or the failure) is ready: nothing needs to leave the loading context.
    case ready(PreparedItem)
    /// A stub matched, and its response closure must run (off the loading context).
    case respond(StubDescriptor, StubRequest, activation: Int)
    /// Matching itself runs user code (a closure matcher, a report that runs every matcher):
    /// everything is done off the loading context.
    case offContext
}

/// A stub's response for one request, ready to play.
struct PlaybackItem: Sendable {
    let descriptor: StubDescriptor
    let request: StubRequest
    var response: StubResponse
    /// The journal entry recording this request (0: none).
    var journalEntry: UInt64 = 0
    /// `true` once ``response`` holds what the real network answered.
    var cameFromNetwork = false
    /// `true` once a gate released this hop (``ResponseGate``): it is not held again.
    var passedGate = false
}

/// How a player ended: exactly one of these per player.
enum PlaybackOutcome {
    case finished(StubResponse)
    case failed(any Error, StubResponse?)
    case cancelled(StubResponse?)
}

/// What preparing a hop produced: the item to play, or the error the task fails with.
typealias PreparedItem = Result<PlaybackItem, SendableError>
