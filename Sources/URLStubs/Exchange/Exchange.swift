import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request answered by one stub, from the moment a stub claimed it to the outcome its
/// client saw.
///
/// The registry makes an exchange when a stub matched and built its response (or when an
/// unmatched request goes to the network); the ``ExchangePlayer`` plays it and records here
/// what actually reached the client: the head (its status), how many body bytes, and the error
/// it ended with. When it ends, ``ExchangeHost/exchangeEnded(_:then:)`` feeds the journal, the
/// `afterFinish` hook and the exchange checkers from this one object, so none of them reports
/// what a stub meant to send instead of what the client got.
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

    /// The request as the stub saw it (cookies, configuration headers and body included).
    let request: StubRequest
    /// The stub that answers; ``StubDescriptor/network`` for an unmatched request passed to
    /// the network.
    let stub: StubDescriptor
    /// The response being played: the stub's, a gate's replacement, or the network's.
    var response: StubResponse
    /// The journal entry opened when the request arrived; 0 when the exchange is recorded
    /// whole when it ends (a response played at once).
    let journalSequence: UInt64
    /// The journal entry recorded whole when the exchange ended (``journalSequence`` is 0).
    var recordedSequence: UInt64 = 0
    /// When the request arrived.
    let arrival: Date
    /// The gate that holds the response until the test releases it (``StubResponse/held(by:)``
    /// or ``StubDescriptor/held(by:)``).
    let gate: ResponseGate?
    /// What a failure of the real network is scrubbed of before the client sees it.
    let scrubbing: Scrubbing
    /// The URL this hop loads, named in errors and given to the response head.
    let url: URL
    /// When the hop's response may start: its request time counts from here (a gate's release
    /// restarts it).
    var startTime = DispatchTime.now()
    /// `true` once a gate released this exchange: it is not held again.
    var passedGate = false
    /// `true` once ``response`` holds what the real network answered.
    var cameFromNetwork = false
    /// A redirect response delivered as the final one: the delegate declined it (Linux), or it
    /// was handed to the session, which may decline it (Apple).
    var playsRedirectAsFinal = false
    /// Apple: the redirect was handed to the session; a `stopLoading` now means the session
    /// followed it, which ends this exchange as redirected, not cancelled.
    var handedToSessionTarget: URL?

    /// The status of the head the client received; `nil` until (unless) one reached it.
    private(set) var deliveredStatus: Int?
    /// Body bytes the client received.
    private(set) var deliveredBytes = 0
    /// How it ended; `nil` while it goes on.
    private(set) var ending: Ending?

    init(
        request: StubRequest, stub: StubDescriptor, response: StubResponse, gate: ResponseGate?, journalSequence: UInt64,
        arrival: Date, scrubbing: Scrubbing
    ) {
        self.request = request
        self.stub = stub
        self.response = response
        self.gate = gate
        self.journalSequence = journalSequence
        self.arrival = arrival
        self.scrubbing = scrubbing
        url = request.url ?? URL(fileURLWithPath: "/")
    }

    /// `true` when the response comes from (or goes to) the real network.
    var wentToNetwork: Bool {
        cameFromNetwork || stub === StubDescriptor.network || response.action.passesThrough
    }

    /// The stub's description, for errors.
    var stubDescription: String { stub.description }

    /// The client received `status`'s head.
    func headDelivered(status: Int) { deliveredStatus = status }

    /// The client received `count` more body bytes.
    func bodyDelivered(_ count: Int) { deliveredBytes += count }

    /// Records how the exchange ended; the first ending counts.
    func end(_ how: Ending) {
        if ending == nil { ending = how }
    }

    /// The error the client got, if it ended with one (`URLError(.cancelled)` for a cancel).
    var error: (any Error)? {
        switch ending {
        case .failed(let failure): return failure.error
        case .cancelled: return URLError(.cancelled)
        case .finished, .redirected, nil: return nil
        }
    }
}
