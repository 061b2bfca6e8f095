import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plays one loading request, from the stub's answer to the client's last callback. Every
/// state it can be in is a case of ``Phase``, and every change of phase is in this file.
///
/// ```text
/// idle ─> preparing ─> held ─> waitingForHead ─┬─> openingBody ─> sendingBody ─┐
///            ▲                                 ├─> streaming ──────────────────┤
///            │                                 ├─> passingThrough ─> (head) ...┤
///            └── askingAboutRedirect <─────────┘  (a redirect: the next hop)   ├─> finishing ─> ended
///                                                                              │
///                 any phase ── cancel, timeout, failure ───────────────────────┘
/// ```
///
/// Steps run one at a time on the environment's ``DeliveryScheduler`` (a serial context), as
/// do `start` and `cancel`: so state needs no lock and no callback is made while holding one.
/// Each asynchronous step enters through ``asStep(_:)``, which runs nothing once the player
/// has ended and ends it when the task is being cancelled: a cancelled task gets no callback
/// after `stopLoading`, and nothing has to remember to check.
///
/// That context is shared by the whole process (corelibs' work queues all target one serial
/// queue; Apple loads every custom protocol on one thread), so nothing slow runs there: a
/// response closure, a passthrough transform, opening or reading a file or stream body all run
/// on the registry's user-code lane (``UserCodeRunner``) and come back with their result. A
/// stub whose answer is a value (``StubAnswer/constant(_:)``) with a body in memory is played
/// in the very step that started it. The request's timeout clock starts in ``start(_:)``
/// and covers everything; once the head is sent it bounds the gap between parts of the body,
/// counting the parts a consumer that gets the body whole would have received.
final class ResponsePlayer: @unchecked Sendable {
    /// Body chunks are read in at most this many bytes.
    static let maximumChunkSize = 256 * 1024
    /// A paced body is sent in chunks about this far apart.
    static let pacingInterval = 0.05

    enum Phase {
        /// Not started.
        case idle
        /// The hop's response is being built (its stub's closure runs off the loading context).
        case preparing
        /// Held at a ``ResponseGate`` until the test releases it.
        case held(ResponseGate, HeldRequest)
        /// The request time elapsing, a failure's delay, or a response that never comes.
        case waitingForHead
        /// Fetching the response from the real network.
        case passingThrough(NetworkLoader.Handle)
        /// The task's delegate decides whether to follow a redirect (Linux).
        case askingAboutRedirect
        /// A file or stream body being opened.
        case openingBody(BodyReader)
        /// The head is sent; the body is read and sent, paced.
        case sendingBody(BodyTransfer)
        /// The head is sent; a live stream's or a script's writes are sent as they come.
        case streaming(StreamPlayback)
        /// The outcome is reported; the last callback waits for the hooks it called to run.
        case finishing
        /// Nothing more will happen.
        case ended
    }

    /// One hop of the request: the first, or one redirect target followed here (Linux). A
    /// class: steps read it often, and a copy of its item would retain a dozen references.
    private final class Hop {
        var item: PlaybackItem
        let url: URL
        /// When the hop started: its request time counts from here.
        var startTime: DispatchTime
        /// A redirect response to be delivered as it is: the delegate declined it (Linux), or it
        /// was handed to the session, which may decline it (Apple).
        var playsRedirectAsFinal = false

        init(item: PlaybackItem, url: URL) {
            self.item = item
            self.url = url
            startTime = .now()
        }
    }

    private(set) var phase = Phase.idle
    private var hop: Hop?
    private let environment: LoadingEnvironment
    private weak var sink: (any PlaybackSink)?
    /// Weak: a session must not keep its registry alive (a released registry fails its
    /// sessions' requests clearly instead).
    private weak var host: (any PlaybackHost)?
    private let cookies: SessionCookies
    /// The longest wait before the head, and the longest gap between parts of the body.
    private let timeout: TimeInterval
    /// Redirects that led here: hops of this player, plus those before it (Apple: each hop is a
    /// new protocol instance, and the count is kept per task).
    private var redirectCount: Int
    private var headSent = false
    /// Apple: the redirect was handed to the session; a `stopLoading` now means the session
    /// followed it, which ends this hop normally.
    private var handedToSession = false
    /// The last moment the request made progress (started, got its head, delivered a part).
    private var lastProgress = DispatchTime.now()
    /// A body withheld for a consumer that gets it whole: the parts it would have received
    /// keep arriving until this moment, as far as the timeout is concerned.
    private var progressPromisedUntil: DispatchTime?
    /// How the player ended before any hop was ready to report it with.
    private var outcomeWithoutItem: PlaybackOutcome?
    /// The URL the task asked for, named in errors before any hop is ready.
    private let requestURL: URL

