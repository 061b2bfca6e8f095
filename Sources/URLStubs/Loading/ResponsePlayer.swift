import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a player's output goes (the protocol's client, or a test double).
protocol PlaybackSink: AnyObject {
    /// `true` once the task is being cancelled but `stopLoading` has not run yet. corelibs
    /// marks the task `.canceling`, then calls `stopLoading` in a later work-queue step; a
    /// finish in between crashes it ("a task that is not in the registry").
    var isBeingCancelled: Bool { get }
    func playerDidReceive(_ response: HTTPURLResponse)
    func playerDidLoad(_ data: Data)
    func playerDidFinish()
    func playerDidFail(_ error: any Error)
    /// Apple platforms: hand the redirect to the session, which asks its delegate and loads
    /// the new request through a new protocol instance (then stops this one), or declines.
    func playerWasRedirected(to request: URLRequest, by response: HTTPURLResponse)
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
}

/// How a player ended: exactly one of these per player.
enum PlaybackOutcome {
    case finished(StubResponse)
    case failed(any Error, StubResponse?)
    case cancelled(StubResponse?)
}

/// Plays one stubbed response: waits the request time, sends the head, streams the body
/// in paced chunks read from its `InputStream`, and follows redirects.
///
/// Every step runs on the environment's ``DeliveryScheduler`` (a serial context), one after
/// the other, as do `start` and `cancel`: so state needs no lock and no callback is made
/// while holding one. A step that finds the player ended does nothing, which is what keeps a
/// cancelled task free of callbacks after `stopLoading`.
final class ResponsePlayer: @unchecked Sendable {
    /// Body chunks are read in at most this many bytes.
    static let maximumChunkSize = 256 * 1024
    /// A paced body is sent in chunks about this far apart.
    static let pacingInterval = 0.05

    enum RedirectResolution {
        case play(PlaybackItem)
        case fail(any Error)
    }

    private var item: PlaybackItem
    private let environment: LoadingEnvironment
    private let timeoutProvider: () -> TimeInterval
    private weak var sink: (any PlaybackSink)?
    private let cookies: SessionCookies
    private let resolveRedirect: (URLRequest, PlaybackItem) -> RedirectResolution
    private let announceRedirect: (PlaybackItem, URLRequest) -> Void
    private let onEnd: (PlaybackItem, PlaybackOutcome) -> Void

    private var ended = false
    private var headSent = false
    /// Redirects that led here: hops of this player, plus those before it (Apple: each hop is a
    /// new protocol instance, and the count rides in the request).
    private var redirectCount: Int
    private var passthrough: NetworkLoader.Handle?
    private var startTime = DispatchTime.now()
    private var timeout: TimeInterval = .infinity
    private var timeoutArmed = false
    private var checkedLiveThisStep = false
    private var currentURL: URL
    private var reader: BodyReader?
    private var bodyStart = DispatchTime.now()
    private var bytesSent = 0
    private var byteLimit: Int?
    private var bytesPerSecond: Double?
    private var chunkSize = ResponsePlayer.maximumChunkSize
    /// Set when a redirect response is to be delivered as it is: the delegate declined it
    /// (Linux), or it was handed to the session, which may decline it (Apple).
    private var playsRedirectAsFinal = false
    /// Apple: the redirect was handed to the session; a `stopLoading` now means the session
    /// followed it, which ends this hop normally.
    private var handedOff = false

    init(item: PlaybackItem, environment: LoadingEnvironment, timeout: @escaping () -> TimeInterval, sink: any PlaybackSink,
         cookies: SessionCookies, redirectsSoFar: Int,
         resolveRedirect: @escaping (URLRequest, PlaybackItem) -> RedirectResolution,
         announceRedirect: @escaping (PlaybackItem, URLRequest) -> Void,
         onEnd: @escaping (PlaybackItem, PlaybackOutcome) -> Void) {
        self.item = item
        self.environment = environment
        self.timeoutProvider = timeout
        self.sink = sink
        self.cookies = cookies
        self.resolveRedirect = resolveRedirect
        self.announceRedirect = announceRedirect
        self.onEnd = onEnd
        self.currentURL = item.request.url ?? URL(fileURLWithPath: "/")
        self.redirectCount = redirectsSoFar
    }

