import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plays one stubbed request: prepares its response off the delivery context, waits the
/// request time, sends the head, streams the body in paced chunks and follows redirects.
///
/// Every step runs on the environment's ``DeliveryScheduler`` (a serial context), one after
/// the other, as do `start` and `cancel`: so state needs no lock and no callback is made
/// while holding one. A step that finds the player ended does nothing, which is what keeps a
/// cancelled task free of callbacks after `stopLoading`.
///
/// That context is shared by the whole process (corelibs' work queues all target one serial
/// queue; Apple loads every custom protocol on one thread), so nothing slow runs there: a
/// stub's response closure, a passthrough transform, opening or reading a body all run on the
/// request's own queue and hop back with their result. The request's timeout clock starts in
/// `start` and covers them; once the head is sent it bounds the gap between body chunks, as
/// URLSession's `timeoutIntervalForRequest` does.
final class ResponsePlayer: @unchecked Sendable {
    /// Body chunks are read in at most this many bytes.
    static let maximumChunkSize = 256 * 1024
    /// A paced body is sent in chunks about this far apart.
    static let pacingInterval = 0.05

    enum RedirectResolution {
        case play(PlaybackItem)
        case fail(any Error)
    }

    /// `nil` until the first hop is prepared.
    var item: PlaybackItem?
    let environment: LoadingEnvironment
    weak var sink: (any PlaybackSink)?
    let cookies: SessionCookies
    /// Where this request's user code and body reads run: a serial queue of its own, so a
    /// closure or a stream that blocks holds one thread (dispatch makes another for the next
    /// queue) and never the loading context or the global pool, whose few threads every other
    /// request needs. A closure may even wait for another request of its own registry.
    let workQueue: DispatchQueue
    /// Weak: a session must not keep its registry alive (a released registry fails its
    /// sessions' requests clearly instead).
    weak var host: (any PlaybackHost)?

    var ended = false
    /// How the player ended before an item was ready to report it with.
    var outcomeWithoutItem: PlaybackOutcome?
    var headSent = false
    /// Redirects that led here: hops of this player, plus those before it (Apple: each hop is a
    /// new protocol instance, and the count is kept per task).
    var redirectCount: Int
    var passthrough: NetworkLoader.Handle?
    var startTime = DispatchTime.now()
    /// The longest wait before the head, and the longest gap between body chunks.
    let timeout: TimeInterval
    /// The last moment the request made progress (started, got its head, delivered a chunk):
    /// the timeout counts from here.
    var lastProgress = DispatchTime.now()
    var checkedLiveThisStep = false
    var currentURL: URL
    var reader: BodyReader?
    var bodyStart = DispatchTime.now()
    var bytesSent = 0
    var byteLimit: Int?
    /// The body length announced in the head, which the body must match.
    var announcedLength: Int?
    var bytesPerSecond: Double?
    var chunkSize = ResponsePlayer.maximumChunkSize
    /// Set when a redirect response is to be delivered as it is: the delegate declined it
    /// (Linux), or it was handed to the session, which may decline it (Apple).
    var playsRedirectAsFinal = false
    /// Apple: the redirect was handed to the session; a `stopLoading` now means the session
    /// followed it, which ends this hop normally.
    var handedOff = false
    /// The gate holding this hop, until it is released (``ResponseGate``).
    var heldAt: (gate: ResponseGate, request: HeldRequest)?
    /// The test-fed or scripted body being played (``LiveStream``).
    var streamPlayback: StreamPlayback?

    init(
        url: URL?, environment: LoadingEnvironment, timeout: TimeInterval, sink: any PlaybackSink,
        cookies: SessionCookies, redirectsSoFar: Int, host: any PlaybackHost, workQueue: DispatchQueue
    ) {
        self.environment = environment
        self.workQueue = workQueue
        self.timeout = timeout
        self.sink = sink
        self.cookies = cookies
        self.host = host
        self.currentURL = url ?? URL(fileURLWithPath: "/")
        self.redirectCount = redirectsSoFar
    }

    // MARK: Control

    /// Starts the request: `prepare` (which runs the stub's response closure) runs on
    /// ``workQueue``, and its item is played once it is back. Call on the scheduler's context (inside
    /// `startLoading`).
    func start(prepare: @escaping @Sendable () -> PreparedItem) {
        startTime = .now()
        lastProgress = startTime
        armTimeout()
        prepareOffContext(prepare) { [self] prepared in
            switch prepared {
            case .failure(let failure):
                fail(failure.error)
            case .success(let item):
                self.item = item
                currentURL = item.request.url ?? currentURL
                play()
            }
        }
    }