    init(
        url: URL?, environment: LoadingEnvironment, timeout: TimeInterval, sink: any PlaybackSink, cookies: SessionCookies,
        redirectsSoFar: Int, host: any PlaybackHost
    ) {
        self.requestURL = url ?? URL(fileURLWithPath: "/")
        self.environment = environment
        self.timeout = timeout
        self.sink = sink
        self.cookies = cookies
        self.host = host
        self.redirectCount = redirectsSoFar
    }

    private var scheduler: any DeliveryScheduler { environment.scheduler }

    // MARK: Steps

    /// `work` as a step of this player: it runs only while the player goes on, and ends the
    /// player instead when the task is being cancelled. Call the result on the delivery
    /// context.
    private func asStep(_ work: @escaping @Sendable (ResponsePlayer) -> Void) -> @Sendable () -> Void {
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
        guard let sink else { return false }
        if sink.isBeingCancelled {
            end(.cancelled(headSent ? hop?.item.response : nil))
            return false
        }
        return true
    }

    /// Runs `work` as a later step, at `due` (as soon as possible when `nil`).
    private func step(at due: DispatchTime? = nil, _ work: @escaping @Sendable (ResponsePlayer) -> Void) {
        if let due {
            scheduler.at(due, asStep(work))
        } else {
            scheduler.async(asStep(work))
        }
    }

    /// Runs `work` now when `due` has passed (this is a step already), else as a step at `due`.
    private func continueAt(_ due: DispatchTime, _ work: @escaping @Sendable (ResponsePlayer) -> Void) {
        if due <= .now() {
            work(self)
        } else {
            step(at: due, work)
        }
    }

    /// Runs `work` on the host's user-code lane, then `then` as a step with its result.
    private func offContext(_ work: @escaping @Sendable () -> PreparedItem) {
        if environment.preparesInline {
            prepared(work())
            return
        }
        guard let lane = host?.userCode else {
            prepared(work())
            return
        }
        let scheduler = scheduler
        UserCodeRunner.shared.run(in: lane) { [self] in
            let result = work()
            scheduler.async { [self] in prepared(result) }
        }
    }

    // MARK: Start and cancel

    /// Starts the request (as a server would see it: cookies and configuration headers
    /// included): called inside `startLoading`, on the delivery context.
    func start(_ request: URLRequest) {
        lastProgress = .now()
        armTimeout()
        phase = .preparing
        guard let host else {
            fail(StubError.registryReleased(url: requestURL.absoluteString))
            return
        }
        let environment = environment
        guard request.httpBodyStream == nil, !environment.preparesInline else {
            // A body stream may block: it is read off the loading context, with everything else.
            offContext {
                let body = RequestBodyReader.fullBody(of: request, uploadBody: environment.uploadBody)
                return host.prepare(
                    StubRequest(request, body: body, pathParameters: [:], isBodyKnown: body != nil || !environment.hidesUploadBody))
            }
            return
        }
        let body = request.httpBody ?? environment.uploadBody
        let stubRequest = StubRequest(request, body: body, pathParameters: [:], isBodyKnown: body != nil || !environment.hidesUploadBody)
        switch host.prepareInline(stubRequest) {
        case .ready(let prepared):
            self.prepared(prepared)
        case .respond(let stub, let matched, let activation):
            offContext { host.respond(with: stub, to: matched, activation: activation) }
        case .offContext:
            offContext { host.prepare(stubRequest) }
        }
    }