    // MARK: Control

    /// Starts playing; call on the scheduler's context (inside `startLoading`).
    func start() {
        startTime = .now()
        if item.response.requestTime <= 0, !item.response.neverResponds {
            // No wait asked for: answer now, inside startLoading, as a hand-written protocol
            // would; or after one hop when corelibs has not registered the task yet (a
            // callback before that crashes it in `behaviour(for:)`).
            if environment.answersInline {
                sendHead()
            } else {
                environment.scheduler.async { [self] in newStep(); sendHead() }
            }
        } else {
            scheduleHead(from: startTime)
        }
    }

    /// Starts the timeout clock the first time the player has to wait for a head (a request
    /// time, a stub that never answers, the real network), measured from `start()`.
    private func armTimeout() {
        guard !timeoutArmed else { return }
        timeoutArmed = true
        timeout = timeoutProvider()
        guard timeout > 0, timeout.isFinite else { return }
        // Weak: a finished request must not stay alive (with its registry) until its timeout.
        environment.scheduler.at(startTime + timeout) { [weak self] in self?.newStep(); self?.timeoutElapsed() }
    }

    /// Marks the start of a step run from the scheduler (see ``liveSink``).
    private func newStep() { checkedLiveThisStep = false }

    /// Runs `step` at `due`: right away when that moment has passed (we are on the delivery
    /// context already), else from the scheduler.
    private func run(at due: DispatchTime, _ step: @escaping @Sendable () -> Void) {
        if due <= .now() {
            step()
        } else {
            environment.scheduler.at(due) { [self] in newStep(); step() }
        }
    }

    /// Stops at once: closes the body stream, makes no further callback. Call on the
    /// scheduler's context (`stopLoading`).
    func cancel() {
        guard !ended else { return }
        if handedOff {
            // Apple stops the protocol of a redirect it follows: this hop is complete.
            end(.finished(item.response))
        } else {
            end(.cancelled(headSent ? item.response : nil))
        }
    }

    /// The sink, unless the task is gone or being cancelled (then the player ends quietly and
    /// leaves the last word to the cancellation).
    private var liveSink: (any PlaybackSink)? {
        guard let sink, !ended else { return nil }
        // A cancel can only land between steps (both run on the delivery context), so one
        // check per step is enough; asking corelibs costs a queue `sync` each time.
        if checkedLiveThisStep { return sink }
        checkedLiveThisStep = true
        if sink.isBeingCancelled {
            end(.cancelled(headSent ? item.response : nil))
            return nil
        }
        return sink
    }

    private func end(_ outcome: PlaybackOutcome) {
        ended = true
        passthrough?.cancel()
        passthrough = nil
        reader?.close()
        reader = nil
        onEnd(item, outcome)
    }

    private func fail(_ error: any Error) {
        guard let sink = liveSink else { return }
        let response = item.response
        end(.failed(error, response))
        sink.playerDidFail(error)
    }

    private func timeoutElapsed() {
        guard !ended, !headSent else { return }
        fail(URLError(.timedOut, userInfo: [
            NSURLErrorFailingURLErrorKey: currentURL,
            NSLocalizedDescriptionKey: "The request timed out (URLStubs: no response within \(timeout) s).",
        ]))
    }

    // MARK: Head

    private func scheduleHead(from start: DispatchTime) {
        armTimeout()
        let wait = item.response.requestTime
        environment.scheduler.at(start + max(0, wait)) { [self] in newStep(); sendHead() }
    }