    /// Runs `prepare` on ``workQueue`` and hands its result to `then` on the scheduler, unless
    /// the player ended meanwhile: the item is then ended with the player's outcome.
    func prepareOffContext(_ prepare: @escaping @Sendable () -> PreparedItem, then: @escaping @Sendable (PreparedItem) -> Void) {
        if environment.preparesInline {
            then(prepare())
            return
        }
        let scheduler = environment.scheduler
        workQueue.async { [self] in
            let prepared = prepare()
            scheduler.async { [self] in
                newStep()
                guard !ended else {
                    if case .success(let late) = prepared { host?.playbackEnded(item: late, outcome: outcomeWithoutItem ?? .cancelled(nil)) }
                    return
                }
                then(prepared)
            }
        }
    }

    /// Stops at once: closes the body stream, makes no further callback. Call on the
    /// scheduler's context (`stopLoading`).
    func cancel() {
        guard !ended else { return }
        if handedOff, let item {
            // Apple stops the protocol of a redirect it follows: this hop is complete.
            end(.finished(item.response))
        } else {
            end(.cancelled(headSent ? item?.response : nil))
        }
    }

    /// Marks the start of a step run from the scheduler (see ``liveSink``).
    func newStep() { checkedLiveThisStep = false }

    /// Runs `step` at `due`: right away when that moment has passed (we are on the delivery
    /// context already), else from the scheduler.
    func run(at due: DispatchTime, _ step: @escaping @Sendable () -> Void) {
        if due <= .now() {
            step()
        } else {
            environment.scheduler.at(due) { [self] in
                newStep(); step()
            }
        }
    }

    /// The sink, unless the task is gone or being cancelled (then the player ends quietly and
    /// leaves the last word to the cancellation).
    var liveSink: (any PlaybackSink)? {
        guard let sink, !ended else { return nil }
        // A cancel can only land between steps (both run on the delivery context), so one
        // check per step is enough; asking corelibs costs a queue `sync` each time.
        if checkedLiveThisStep { return sink }
        checkedLiveThisStep = true
        if sink.isBeingCancelled {
            end(.cancelled(headSent ? item?.response : nil))
            return nil
        }
        return sink
    }

    func end(_ outcome: PlaybackOutcome) {
        ended = true
        leaveGate()
        streamPlayback?.stop()
        passthrough?.cancel()
        passthrough = nil
        reader?.close()
        reader = nil
        if let item {
            host?.playbackEnded(item: item, outcome: outcome)
        } else {
            outcomeWithoutItem = outcome
        }
    }

    func fail(_ error: any Error) {
        let failure = SendableError(error: error)
        conclude(.failed(error, item?.response)) { $0.playerDidFail(failure.error) }
    }