    /// Stops at once: closes the body, makes no further callback. Called on the delivery
    /// context (`stopLoading`).
    func cancel() {
        switch phase {
        case .ended:
            return
        case .finishing:
            // The outcome is reported; the last callback is not made now.
            phase = .ended
        default:
            if handedToSession, let hop {
                // Apple stops the protocol of a redirect it follows: this hop is complete.
                end(.finished(hop.item.response))
            } else {
                end(.cancelled(headSent ? hop?.item.response : nil))
            }
        }
    }

    /// A hop's preparation came back (a step, or part of the current one).
    private func prepared(_ result: PreparedItem) {
        guard case .preparing = phase else {
            // Ended meanwhile (a timeout, a cancel): the late item still gets its outcome.
            if case .success(let late) = result { host?.playbackEnded(item: late, outcome: outcomeWithoutItem ?? .cancelled(nil)) }
            return
        }
        switch result {
        case .failure(let failure):
            guard enterStep() else { return }
            fail(failure.error)
        case .success(let item):
            hop = Hop(item: item, url: item.request.url ?? hop?.url ?? requestURL)
            guard enterStep() else { return }
            headSent = false
            play()
        }
    }

    // MARK: Head

    /// Plays the current hop: held at its gate, or after its request time, or at once.
    private func play() {
        guard let hop else { return }
        let item = hop.item
        if !item.passedGate, let gate = item.response.gate ?? item.descriptor.gate {
            let held = HeldRequest(request: item.request) { [self] release in
                step { $0.released(release) }
            }
            phase = .held(gate, held)
            gate.hold(held)
            return
        }
        let requestTime = item.response.pacing.requestTime
        if requestTime > 0 {
            phase = .waitingForHead
            step(at: hop.startTime + requestTime) { $0.sendHead() }
        } else {
            sendHead()
        }
    }

    private func released(_ release: GateRelease) {
        guard let hop else { return }
        hop.item.passedGate = true
        // The response goes out now: its request time, and the timeout, count from here.
        hop.startTime = .now()
        lastProgress = hop.startTime
        switch release {
        case .asStubbed:
            break
        case .response(let replacement):
            hop.item.response = replacement
            host?.responseReplaced(in: hop.item)
        case .failure(let failure):
            hop.item.response = StubResponse(error: failure.error)
            host?.responseReplaced(in: hop.item)
            fail(failure.error)
            return
        }
        play()
    }

    /// Does what the response says: fail, wait for ever, pass through, redirect, or send.
    private func sendHead() {
        guard let hop else { return }
        let response = hop.item.response
        switch response.action {
        case .neverRespond:
            phase = .waitingForHead
            return
        case .fail(let failure):
            // A failure takes as long as the response would have (OHHTTPStubs' timing).
            phase = .waitingForHead
            continueAt(.now() + response.pacing.failureDelay) { $0.fail(failure.error) }
            return
        case .passThrough(let transforms):
            startPassthrough(transforms)
            return
        case .respond, .failAfterBytes:
            break
        }
        do {
            try response.validate(stubName: hop.item.descriptor.description)
        } catch {
            fail(error)
            return
        }
        if !hop.playsRedirectAsFinal, let location = response.redirectLocation {
            redirect(to: location)
        } else if response.body.isStreamed {
            startStream()
        } else if let data = response.body.data, sendAtOnce(data, of: hop) {
            return
        } else if let lane = host?.userCode {
            let reader = BodyReader(response.body, lane: lane)
            if reader.isInMemory {
                sendHead(thenBodyOf: reader)
            } else {
                // Opened first, so a missing file fails the request before any response is seen.
                phase = .openingBody(reader)
                reader.open(on: scheduler) { [self] failure in
                    asStep { player in
                        if let failure { player.fail(failure) } else { player.sendHead(thenBodyOf: reader) }
                    }()
                }
            }
        } else {
            fail(StubError.registryReleased(url: hop.url.absoluteString))
        }
    }

