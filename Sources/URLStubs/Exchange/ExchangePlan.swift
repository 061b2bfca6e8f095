import Foundation

/// What one request's client will get, decided once: when its stub answered (or when the
/// network did, for a passthrough). The ``ExchangePlayer`` only carries a plan out; it never
/// looks at a ``StubResponse`` to decide what to do.
///
/// A constant answer's plan is made when the stub is added (`StubAnswer`), a closure's when
/// the closure returns. A plan never changes: what changes it makes a new one,
/// through ``Exchange/replan(_:)`` (a gate's replacement, the network's answer, a redirect
/// delivered as the final response).
///
/// From the stub to the transport the "what to do" value takes three shapes after the
/// declaration's ``StubResponse``: this plan, the ``ResponseHead`` handed to the transport,
/// and the transport's own form of it (an `HTTPURLResponse`, or bytes on a socket).
///
/// A class of immutable fields, not a struct: a constant answer's one plan is shared by every
/// request, and handing it on costs one retain instead of one per field of its response.
package final class ExchangePlan: Sendable {
    /// What the client gets once the plan's moment has come (after its gate and request time).
    package enum Delivery: Sendable {
        /// The head and this whole body, in memory, in one step (the one-line stub).
        case respond(Data)
        /// The head, then the body read and sent, paced: a file, a stream, a slow or a
        /// truncated body, or one whose `Content-Length` must be checked against it.
        case pace
        /// The head and this many body bytes, then the error.
        case failAfterBytes(Int, SendableError)
        /// The head, then a live stream's or a script's writes as they come.
        case stream
        /// A redirect to this `Location`: followed, handed to the client, or delivered.
        case redirect(location: String)
        /// The real network's answer, changed by the transforms.
        case passThrough([ResponseTransform])
        /// The real network's answer from another base.
        case proxy(URL)
        /// No head: this error, after the response's failure delay.
        case fail(SendableError)
        /// The response cannot reach a client (a bad status, header or length): this error,
        /// at the moment the head would have gone.
        case refuse(SendableError)
        /// Nothing: the request ends at its timeout or when the client cancels.
        case never
    }

    /// The response whose head and body the plan sends.
    package let response: StubResponse
    /// What the client gets.
    package let delivery: Delivery
    /// The gate that holds the plan until the test releases it; `nil` once released.
    let gate: ResponseGate?
    /// `true` when ``response`` is what the real network answered: its head is built afresh
    /// (a stub's heads are reused, ``StubDescriptor/head(_:)``).
    let isFromNetwork: Bool
    /// `true` for a redirect delivered as the final response: its cookies were stored when it
    /// was announced.
    let isAnnouncedRedirect: Bool

    /// The plan for `response`, held by `gate` when there is one. `stubName` names the stub
    /// in the error of a response that cannot reach a client.
    convenience init(_ response: StubResponse, gate: ResponseGate?, stubName: @autoclosure () -> String) {
        self.init(response, gate: gate, isFromNetwork: false, isAnnouncedRedirect: false, stubName: stubName())
    }

    private init(
        _ response: StubResponse, gate: ResponseGate?, isFromNetwork: Bool, isAnnouncedRedirect: Bool,
        stubName: @autoclosure () -> String
    ) {
        self.response = response
        self.gate = gate
        self.isFromNetwork = isFromNetwork
        self.isAnnouncedRedirect = isAnnouncedRedirect
        delivery = Self.delivery(of: response, followsRedirect: !isAnnouncedRedirect, stubName: stubName())
    }

    /// The plan of a request answered by the real network (an unmatched request of a
    /// passthrough registry).
    static let network = ExchangePlan(.passthrough(), gate: nil, stubName: "")

    /// The request time: how long after its moment (the answer, or the gate's release) the
    /// head goes out.
    var requestTime: TimeInterval { response.pacing.requestTime }

    /// `true` when the journal records the request as it arrives (in flight) rather than whole
    /// when it ends: anything but a body in memory played at once.
    var recordsOnArrival: Bool { gate != nil || !response.playsAtOnce }

    /// This plan, held by `gate` (the stub's own, set after the plan was made).
    func held(by gate: ResponseGate) -> ExchangePlan {
        ExchangePlan(response: response, delivery: delivery, gate: gate, isFromNetwork: isFromNetwork, isAnnouncedRedirect: isAnnouncedRedirect)
    }

    /// This plan released from its gate, with `replacement` when the test gave one.
    func released(as replacement: StubResponse?, stubName: @autoclosure () -> String) -> ExchangePlan {
        guard let replacement else {
            return ExchangePlan(
                response: response, delivery: delivery, gate: nil, isFromNetwork: isFromNetwork, isAnnouncedRedirect: isAnnouncedRedirect)
        }
        return ExchangePlan(replacement, gate: nil, isFromNetwork: false, isAnnouncedRedirect: false, stubName: stubName())
    }

    /// The plan of what the real network answered.
    func answeredByNetwork(_ real: StubResponse, stubName: @autoclosure () -> String) -> ExchangePlan {
        ExchangePlan(real, gate: nil, isFromNetwork: true, isAnnouncedRedirect: false, stubName: stubName())
    }

    /// This redirect delivered as the final response (declined, or left to the client).
    func deliveringRedirect(stubName: @autoclosure () -> String) -> ExchangePlan {
        ExchangePlan(response, gate: nil, isFromNetwork: isFromNetwork, isAnnouncedRedirect: true, stubName: stubName())
    }

    private init(response: StubResponse, delivery: Delivery, gate: ResponseGate?, isFromNetwork: Bool, isAnnouncedRedirect: Bool) {
        self.response = response
        self.delivery = delivery
        self.gate = gate
        self.isFromNetwork = isFromNetwork
        self.isAnnouncedRedirect = isAnnouncedRedirect
    }

    private static func delivery(of response: StubResponse, followsRedirect: Bool, stubName: @autoclosure () -> String) -> Delivery {
        switch response.action {
        case .neverRespond: return .never
        case .fail(let failure): return .fail(failure)
        case .passThrough(let transforms): return .passThrough(transforms)
        case .proxy(let base): return .proxy(base)
        case .respond, .failAfterBytes: break
        }
        do {
            try response.validate(stubName: stubName())
        } catch {
            return .refuse(SendableError(error: error))
        }
        if followsRedirect, let location = response.redirectLocation { return .redirect(location: location) }
        if response.body.isStreamed { return .stream }
        switch response.action {
        case .failAfterBytes(let bytes, let failure):
            return .failAfterBytes(bytes, failure)
        case .respond(nil):
            guard case .unpaced = response.pacing.body, let data = response.body.data else { return .pace }
            // A Content-Length that contradicts the body: the paced transfer reports it.
            if let declared = response.declaredContentLength, declared != data.count { return .pace }
            return .respond(data)
        default:
            return .pace
        }
    }
}
