import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an ``ExchangePlayer`` asks of the registry whose stubs it plays (``StubRegistry``):
/// the player knows nothing about matching, the registry nothing about transports. A player
/// holds its host strongly, so a host holds its registry weakly (a session must not keep its
/// registry alive) and answers a released registry's requests with
/// ``StubError/registryReleased(url:)``.
package protocol ExchangeHost: AnyObject, Sendable {
    /// Matches `request` and builds its answer: an exchange to play, or the error the request
    /// fails with (the journal and hooks already know of it). Runs no user code: called on the
    /// loading context, which the whole process shares. A request that needs some (a closure
    /// matcher, a response closure, a report that runs every matcher) answers
    /// ``ExchangeAnswer/needsUserCode(_:)`` with the rest of the work, which the player runs
    /// through ``runUserCode(_:)``.
    func answer(_ request: StubRequest) -> ExchangeAnswer

    /// ``answer(_:)`` with the registry state its transport read when it claimed the request
    /// (`nil`: none was read, the host reads it now). A host that wraps another and does not
    /// implement this answers through ``answer(_:)``.
    func answer(_ request: StubRequest, claim: RegistryClaim?) -> ExchangeAnswer

    /// `false` when the end of `exchange` calls no hook, so its client's last callback can be
    /// made at once, without handing ``exchange(_:reached:on:then:)`` a callback to run. A
    /// host that wraps another and does not implement this says `true`.
    func endWaitsForHooks(_ exchange: Exchange) -> Bool

    /// Runs `work` (user code: closures, body streams, passthrough transforms) on the
    /// registry's own threads, never on the loading context. With a `watch`, the request that
    /// waits for the work's answer hears of it when the work outlasts `watch.due`.
    func runUserCode(_ work: @escaping @Sendable () -> Void, watch: UserCodeWatch?)

    /// Something the user can watch happened to `exchange`: it is about to be redirected to
    /// `next` (``ExchangeEvent/redirecting(to:)``), or it ended (``ExchangeEvent/ended``: its
    /// ``Exchange/ending`` is set). An ended exchange completes its journal entry, reaches the
    /// exchange checkers and calls `afterFinish`. `then` (the client's last callback) runs on
    /// `scheduler` once the hooks called so far have run, so a test reading what a hook recorded
    /// sees it as soon as it sees the result; with no hook set it runs before this returns.
    /// `exchange` is `nil` for a request that failed before any exchange (its answer was a
    /// failure, or the registry is gone): only `then` is left to run.
    func exchange(
        _ exchange: Exchange?, reached event: ExchangeEvent, on scheduler: any DeliveryScheduler,
        then: (@Sendable () -> Void)?)
}

extension ExchangeHost {
    package func answer(_ request: StubRequest, claim: RegistryClaim?) -> ExchangeAnswer { answer(request) }

    package func endWaitsForHooks(_ exchange: Exchange) -> Bool { true }
}

/// A registry's state as a transport read it when it claimed a request: the one read of the
/// registry a request makes (``StubRegistry/snapshot()``), handed to the player.
package struct RegistryClaim: Sendable {
    let state: StubRegistry.State
}

/// What ``ExchangeHost/answer(_:)`` found.
package enum ExchangeAnswer: Sendable {
    /// A stub answers (or the network does, for an unmatched request passed through).
    case exchange(Exchange)
    /// The request fails with this error before any exchange (no stub, an invalid stub, a
    /// response closure that threw).
    case failure(SendableError)
    /// Answering runs user code: run this off the loading context for the answer.
    case needsUserCode(@Sendable () -> ExchangeAnswer)
}

/// A moment of an exchange that hooks, the journal and checkers hear of.
package enum ExchangeEvent: Sendable {
    /// The stub answered with a redirect to `next`, about to be followed or handed on
    /// (`onRedirect`, before any delegate is asked).
    case redirecting(to: URLRequest)
    /// The exchange ended; ``Exchange/ending`` says how.
    case ended
}

extension ExchangeHost {
    /// ``runUserCode(_:watch:)`` for work no request's timeout waits on.
    func runUserCode(_ work: @escaping @Sendable () -> Void) { runUserCode(work, watch: nil) }
}