    /// The commonest response there is (bytes in memory, unpaced, whole) in this very step:
    /// head, body, finish. Returns `false`, having done nothing, for any other.
    private func sendAtOnce(_ body: Data, of hop: Hop) -> Bool {
        let response = hop.item.response
        guard case .respond(nil) = response.action, case .unpaced = response.pacing.body,
            // A delegate gets a large body in chunks, at its own pace.
            !environment.deliversChunks || body.count <= Self.maximumChunkSize,
            let head = response.head(for: hop.url, bodyLength: body.count)
        else { return false }
        if head.expectedContentLength >= 0, head.expectedContentLength != Int64(body.count), hop.item.request.method != "HEAD" {
            return false  // a Content-Length that contradicts the body: the transfer reports it
        }
        guard deliverHead(head), let sink else { return true }
        if !body.isEmpty, hop.item.request.method != "HEAD" { sink.playerDidLoad(body) }
        conclude(.finished(response)) { $0.playerDidFinish() }
        return true
    }

    private func sendHead(thenBodyOf reader: BodyReader) {
        guard let hop else { return }
        let response = hop.item.response
        let length = reader.length
        var limit = response.action.byteLimit.map { min($0, length ?? $0) }
        if hop.item.request.method == "HEAD" { limit = 0 }
        guard let head = response.head(for: hop.url, bodyLength: length) else {
            fail(StubError.invalidStatusCode(response.statusCode, stub: hop.item.descriptor.description))
            return
        }
        // What the head promised is what the body must deliver, unless it stops short on
        // purpose (`truncated(afterBytes:)`, `failing(afterBytes:)`, `HEAD`).
        let announced = limit == nil && head.expectedContentLength >= 0 ? Int(head.expectedContentLength) : nil
        let transfer = BodyTransfer(
            reader: reader, limit: limit, announced: announced, pacing: response.pacing, length: length,
            deliversChunks: environment.deliversChunks)
        phase = .sendingBody(transfer)
        guard deliverHead(head) else { return }
        readNext(transfer)
    }

    /// Stores the response's cookies and hands the head to the client; `false` when the
    /// player has no client left.
    private func deliverHead(_ head: HTTPURLResponse) -> Bool {
        guard let hop, let sink else { return false }
        // A redirect played as final already stored its cookies when it was announced.
        if !hop.playsRedirectAsFinal {
            cookies.store(hop.item.response.cookieLines, from: hop.url, for: hop.item.request.urlRequest)
        }
        headSent = true
        lastProgress = .now()
        sink.playerDidReceive(head)
        return true
    }

    // MARK: Body

    private func readNext(_ transfer: BodyTransfer) {
        transfer.reader.read(upTo: transfer.nextReadSize, on: scheduler) { [self] chunk in
            asStep { $0.bodyRead(chunk, transfer) }()
        }
    }

    private func bodyRead(_ chunk: BodyReader.Chunk, _ transfer: BodyTransfer) {
        switch chunk {
        case .data(let data):
            guard transfer.didRead(data.count) else {
                failLength(transfer)
                return
            }
            if environment.deliversChunks {
                continueAt(transfer.dueOfBytesRead) { $0.deliver(data, transfer) }
            } else {
                // Withheld until the end; a part the consumer would have had is progress.
                transfer.withheld.append(data)
                lastProgress = .now()
                readNext(transfer)
            }
        case .end:
            bodyEnded(transfer)
        case .failure(let reason):
            fail(StubError.bodyStreamFailed(stub: hop?.item.descriptor.description ?? "?", bytesDelivered: transfer.read, reason: reason))
        case .unopenable(let failure):
            fail(failure.error)
        }
    }

    private func deliver(_ chunk: Data, _ transfer: BodyTransfer) {
        guard let sink else { return }
        lastProgress = .now()
        sink.playerDidLoad(chunk)
        if transfer.isComplete || transfer.bytesPerSecond != nil {
            readNext(transfer)
        } else if let queue = environment.delegateQueue {
            // Let the delegate take this chunk before reading the next one, so a fast body to a
            // slow delegate does not pile up in memory.
            let scheduler = scheduler
            queue.addOperation { [self] in
                scheduler.async(
                    asStep { player in
                        player.lastProgress = .now()
                        player.readNext(transfer)
                    })
            }
        } else {
            // A later step: a long body read from memory must not nest one call per chunk.
            step { $0.readNext(transfer) }
        }
    }

