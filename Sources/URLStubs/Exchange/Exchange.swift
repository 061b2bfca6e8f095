import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request answered by one stub: the request, the plan it is answered by, and the outcome
/// its client saw.
///
/// The registry makes an exchange when a stub matched and planned its answer (or when an
/// unmatched request goes to the network), with the registry's state as it read it when the
/// request was claimed (``claim``): hooks, checkers and scrubbing come from there, not from a
/// second read. The ``ExchangePlayer`` carries out the ``plan`` and records the ``outcome``.
/// When it ends, ``ExchangeHost/exchange(_:reached:on:then:)`` feeds the journal, the
/// `afterFinish` hook and the exchange checkers from this one object, so none of them reports
/// what a stub meant to send instead of what the client got.
///
/// One writer per field: the registry's initializer writes the request, the stub and the
/// claim; ``replan(_:)`` (called by the player) the plan; the player's deliveries
/// (`ExchangePlayer+Head.swift`, ``ExchangePlayer/end(_:lastCallback:)``) the outcome; the
/// registry's `ended` the journal number of an exchange recorded whole (``journaled(as:)``).
///
/// A redirect followed inside one player is a new exchange (the next hop is matched anew); the
/// hop that redirected ends as ``Ending/redirected(to:)``.
///
/// Touched on its player's delivery context only, but for the fields set before it is handed
/// to the player.
package final class Exchange: @unchecked Sendable {
    /// How an exchange ended, as its client saw it.
    package enum Ending: Sendable {
        /// The whole response was delivered.
        case finished
        /// The client got this error (after the head and some body bytes, or before any).
        case failed(SendableError)
        /// The client cancelled, or went away.
        case cancelled
        /// The response was a redirect, followed to the next hop (``ExchangePlayer`` on Linux,
        /// the session on Apple platforms).
        case redirected(to: URL)
    }

    /// What reached the client.
    struct Outcome {
        /// The status of the head the client received; `nil` until (unless) one reached it.
        var status: Int?
        /// Body bytes the client received.
        var bodyBytes = 0
        /// How it ended; `nil` while it goes on.
        var ending: Ending?
    }

    /// The request as the stub saw it (cookies, configuration headers and body included).
    let request: StubRequest
    /// The stub that answers; ``StubDescriptor/network`` for an unmatched request passed to
    /// the network.
    let stub: StubDescriptor
    /// The registry's state read when the request was claimed: its hooks, checkers and
    /// scrubbing serve the whole exchange.
    let claim: StubRegistry.State
    /// The journal entry opened when the request arrived; 0 when the exchange is recorded
    /// whole when it ends (a response played at once).
    let journalSequence: UInt64
    /// When the request arrived.
    let arrival: Date
    /// The stub's previous head, read with its activation (``StubDescriptor/head(_:kept:)``).
    let keptHead: StubDescriptor.KeptHead?
    /// The URL this hop loads, named in errors and given to the response head.
    let url: URL
    /// What the client gets. Written by ``replan(_:)`` only.
    @exclusivity(unchecked) private(set) var plan: ExchangePlan
    /// What the client got. Written by ``headDelivered(status:)``, ``bodyDelivered(_:)`` and
    /// ``end(_:)`` only.
    @exclusivity(unchecked) private(set) var outcome = Outcome()
    /// The journal entry recorded whole when the exchange ended (``journalSequence`` is 0).
    @exclusivity(unchecked) private(set) var recordedSequence: UInt64 = 0

    init(
        request: StubRequest, stub: StubDescriptor, plan: ExchangePlan, journalSequence: UInt64, arrival: Date,
        claim: StubRegistry.State, keptHead: StubDescriptor.KeptHead? = nil
    ) {
        self.request = request
        self.keptHead = keptHead
        self.stub = stub
        self.plan = plan
        self.journalSequence = journalSequence
        self.arrival = arrival
        self.claim = claim
        url = request.url ?? URL(fileURLWithPath: "/")
    }

    /// The response the plan sends: the stub's, a gate's replacement, or the network's.
    var response: StubResponse { plan.response }

    /// What a failure of the real network is scrubbed of before the client sees it.
    var scrubbing: Scrubbing { claim.scrubbing }

    /// `true` once ``response`` holds what the real network answered.
    var cameFromNetwork: Bool { plan.isFromNetwork }

    /// `true` when the response comes from (or goes to) the real network.
    var wentToNetwork: Bool {
        plan.isFromNetwork || stub === StubDescriptor.network || response.action.passesThrough
    }

    /// The stub's description, for errors.
    var stubDescription: String { stub.description }

    /// The status of the head the client received; `nil` until (unless) one reached it.
    var deliveredStatus: Int? { outcome.status }
    /// Body bytes the client received.
    var deliveredBytes: Int { outcome.bodyBytes }
    /// How it ended; `nil` while it goes on.
    var ending: Ending? { outcome.ending }

    /// The plan changed: a gate released it (perhaps with another response), the network
    /// answered, or a redirect is delivered as the final response.
    func replan(_ next: ExchangePlan) { plan = next }

    /// The client received `status`'s head.
    func headDelivered(status: Int) { outcome.status = status }

    /// The client received `count` more body bytes.
    func bodyDelivered(_ count: Int) { outcome.bodyBytes += count }

    /// Records how the exchange ended; the first ending counts.
    func end(_ how: Ending) {
        if outcome.ending == nil { outcome.ending = how }
    }

    /// The journal recorded the ended exchange as entry `sequence`.
    func journaled(as sequence: UInt64) { recordedSequence = sequence }

    /// The error the client got, if it ended with one (`URLError(.cancelled)` for a cancel).
    var error: (any Error)? {
        switch outcome.ending {
        case .failed(let failure): return failure.error
        case .cancelled: return URLError(.cancelled)
        case .finished, .redirected, nil: return nil
        }
    }
}
