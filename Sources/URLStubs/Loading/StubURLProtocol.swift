import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` that answers requests from a ``StubRegistry``'s stubs.
///
/// You rarely use it directly: ``StubRegistry/install(into:)`` and
/// ``StubRegistry/makeSession(configuration:delegate:delegateQueue:)`` put the right class
/// in a configuration, and adding a stub to ``StubRegistry/shared`` registers this class for
/// `URLSession.shared`. Each registry has its own subclass, which is how a session is tied to
/// exactly one registry.
open class StubURLProtocol: URLProtocol {
    /// Marks requests that a passthrough sends to the real network, so they are never
    /// intercepted again.
    static let passthroughKey = "URLStubs.passthrough"

    /// The registry slot of this class (``ProtocolClassPool``); `nil` for the shared registry's.
    class var slotIndex: Int? { nil }

    private var player: ResponsePlayer?
    /// Set by `stopLoading`; read by a failure scheduled before it (same serial context).
    private var stopped = false

    // MARK: Claiming

    override open class func canInit(with request: URLRequest) -> Bool {
        if URLProtocol.property(forKey: passthroughKey, in: request) != nil { return false }
        switch ProtocolClassPool.lookup(self) {
        case .unknown:
            return false
        case .released:
            return true
        case .registry(let registry):
            if registry.claimsEveryRequest { return true }
            let visible = RequestBodyReader.visibleBody(of: request)
            let stubRequest = StubRequest(request, body: visible.body, pathParameters: [:], isBodyKnown: visible.isKnown)
            if registry.claims(stubRequest) { return true }
            if registry.isEnabled {
                registry.reportMissing(stubRequest)
            }
            return false
        }
    }

    override open class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override open class func requestIsCacheEquivalent(_ a: URLRequest, to b: URLRequest) -> Bool {
        false
    }

    // MARK: Loading

    override open func startLoading() {
        stopped = false
        #if canImport(FoundationNetworking)
        let environment = CorelibsTaskState.environment(for: task)
        #else
        let environment = AppleTaskState.environment(for: task)
        #endif
        let url = request.url?.absoluteString ?? "<no URL>"
        let registry: StubRegistry
        switch ProtocolClassPool.lookup(type(of: self)) {
        case .registry(let found):
            registry = found
        case .released, .unknown:
            failSoon(StubError.registryReleased(url: url), environment: environment)
            return
        }
        if environment.isDownloadTask {
            failSoon(StubError.downloadTasksUnsupported(url: url), environment: environment)
            return
        }
        let body = RequestBodyReader.fullBody(of: request, uploadBody: environment.uploadBody)
        let stubRequest = StubRequest(request, body: body, pathParameters: [:], isBodyKnown: true)

        let item: PlaybackItem
        switch registry.makeItem(for: stubRequest) {
        case .success(let made):
            item = made
        case .failure(let error):
            failSoon(error.error, environment: environment)
            return
        }
        if environment.answersInline, answerAtOnce(item, registry: registry, environment: environment) { return }
        let player = ResponsePlayer(
            item: item, environment: environment, timeout: { [request] in environment.timeout(for: request) }, sink: self,
            resolveRedirect: { next, previous in registry.resolveRedirect(to: next, from: previous) },
            storeCookies: { [weak self] url, lines in
                guard let self else { return }
                registry.storeCookies(lines, for: url, request: self.request, storage: environment.cookieStorage)
            },
            attachCookies: { next in
                guard next.httpShouldHandleCookies, let url = next.url, let storage = environment.cookieStorage else { return }
                let fields = HTTPCookie.requestHeaderFields(with: storage.cookies(for: url) ?? [])
                next.setValue(fields["Cookie"], forHTTPHeaderField: "Cookie")
            },
            onEnd: { outcome in registry.playbackEnded(item: item, outcome: outcome) })
        self.player = player
        player.start()
    }

    override open func stopLoading() {
        stopped = true
        player?.cancel()
    }

    /// Answers the commonest stub there is (bytes in memory, no wait, no error, no redirect)
    /// inside `startLoading` without a ``ResponsePlayer``: the same callbacks and hooks in the
    /// same order, for about 25k fewer instructions per request (`Tests/Bench/bench.sh
    /// profile`). Returns `false`, having done nothing, for anything else.
    private func answerAtOnce(_ item: PlaybackItem, registry: StubRegistry, environment: LoadingEnvironment) -> Bool {
        let response = item.response
        guard response.playsAtOnce, let body = response.body.data,
              // A delegate gets a large body in chunks, paced by its own queue.
              !environment.deliversChunks || body.count <= ResponsePlayer.maximumChunkSize,
              let url = request.url,
              // An invalid response is left to the player, which reports it.
              (try? response.validate(stubName: "")) != nil,
              let head = response.head(for: url, bodyLength: body.count) else { return false }
        let cookies = response.cookieLines
        if !cookies.isEmpty {
            registry.storeCookies(cookies, for: url, request: request, storage: environment.cookieStorage)
        }
        if isBeingCancelled {
            registry.playbackEnded(item: item, outcome: .cancelled(nil))
            return true
        }
        client?.urlProtocol(self, didReceive: head, cacheStoragePolicy: .notAllowed)
        if !body.isEmpty, item.request.method != "HEAD" {
            client?.urlProtocol(self, didLoad: body)
        }
        registry.playbackEnded(item: item, outcome: .finished(response))
        client?.urlProtocolDidFinishLoading(self)
        return true
    }

    /// Fails from the delivery context rather than from inside `startLoading`, the way every
    /// other callback is made.
    private func failSoon(_ error: any Error, environment: LoadingEnvironment) {
        nonisolated(unsafe) let unsafeSelf = self
        let failure = SendableError(error: error)
        environment.scheduler.async {
            guard !unsafeSelf.stopped, !unsafeSelf.isBeingCancelled else { return }
            unsafeSelf.client?.urlProtocol(unsafeSelf, didFailWithError: failure.error)
        }
    }
}

extension StubURLProtocol: PlaybackSink {
    var isBeingCancelled: Bool {
        #if canImport(FoundationNetworking)
        guard let task else { return false }
        return CorelibsTaskState.isCanceling(task)
        #else
        return false
        #endif
    }

    func playerDidReceive(_ response: HTTPURLResponse) {
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    }

    func playerDidLoad(_ data: Data) {
        client?.urlProtocol(self, didLoad: data)
    }

    func playerDidFinish() {
        client?.urlProtocolDidFinishLoading(self)
        player = nil
    }

    func playerDidFail(_ error: any Error) {
        client?.urlProtocol(self, didFailWithError: error)
        player = nil
    }

    func playerWasRedirected(to request: URLRequest, by response: HTTPURLResponse) {
        client?.urlProtocol(self, wasRedirectedTo: request, redirectResponse: response)
        player = nil
    }
}