    private func bodyEnded(_ transfer: BodyTransfer) {
        guard transfer.keepsItsAnnouncement else {
            // A file that shrank, a stream that ended early, a Content-Length that lies.
            failLength(transfer)
            return
        }
        guard !transfer.withheld.isEmpty else {
            continueAt(transfer.dueOfBytesRead) { $0.completeBody(transfer) }
            return
        }
        let due = transfer.dueOfBytesRead
        progressPromisedUntil = due
        continueAt(due) { player in
            player.sink?.playerDidLoad(transfer.withheld)
            transfer.withheld = Data()
            player.completeBody(transfer)
        }
    }

    private func completeBody(_ transfer: BodyTransfer) {
        transfer.reader.close()
        guard let response = hop?.item.response else { return }
        if case .failAfterBytes(_, let failure) = response.action {
            fail(failure.error)
        } else {
            conclude(.finished(response)) { $0.playerDidFinish() }
        }
    }

    private func failLength(_ transfer: BodyTransfer) {
        fail(
            StubError.bodyLengthMismatch(
                stub: hop?.item.descriptor.description ?? "?", declared: transfer.announced ?? 0, delivered: transfer.read))
    }

    // MARK: Streams

    /// Sends the head and starts the writes. A live stream that cannot take this request, or a
    /// script with a step that cannot be framed, fails the request before any head.
    private func startStream() {
        guard let hop else { return }
        let response = hop.item.response
        let stub = hop.item.descriptor.description
        guard let head = response.head(for: hop.url, bodyLength: nil) else {
            fail(StubError.invalidStatusCode(response.statusCode, stub: stub))
            return
        }
        if hop.item.request.method == "HEAD" {
            guard deliverHead(head) else { return }
            conclude(.finished(response)) { $0.playerDidFinish() }
            return
        }
        let playback: StreamPlayback
        switch streamPlayback(of: response.body, for: hop.item.request, stub: stub) {
        case .success(let made): playback = made
        case .failure(let error):
            fail(error)
            return
        }
        phase = .streaming(playback)
        guard deliverHead(head) else { return }
        playback.start = .now()
        switch playback.source {
        case .live: takeLiveWrites(playback)
        case .script: playScript(playback)
        }
    }

    private func streamPlayback(of body: StubBody, for request: StubRequest, stub: String) -> Result<StreamPlayback, StubError> {
        let scheduler = scheduler
        // Weak: a stream the test keeps must not keep a finished request alive.
        return StreamPlayback.make(of: body, for: request, stub: stub) { [weak self] in
            scheduler.async { [weak self] in
                guard let self else { return }
                asStep { player in
                    if case .streaming(let playback) = player.phase { player.takeLiveWrites(playback) }
                }()
            }
        }
    }

    /// Delivers what the test wrote since the last call.
    private func takeLiveWrites(_ playback: StreamPlayback) {
        guard case .live(let stream, let connection) = playback.source else { return }
        for write in stream.take(for: connection) {
            guard deliverStreamWrite(write, of: playback) else { return }
        }
    }

    /// Delivers the script's writes that are due, then waits for the next one.
    private func playScript(_ playback: StreamPlayback) {
        guard case .script(let writes) = playback.source, let pacing = hop?.item.response.pacing else { return }
        // A loop, not a chain of calls: a long script of writes due at once must not nest.
        while playback.next < writes.count {
            let timed = writes[playback.next]
            let due = playback.due(of: timed, in: writes, pacing: pacing)
            if due > .now() {
                step(at: due) { $0.playScript(playback) }
                return
            }
            playback.next += 1
            guard deliverStreamWrite(timed.write, of: playback) else { return }
        }
    }

