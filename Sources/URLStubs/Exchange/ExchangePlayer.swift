import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plays one request for its transport, from the registry's answer to the client's last
/// callback. Every state it can be in is a case of ``Phase`` (`ExchangePlayer+Phase.swift`),
/// each carrying what it needs. Starting, answering, holding, cancelling and ending are here;
/// the head, the body, streams, redirects, passthrough and the timeout are beside it
/// (`ExchangePlayer+….swift`), each entering the phase it plays.
///
/// ```text
/// idle ─> answering ─> held ─> waiting ─┬─> openingBody ─> sendingBody ──┐
///             ▲                         ├─> streaming ───────────────────┤
///             │                         ├─> passingThrough ─> (head) ... ├─> finishing ─> ended
///             └── askingAboutRedirect <─┘   (a redirect: the next hop)   │
///                 any phase ── cancel, timeout, failure ─────────────────┘
/// ```
///
/// Steps run one at a time on the transport's ``DeliveryScheduler`` (a serial context), as do
/// `start` and `cancel`: so state needs no lock and no callback is made while holding one. Each
/// asynchronous step enters through ``asStep(_:)``, which runs nothing once the player is
/// ``Phase/finishing`` or ``Phase/ended`` and ends it when the client is gone: that one check
/// is the only answer to "may I still call the client?".
///
/// That context is shared by the whole process (corelibs' work queues all target one serial
/// queue; Apple loads every custom protocol on one thread), so nothing slow runs there: response
/// closures, passthrough transforms, opening and reading file or stream bodies run through the
/// host's ``ExchangeHost/runUserCode(_:)`` and come back with their result. A stub whose answer
/// is a value with a body in memory is played in the very step that started it. The request's
/// timeout clock starts in ``start(_:uploadBody:hidesUploadBody:)`` and covers everything (while
/// user code answers, the runner that holds the job watches it: ``UserCodeWatch``); once the
/// head is sent it bounds the gap between parts of the body.
package final class ExchangePlayer: @unchecked Sendable {
    // @unchecked: every field is touched on the scheduler only (`timeoutCheckDue` hops there),
    // one step at a time: the runtime's exclusivity checks would only repeat that. The two
    // hand-over fields of user code are the exception, and each is touched by one side at a
    // time: see ``answerOffContext(_:)``.

    /// Body chunks are read in at most this many bytes.
    static let maximumChunkSize = 256 * 1024
    /// A paced body is sent in chunks about this far apart.
    static let pacingInterval = 0.05

    @exclusivity(unchecked) var phase = Phase.idle
    let traits: TransportTraits
    /// Weak: the transport owns its player; a transport released is a client gone.
    private(set) weak var transport: (any ExchangeTransport)?
    /// Held strongly, since a host holds its registry weakly: a session does not keep its
    /// registry alive, and a released registry's host fails the requests it is asked about.
    let host: any ExchangeHost
    /// Redirects that led here, counted across hops and protocol instances.
    @exclusivity(unchecked) var redirectCount: Int
    /// The last moment the request made progress (started, got its head, delivered a part).
    @exclusivity(unchecked) var lastProgress = DispatchTime.now()
    /// A body withheld for a client that gets it whole: the parts it would have received keep
    /// arriving until this moment, as far as the timeout is concerned.
    @exclusivity(unchecked) var progressPromisedUntil: DispatchTime?
    /// How the player ended while the registry was still answering: the late exchange ends so.
    @exclusivity(unchecked) private var endingBeforeExchange: Exchange.Ending?
    /// When the current exchange's request time started: its answer, or its gate's release.
    @exclusivity(unchecked) private var clockStart = DispatchTime.now()
    /// The registry state read when the transport claimed the request (``RegistryClaim``).
    @exclusivity(unchecked) var claim: RegistryClaim?
    /// Apple: the redirect handed to the session; a `stopLoading` now means the session
    /// followed it, which ends the exchange as redirected, not cancelled.
    @exclusivity(unchecked) var handedToSession: URL?
    /// User code handed to the host's threads, and the answer it gave, handed back.
    @exclusivity(unchecked) var userCode: (@Sendable () -> ExchangeAnswer)?
    @exclusivity(unchecked) var userCodeAnswer: ExchangeAnswer?
    /// Handed user code whose answer is not back yet (scheduler only).
    @exclusivity(unchecked) var awaitsUserCode = false
    /// Registered with the ``TimeoutMonitor``, which then checks again until the player ends.
    @exclusivity(unchecked) var isTimeoutArmed = false
    /// The URL the client asked for, named in errors before any exchange exists.
    let requestURL: URL
    /// Set while ``end(_:lastCallback:)`` reports the ending: a last callback made then is part
    /// of the step that checked the client, and needs no second check.
    @exclusivity(unchecked) private var endsWithinThisStep = false

    /// A player for one request of `transport`, answered by `host`; `url` names the request in
    /// errors before any exchange exists. Call ``start(_:uploadBody:hidesUploadBody:)`` next.
    package init(url: URL?, traits: TransportTraits, transport: any ExchangeTransport, host: any ExchangeHost) {
        requestURL = url ?? URL(fileURLWithPath: "/")
        self.traits = traits
        self.transport = transport
        self.host = host
        redirectCount = traits.redirectsSoFar
    }

    var scheduler: any DeliveryScheduler { traits.scheduler }

    // MARK: Steps

    /// `work` as a step of this player: it runs only while the player goes on, and ends the
    /// player instead when the client is gone. Call the result on the scheduler.
    func asStep(_ work: @escaping @Sendable (ExchangePlayer) -> Void) -> @Sendable () -> Void {
        { [self] in
            guard enterStep() else { return }
            work(self)
        }
    }

    private func enterStep() -> Bool {
        switch phase {
        case .ended, .finishing: return false
        default: break
        }
        guard let transport, !transport.isClientGone else {
            end(.cancelled)
            return false
        }
        return true
    }

    /// Runs `work` as a later step, at `due` (as soon as possible when `nil`).
    func step(at due: DispatchTime? = nil, _ work: @escaping @Sendable (ExchangePlayer) -> Void) {
        if let due {
            scheduler.at(due, asStep(work))
        } else {
            scheduler.async(asStep(work))
        }
    }

    /// Runs `work` now when `due` has passed (this is a step already), else as a step at `due`.
    func continueAt(_ due: DispatchTime, _ work: @escaping @Sendable (ExchangePlayer) -> Void) {
        if due <= .now() {
            work(self)
        } else {
            step(at: due, work)
        }
    }

    // MARK: Start and cancel

    /// Starts the request (as a server would see it: cookies and configuration headers
    /// included), on the scheduler. A body stream is read off the loading context.
    package func start(_ request: URLRequest, uploadBody: Data?, hidesUploadBody: Bool) {
        lastProgress = .now()
        defer {
            // A request answered within this call needs no timeout; one that waits for user
            // code is watched by the runner until the answer is back.
            if !isOver, !awaitsUserCode { armTimeout() }
        }
        phase = .answering
        guard request.httpBodyStream == nil, !traits.answersInline else {
            let claim = claim, host = host
            answerOffContext {
                let body = RequestBodyReader.fullBody(of: request, uploadBody: uploadBody)
                let answer = host.answer(
                    StubRequest(request, body: body, pathParameters: [:], isBodyKnown: body != nil || !hidesUploadBody), claim: claim)
                if case .needsUserCode(let work) = answer { return work() }
                return answer
            }
            return
        }
        let body = request.httpBody ?? uploadBody
        answer(StubRequest(request, body: body, pathParameters: [:], isBodyKnown: body != nil || !hidesUploadBody))
    }

    /// Asks the host for `request`'s answer; user code it needs runs off the loading context.
    func answer(_ request: StubRequest) {
        phase = .answering
        answered(host.answer(request, claim: claim), inStep: true)
    }

    /// `true` once the outcome is known.
    var isOver: Bool {
        switch phase {
        case .finishing, .ended: return true
        default: return false
        }
    }

    /// Stops at once: closes what the phase holds, makes no further callback. Called on the
    /// scheduler, by the transport.
    package func cancel() {
        switch phase {
        case .ended:
            return
        case .finishing:
            // The outcome is reported; the last callback is not made now.
            phase = .ended
        default:
            if current != nil, let target = handedToSession {
                // Apple stops the protocol of a redirect its session follows.
                end(.redirected(to: target))
            } else {
                end(.cancelled)
            }
        }
    }

    /// The registry's answer came back: within the current step (`inStep`), or as a step of
    /// its own, which checks first that the client is still there.
    func answered(_ answer: ExchangeAnswer, inStep: Bool) {
        switch answer {
        case .needsUserCode(let work):
            answerOffContext(work)
        case .failure(let failure):
            guard case .answering = phase, inStep || enterStep() else { return }
            fail(failure.error)
        case .exchange(let exchange):
            guard case .answering = phase else {
                // Ended meanwhile (a timeout, a cancel): the late exchange ends the same way.
                exchange.end(endingBeforeExchange ?? .cancelled)
                host.exchange(exchange, reached: .ended, on: scheduler, then: nil)
                return
            }
            guard inStep || enterStep() else {
                exchange.end(.cancelled)
                host.exchange(exchange, reached: .ended, on: scheduler, then: nil)
                return
            }
            clockStart = .now()
            play(exchange)
        }
    }

    // MARK: Head

    /// Plays `exchange`'s plan: held at its gate, or after its request time, or at once.
    func play(_ exchange: Exchange) {
        phase = .waiting(exchange)
        let plan = exchange.plan
        if let gate = plan.gate {
            let held = HeldRequest(request: exchange.request) { [self] release in
                step { $0.released(exchange, release) }
            }
            phase = .held(exchange, gate, held)
            gate.hold(held)
            return
        }
        if plan.requestTime > 0 {
            step(at: clockStart + plan.requestTime) { $0.sendHead(of: exchange) }
        } else {
            sendHead(of: exchange)
        }
    }

    private func released(_ exchange: Exchange, _ release: GateRelease) {
        // The response goes out now: its request time, and the timeout, count from here.
        clockStart = .now()
        lastProgress = clockStart
        let plan = exchange.plan
        switch release {
        case .asStubbed:
            exchange.replan(plan.released(as: nil, stubName: exchange.stubDescription))
        case .response(let replacement):
            exchange.replan(plan.released(as: replacement, stubName: exchange.stubDescription))
        case .failure(let failure):
            exchange.replan(plan.released(as: StubResponse(error: failure.error), stubName: exchange.stubDescription))
            fail(failure.error)
            return
        }
        play(exchange)
    }

    // MARK: End

    /// Ends the current exchange with a failure the client gets.
    func fail(_ error: any Error) {
        let failure = SendableError(error: error)
        end(.failed(failure)) { $0.deliverFailure(failure.error) }
    }

    /// Ends the current exchange normally.
    func finish() {
        end(.finished) { $0.deliverFinish() }
    }

    /// Ends `exchange`, which is not the player's last (a hop that redirected), without a
    /// last callback.
    func close(_ exchange: Exchange, _ ending: Exchange.Ending) {
        exchange.end(ending)
        host.exchange(exchange, reached: .ended, on: scheduler, then: nil)
    }

    /// Lets go of what the phase holds, ends the current exchange with `ending` and tells the
    /// host; then makes `lastCallback` (when there is one) once the hooks the request called
    /// have run.
    func end(_ ending: Exchange.Ending, lastCallback: (@Sendable (any ExchangeTransport) -> Void)? = nil) {
        let exchange = current
        switch phase {
        case .held(_, let gate, let held): gate.abandon(held)
        case .passingThrough(_, let handle): handle.cancel()
        case .openingBody(_, let reader): reader.close()
        case .sendingBody(_, let transfer): transfer.reader.close()
        case .streaming(_, let playback): playback.stop(reason: Self.departure(for: ending))
        case .ended, .finishing: return
        case .idle, .answering, .waiting, .askingAboutRedirect: break
        }
        if exchange == nil { endingBeforeExchange = ending }
        exchange?.end(ending)
        guard let lastCallback else {
            phase = .ended
            if let exchange { host.exchange(exchange, reached: .ended, on: scheduler, then: nil) }
            if let lastCallback, let transport { lastCallback(transport) }
            return
        }
        if let exchange, !host.endWaitsForHooks(exchange) {
            // No hook to wait for: reported, then the last callback, in this step.
            phase = .ended
            host.exchange(exchange, reached: .ended, on: scheduler, then: nil)
            if let transport { lastCallback(transport) }
            return
        }
        phase = .finishing
        endsWithinThisStep = true
        defer { endsWithinThisStep = false }
        host.exchange(exchange, reached: .ended, on: scheduler) { [self] in
            // A cancel may have come in between: then it has the last word.
            guard case .finishing = phase else { return }
            phase = .ended
            guard let transport else { return }
            if !endsWithinThisStep, transport.isClientGone { return }
            lastCallback(transport)
        }
    }

    /// Why a request left before its stream's end, as a live stream's next write reports it.
    private static func departure(for ending: Exchange.Ending) -> String {
        switch ending {
        case .cancelled: return "the app cancelled the request that was reading it"
        case .failed(let failure): return "the request that was reading it failed (\(describeError(failure.error)))"
        case .finished, .redirected: return "the request that was reading it finished"
        }
    }
}