    /// Ends with `outcome`, then makes the last callback once the hooks this request called
    /// have run: a test that reads what `afterFinish` recorded sees it as soon as the app sees
    /// the result, although hooks never run on the loading context.
    func conclude(_ outcome: PlaybackOutcome, _ lastCallback: @escaping @Sendable (any PlaybackSink) -> Void) {
        guard liveSink != nil else { return }
        end(outcome)
        let deliver: @Sendable () -> Void = { [self] in
            newStep()
            // A cancel may have come in between: then it has the last word.
            guard let sink, !sink.isStopped, !sink.isBeingCancelled else { return }
            lastCallback(sink)
        }
        if let host {
            host.afterHooks(on: environment.scheduler, deliver)
        } else {
            deliver()
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
        environment.scheduler.async { [self] in
            guard !ended else { return }
            newStep()
            let deadline = lastProgress + timeout
            if deadline <= .now() {
                timeoutElapsed()
            } else {
                TimeoutMonitor.shared.check(self, at: deadline)
            }
        }
    }

    private func timeoutElapsed() {
        let gap =
            heldAt.map { "while held by the \($0.gate); release it sooner or give the request a longer timeout" }
            ?? (headSent ? "between two parts of the body" : "before the response")
        fail(
            URLError(
                .timedOut,
                userInfo: [
                    NSURLErrorFailingURLErrorKey: currentURL,
                    NSLocalizedDescriptionKey: "The request timed out (URLStubs: nothing for \(timeout) s \(gap)).",
                ]))
    }

    // MARK: Head

    /// Plays the current item: at once when nothing needs waiting for, else after its
    /// request time (counted from the start of the request).
    func play() {
        guard let item, !holdIfGated() else { return }
        let response = item.response
        if response.requestTime > 0 {
            environment.scheduler.at(startTime + response.requestTime) { [self] in
                newStep(); sendHead()
            }
        } else if response.playsAtOnce, playAtOnce(item) {
            return
        } else {
            sendHead()
        }
    }

    /// The commonest stub there is (bytes in memory, no wait, no error, no redirect) in one
    /// step: head, body, finish. Returns `false`, having done nothing, for anything else.
    private func playAtOnce(_ item: PlaybackItem) -> Bool {
        let response = item.response
        guard let body = response.body.data,
            // A delegate gets a large body in chunks, paced by its own queue.
            !environment.deliversChunks || body.count <= Self.maximumChunkSize,
            // A Content-Length that contradicts the body is the player's to report.
            response.declaredContentLength.map({ $0 == body.count }) ?? true,
            (try? response.validate(stubName: "")) != nil,
            let head = response.head(for: currentURL, bodyLength: body.count)
        else { return false }
        cookies.store(response.cookieLines, from: currentURL, for: item.request.urlRequest)
        guard let sink = liveSink else { return true }
        headSent = true
        sink.playerDidReceive(head)
        if !body.isEmpty, item.request.method != "HEAD" {
            sink.playerDidLoad(body)
        }
        conclude(.finished(response)) { $0.playerDidFinish() }
        return true
    }

    func sendHead() {
        guard !ended, let item else { return }
        let response = item.response
        if response.neverResponds { return }
        if let error = response.error, response.failureAfterBytes == nil {
            // A failure takes as long as the response would have (OHHTTPStubs' timing).
            let delay = max(0, response.responseTime)
            run(at: .now() + delay) { [self] in if !ended { fail(error) } }
            return
        }
        do {
            try response.validate(stubName: item.descriptor.description)
        } catch {
            fail(error)
            return
        }
        if let passthrough = response.passthrough {
            startPassthrough(passthrough)
            return
        }
        if !playsRedirectAsFinal, RedirectHop.isRedirect(statusCode: response.statusCode),
            let location = response.value(forHeader: "Location")
        {
            redirect(to: location)
            return
        }
        if response.body.isStreamed {
            startStream()
            return
        }
        let reader = BodyReader(response.body, ioQueue: workQueue)
        self.reader = reader
        // A file or stream body is opened first, so a missing file fails the request before
        // any response is seen.
        reader.open(on: environment.scheduler) { [self] failure in
            newStep()
            guard !ended else { return }
            if let failure {
                fail(failure)
            } else {
                sendOpenedHead(reader)
            }
        }
    }

    private func sendOpenedHead(_ reader: BodyReader) {
        guard let item else { return }
        let response = item.response
        let length = reader.length
        if let truncated = response.truncatedAfterBytes { byteLimit = min(truncated, length ?? truncated) }
        if let failAfter = response.failureAfterBytes { byteLimit = min(failAfter, byteLimit ?? failAfter) }
        if item.request.method == "HEAD" { byteLimit = 0 }
        guard let http = response.head(for: currentURL, bodyLength: length) else {
            fail(StubError.invalidStatusCode(response.statusCode, stub: item.descriptor.description))
            return
        }
        // What the head promised is what the body must deliver (a deliberately short body
        // aside: `truncated(afterBytes:)`, `failing(afterBytes:)`, HEAD).
        announcedLength = byteLimit == nil ? http.expectedContentLength >= 0 ? Int(http.expectedContentLength) : nil : nil
        guard deliverHead(http, of: item) else { return }
        startBody(length: length)
    }

    /// Stores the response's cookies and hands the head to the client; `false` when the
    /// player ended instead (cancelled before or during the callback).
    func deliverHead(_ http: HTTPURLResponse, of item: PlaybackItem) -> Bool {
        // A redirect played as final already stored its cookies when it was announced.
        if !playsRedirectAsFinal { cookies.store(item.response.cookieLines, from: currentURL, for: item.request.urlRequest) }
        guard let sink = liveSink else { return false }
        headSent = true
        lastProgress = .now()
        sink.playerDidReceive(http)
        return !ended
    }
}