    /// Delivers one write; `false` once the stream is over (finished or failed).
    private func deliverStreamWrite(_ write: LiveWrite, of playback: StreamPlayback) -> Bool {
        guard let sink, let response = hop?.item.response else { return false }
        lastProgress = .now()
        switch write {
        case .data(let data):
            guard !data.isEmpty else { return true }
            if environment.deliversChunks {
                sink.playerDidLoad(data)
                playback.handedOn(data.count, readOn: environment.delegateQueue)
            } else {
                playback.whole.append(data)
            }
            return true
        case .finish:
            deliverWhole(of: playback, to: sink)
            conclude(.finished(response)) { $0.playerDidFinish() }
            return false
        case .failure(let failure):
            deliverWhole(of: playback, to: sink)
            fail(failure.error)
            return false
        }
    }

    /// Hands a consumer that keeps only the last `didLoad` everything written.
    private func deliverWhole(of playback: StreamPlayback, to sink: any PlaybackSink) {
        guard !playback.whole.isEmpty else { return }
        sink.playerDidLoad(playback.whole)
        playback.handedOn(playback.whole.count, readOn: nil)
        playback.whole = Data()
    }

    // MARK: Redirects

    private func redirect(to location: String) {
        guard let hop, let host else { return }
        let response = hop.item.response
        let stub = hop.item.descriptor.description
        guard let target = URL(string: location, relativeTo: hop.url)?.absoluteURL, target.scheme != nil else {
            fail(StubError.invalidRedirect(location: location, stub: stub))
            return
        }
        guard redirectCount < RedirectHop.maximumHops else {
            fail(RedirectHop.tooManyRedirects(target: target))
            return
        }
        guard let head = response.head(for: hop.url, bodyLength: response.body.knownLength) else {
            fail(StubError.invalidStatusCode(response.statusCode, stub: stub))
            return
        }
        // Before the next hop: a cookie this response sets goes out with it.
        cookies.store(response.cookieLines, from: hop.url, for: hop.item.request.urlRequest)
        let next = RedirectHop.nextRequest(after: hop.item.request.requestWithBody, statusCode: response.statusCode, to: target)
        host.announceRedirect(of: hop.item, to: next)
        redirectCount += 1
        if environment.handsRedirectsToSession {
            guard let sink else { return }
            handedToSession = true
            hop.playsRedirectAsFinal = true
            sink.playerWasRedirected(to: next, by: head)
            // Apple's loading system expects the 3xx itself next: it is the final response when
            // the delegate declines; when the session follows the redirect it stops this protocol
            // first, and nothing more is sent.
            if case .ended = phase { return }
            sendHead()
            return
        }
        guard let approve = environment.approveRedirect else {
            follow(next)
            return
        }
        phase = .askingAboutRedirect
        let scheduler = scheduler
        approve(head, next) { [self] decision in
            scheduler.async(
                asStep { player in
                    if let decision {
                        player.follow(decision)
                    } else {
                        // Declined: the redirect response, with its body, is what the caller gets.
                        player.hop?.playsRedirectAsFinal = true
                        player.sendHead()
                    }
                })
        }
    }

    /// Loads the next hop in this player (Linux): its stub's response closure runs off the
    /// delivery context, like the first hop's.
    private func follow(_ request: URLRequest) {
        guard let previous = hop?.item, let host else { return }
        var next = request
        cookies.attach(to: &next)
        let hopRequest = next
        lastProgress = .now()
        phase = .preparing
        offContext { host.resolveRedirect(to: hopRequest, from: previous) }
    }

    // MARK: Passthrough

    private func startPassthrough(_ transforms: [ResponseTransform]) {
        guard let hop, let host else { return }
        let lane = host.userCode
        let timing = hop.item.response
        let request = hop.item.request
        let scrubbing = host.scrubbing
        let scheduler = scheduler
        let handle = NetworkLoader.start(request.requestWithBody) { [self] result in
            // The transforms are user code: on the registry's lane, not the loader's queue nor
            // the delivery context.
            UserCodeRunner.shared.run(in: lane) { [self] in
                // A network error carries the request's URL, secrets and all: scrubbed before
                // the app, a hook or the recorder sees it.
                let result = result.mapError { SendableError(error: scrubbing.scrubbed(networkError: $0.error, of: request)) }
                let transformed = NetworkLoader.applying(transforms, to: result, timing: timing)
                scheduler.async(asStep { $0.passthroughLoaded(transformed) })
            }
        }
        phase = .passingThrough(handle)
    }