    private func sendHead() {
        guard !ended else { return }
        let response = item.response
        if response.neverResponds {
            armTimeout()
            return
        }
        if let error = response.error, response.failureAfterBytes == nil {
            // A failure takes as long as the response would have (OHHTTPStubs' timing).
            let delay = max(0, response.responseTime)
            if delay > 0 {
                armTimeout()
                run(at: .now() + delay) { [self] in if !ended { fail(error) } }
            } else {
                fail(error)
            }
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
           let location = response.value(forHeader: "Location") {
            redirect(to: location)
            return
        }
        let reader: BodyReader
        do {
            reader = try BodyReader(response.body)
        } catch {
            fail(error)
            return
        }
        let length = reader.length
        if let truncated = response.truncatedAfterBytes { byteLimit = min(truncated, length ?? truncated) }
        if let failAfter = response.failureAfterBytes { byteLimit = min(failAfter, byteLimit ?? failAfter) }
        if item.request.method == "HEAD" { byteLimit = 0 }
        guard let http = response.head(for: currentURL, bodyLength: length) else {
            reader.close()
            fail(StubError.invalidStatusCode(response.statusCode, stub: item.descriptor.description))
            return
        }
        // A redirect played as final already stored its cookies when it was announced.
        if !playsRedirectAsFinal { cookies.store(response.cookieLines, from: currentURL, for: item.request.urlRequest) }
        self.reader = reader
        guard let sink = liveSink else { return }
        headSent = true
        sink.playerDidReceive(http)
        guard !ended else { return }
        startBody(length: length)
    }

    // MARK: Body

    private func startBody(length: Int?) {
        let response = item.response
        bodyStart = .now()
        if response.responseTime < 0 {
            bytesPerSecond = -response.responseTime * 1000
        } else if response.responseTime > 0 {
            if let length, length > 0 {
                bytesPerSecond = Double(min(length, byteLimit ?? length)) / response.responseTime
            } else {
                // Unknown length: the whole body arrives once the response time is over.
                bodyStart = bodyStart + response.responseTime
            }
        }
        chunkSize = bytesPerSecond.map { max(1, min(Self.maximumChunkSize, Int($0 * Self.pacingInterval))) }
            ?? Self.maximumChunkSize
        guard let reader else { return }
        if environment.deliversChunks {
            readNextChunk()
        } else {
            // The consumer keeps only the last didLoad: read it all, deliver it once, when
            // the last paced byte would have arrived.
            reader.readAll(limit: byteLimit, on: environment.scheduler) { [self] chunk in
                newStep()
                guard !ended else { return }
                switch chunk {
                case .data(let whole):
                    let due = bytesPerSecond.map { bodyStart + Double(whole.count) / $0 } ?? bodyStart
                    run(at: due) { [self] in
                        guard !ended else { return }
                        guard let sink = liveSink else { return }
                        bytesSent = whole.count
                        sink.playerDidLoad(whole)
                        finishBody()
                    }
                case .end:
                    run(at: bodyStart) { [self] in finishBody() }
                case .failure(let reason):
                    failReading(reason)
                }
            }
        }
    }

    private func readNextChunk() {
        guard !ended, let reader else { return }
        let wanted = byteLimit.map { min(chunkSize, $0 - bytesSent) } ?? chunkSize
        reader.read(upTo: wanted, on: environment.scheduler) { [self] chunk in
            newStep()
            guard !ended else { return }
            switch chunk {
            case .data(let data):
                let due = bytesPerSecond.map { bodyStart + Double(bytesSent + data.count) / $0 } ?? bodyStart
                environment.scheduler.at(due) { [self] in newStep(); deliver(data) }
            case .end:
                finishBody()
            case .failure(let reason):
                failReading(reason)
            }
        }
    }

    private func deliver(_ chunk: Data) {
        guard let sink = liveSink else { return }
        bytesSent += chunk.count
        sink.playerDidLoad(chunk)
        guard !ended else { return }
        if bytesPerSecond == nil, let queue = environment.delegateQueue {
            // Let the delegate take this chunk before reading the next one, so a fast stream
            // to a slow delegate does not pile up in memory.
            let scheduler = environment.scheduler
            queue.addOperation { scheduler.async { [self] in newStep(); readNextChunk() } }
        } else {
            readNextChunk()
        }
    }

    private func failReading(_ reason: String) {
        fail(StubError.bodyStreamFailed(stub: item.descriptor.description, bytesDelivered: bytesSent, reason: reason))
    }

    private func finishBody() {
        guard !ended else { return }
        reader?.close()
        reader = nil
        let response = item.response
        if let error = response.error, response.failureAfterBytes != nil {
            fail(error)
            return
        }
        guard let sink = liveSink else { return }
        end(.finished(response))
        sink.playerDidFinish()
    }

    // MARK: Passthrough

    private func startPassthrough(_ spec: Passthrough) {
        armTimeout()
        let scheduler = environment.scheduler
        passthrough = NetworkLoader.start(item.request.requestWithBody) { [self] result in
            scheduler.async { [self] in newStep(); passthroughLoaded(result, spec) }
        }
    }

    private func passthroughLoaded(_ result: Result<(HTTPURLResponse, Data), SendableError>, _ passthrough: Passthrough) {
        guard !ended else { return }
        self.passthrough = nil
        switch result {
        case .failure(let failure):
            fail(failure.error)
        case .success(var (response, body)):
            do {
                for transform in passthrough.transforms {
                    (response, body) = try transform.apply(response, body)
                }
            } catch {
                fail(error)
                return
            }
            let real = NetworkLoader.stubResponse(from: response, body: body, timing: item.response)
            item.response = real
            item.cameFromNetwork = true
            sendHead()
        }
    }

    // MARK: Redirects

    private func redirect(to location: String) {
        let response = item.response
        guard let target = URL(string: location, relativeTo: currentURL)?.absoluteURL, target.scheme != nil else {
            fail(StubError.invalidRedirect(location: location, stub: item.descriptor.description))
            return
        }
        guard redirectCount < RedirectHop.maximumHops else {
            fail(URLError(.httpTooManyRedirects, userInfo: [
                NSURLErrorFailingURLErrorKey: target,
                NSLocalizedDescriptionKey: "URLStubs: more than \(RedirectHop.maximumHops) redirects, the last to \(target.absoluteString).",
            ]))
            return
        }
        guard let http = response.head(for: currentURL, bodyLength: response.body.knownLength) else {
            fail(StubError.invalidStatusCode(response.statusCode, stub: item.descriptor.description))
            return
        }
        // Before the next hop: a cookie this response sets goes out with it.
        cookies.store(response.cookieLines, from: currentURL, for: item.request.urlRequest)
        let next = RedirectHop.nextRequest(after: item.request.requestWithBody, statusCode: response.statusCode, to: target)
        announceRedirect(item, next)
        redirectCount += 1
        if environment.handsRedirectsToSession {
            guard let sink = liveSink else { return }
            handedOff = true
            playsRedirectAsFinal = true
            sink.playerWasRedirected(to: next, by: http)
            // Apple's loading system expects the 3xx itself next (OHHTTPStubs issue 174, PR 175):
            // it is the final response when the delegate declines; when the session follows the
            // redirect it stops this protocol first, and nothing more is sent.
            guard !ended else { return }
            sendHead()
            return
        }
        guard let approve = environment.approveRedirect else {
            follow(next)
            return
        }
        let scheduler = environment.scheduler
        approve(http, next) { [self] decision in
            scheduler.async { [self] in
                newStep()
                guard !ended else { return }
                if let decision {
                    follow(decision)
                } else {
                    // Declined: the redirect response, with its body, is what the caller gets.
                    playsRedirectAsFinal = true
                    sendHead()
                }
            }
        }
    }

    private func follow(_ request: URLRequest) {
        guard let target = request.url else {
            fail(StubError.invalidRedirect(location: "", stub: item.descriptor.description))
            return
        }
        var next = request
        cookies.attach(to: &next)
        switch resolveRedirect(next, item) {
        case .play(let nextItem):
            item = nextItem
            currentURL = target
            scheduleHead(from: .now())
        case .fail(let error):
            fail(error)
        }
    }
}