    private func passthroughLoaded(_ result: Result<StubResponse, SendableError>) {
        lastProgress = .now()
        switch result {
        case .failure(let failure):
            fail(failure.error)
        case .success(let real):
            hop?.item.response = real
            hop?.item.cameFromNetwork = true
            sendHead()
        }
    }

    // MARK: Timeout

    /// Watches the gap since the last progress. The first check comes after at most a second,
    /// so a request that ended at once is let go soon; later checks come when the gap would
    /// reach the timeout.
    private func armTimeout() {
        guard timeout > 0, timeout.isFinite else { return }
        TimeoutMonitor.shared.check(self, at: min(lastProgress + timeout, .now() + 1.0))
    }

    /// Called by the ``TimeoutMonitor`` when a check is due, on its queue.
    func timeoutCheckDue() {
        scheduler.async(
            asStep { player in
                let now = DispatchTime.now()
                var progress = player.lastProgress
                if let promised = player.progressPromisedUntil { progress = max(progress, min(now, promised)) }
                let deadline = progress + player.timeout
                if deadline <= now {
                    player.timeoutElapsed()
                } else {
                    TimeoutMonitor.shared.check(player, at: deadline)
                }
            })
    }

    private func timeoutElapsed() {
        let gap: String
        switch phase {
        case .held(let gate, _): gap = "while held by the \(gate); release it sooner or give the request a longer timeout"
        default: gap = headSent ? "between two parts of the body" : "before the response"
        }
        fail(
            URLError(
                .timedOut,
                userInfo: [
                    NSURLErrorFailingURLErrorKey: hop?.url ?? requestURL,
                    NSLocalizedDescriptionKey: "The request timed out (URLStubs: nothing for \(timeout) s \(gap)).",
                ]))
    }

    // MARK: End

    /// Why a request left before its stream's end, as a live stream's next write reports it.
    private static func departure(for outcome: PlaybackOutcome) -> String {
        switch outcome {
        case .cancelled: return "the app cancelled the request that was reading it"
        case .failed(let error, _): return "the request that was reading it failed (\(describeError(error)))"
        case .finished: return "the request that was reading it finished"
        }
    }

    private func fail(_ error: any Error) {
        let failure = SendableError(error: error)
        conclude(.failed(error, hop?.item.response)) { $0.playerDidFail(failure.error) }
    }

    /// Ends with `outcome`, then makes the last callback once the hooks this request called
    /// have run: a test that reads what `afterFinish` recorded sees it as soon as the app sees
    /// the result, although hooks never run on the loading context.
    private func conclude(_ outcome: PlaybackOutcome, _ lastCallback: @escaping @Sendable (any PlaybackSink) -> Void) {
        guard let sink else {
            end(outcome)
            return
        }
        let deliversNow = host?.hasHooks != true
        end(outcome, then: .finishing)
        if deliversNow {
            phase = .ended
            lastCallback(sink)
            return
        }
        host?.afterHooks(on: scheduler) { [self] in
            // A cancel may have come in between: then it has the last word.
            guard case .finishing = phase else { return }
            phase = .ended
            guard let sink = self.sink, !sink.isStopped, !sink.isBeingCancelled else { return }
            lastCallback(sink)
        }
    }

    /// Lets go of what the phase holds, and reports the outcome once.
    private func end(_ outcome: PlaybackOutcome, then next: Phase = .ended) {
        switch phase {
        case .held(let gate, let held): gate.abandon(held)
        case .passingThrough(let handle): handle.cancel()
        case .openingBody(let reader): reader.close()
        case .sendingBody(let transfer): transfer.reader.close()
        case .streaming(let playback): playback.stop(reason: Self.departure(for: outcome))
        case .ended, .finishing: return
        case .idle, .preparing, .waitingForHead, .askingAboutRedirect: break
        }
        phase = next
        if let item = hop?.item {
            host?.playbackEnded(item: item, outcome: outcome)
        } else {
            outcomeWithoutItem = outcome
        }
    }
}
