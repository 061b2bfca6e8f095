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
public class StubURLProtocol: URLProtocol {
    /// Marks requests that a passthrough sends to the real network, so they are never
    /// intercepted again.
    static let passthroughKey = "URLStubs.passthrough"

    /// The registry slot of this class (``ProtocolClassPool``); `nil` for the shared registry's.
    class var slotIndex: Int? { nil }

    /// The loading system that drives this instance: the platform's own. The test suite's
    /// model of Apple's loading client sets ``ApplePlatform`` here before it starts loading.
    var platform: any LoadingPlatform = nativeLoadingPlatform
    private var player: ExchangePlayer?
    /// Apple: where the task's redirect count is kept between protocol instances.
    private var taskLedger: TaskLedger?
    /// How to tell the task is being cancelled, found in `startLoading`.
    private var cancelCheck = CancelCheck()
    /// Set by `stopLoading`: not one client callback after it.
    private var stopped = false

    // MARK: Claiming

    /// corelibs asks once per task, with the request only.
    override public class func canInit(with request: URLRequest) -> Bool {
        decide(request, task: nil)
    }

    /// Apple's loading system asks with the task, possibly several times per task: the task is
    /// what lets an unmatched request be reported once.
    override public class func canInit(with task: URLSessionTask) -> Bool {
        guard let request = task.currentRequest else { return false }
        return decide(request, task: task)
    }

    private class func decide(_ request: URLRequest, task: URLSessionTask?) -> Bool {
        if URLProtocol.property(forKey: passthroughKey, in: request) != nil { return false }
        switch ProtocolClassPool.lookup(self) {
        case .unknown:
            return false
        case .released:
            return true
        case .registry(_, claimsEverything: true, _):
            // Claimed without a look: the registry's state is read once, in `startLoading`.
            return true
        case .registry(let registry, claimsEverything: false, _):
            let state = registry.snapshot()
            if state.claimsEverything { return true }
            // Only a registry that passes unmatched requests on looks at the request here: the
            // configuration it was installed into is the best guess of the session's.
            var seen = request
            let configuration = state.installedConfiguration
            SessionCookies(configuration: configuration, allowsSharedStorage: state.sharedCookies).attach(to: &seen)
            if let additional = configuration?.httpAdditionalHeaders {
                for (key, value) in additional where seen.value(forHTTPHeaderField: "\(key)") == nil {
                    seen.setValue("\(value)", forHTTPHeaderField: "\(key)")
                }
            }
            let visible = RequestBodyReader.visibleBody(of: seen, in: task)
            let stubRequest = StubRequest(seen, body: visible.body, pathParameters: [:], isBodyKnown: visible.isKnown)
            // A redirect hop handed to the session is this registry's, whatever it matches:
            // it passes through or fails as the unmatched policy says, as on Linux.
            if StubRegistry.claims(stubRequest, in: state) { return true }
            if let task, registry.tasks.redirectCount(of: task) > 0 { return true }
            // Asked with the task (Apple, possibly several times): reported once per task.
            if registry.isEnabled, task.map({ registry.tasks.isFirstReport(of: stubRequest, in: $0) }) ?? true {
                registry.reportMissing(stubRequest)
            }
            return false
        }
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override public class func requestIsCacheEquivalent(_ a: URLRequest, to b: URLRequest) -> Bool {
        false
    }

    // MARK: Loading

    override public func startLoading() {
        stopped = false
        let registry: StubRegistry?
        var madeSession: MadeSession?
        if case .registry(let found, _, let session) = ProtocolClassPool.lookup(type(of: self)) {
            registry = found
            madeSession = session
        } else {
            registry = nil
        }
        // The one read of the registry's state this request makes: it travels with the request
        // (the player's claim, then its exchange) to its end.
        let state = registry?.snapshot()
        let url = request.url?.absoluteString ?? "<no URL>"
        guard let registry, let state else {
            let environment = platform.environment(for: task, state: StubRegistry.State(policy: .fail), session: nil)
            failSoon(StubError.registryReleased(url: url), on: environment.scheduler)
            return
        }
        let environment = platform.environment(for: task, state: state, session: madeSession)
        if environment.isDownloadTask {
            failSoon(StubError.downloadTasksUnsupported(url: url), on: environment.scheduler)
            return
        }
        let cookies = SessionCookies(configuration: environment.configuration, allowsSharedStorage: state.sharedCookies)
        var traits = TransportTraits(
            scheduler: environment.scheduler, deliversChunks: environment.deliversChunks,
            redirects: environment.handsRedirectsToSession ? .handedToClient : .followedByPlayer(ask: environment.approveRedirect),
            consumerQueue: environment.delegateQueue, cookies: cookies, timeout: environment.timeout(for: request))
        traits.answersInline = environment.preparesInline
        taskLedger = nil
        if environment.handsRedirectsToSession, let task {
            taskLedger = registry.tasks
            traits.redirectsSoFar = registry.tasks.redirectCount(of: task)
        }
        cancelCheck = environment.cancelCheck
        let player = ExchangePlayer(url: request.url, traits: traits, transport: self, host: registry.exchanges)
        player.claim = RegistryClaim(state: state)
        self.player = player
        // The request as a server would see it: the session's cookies and its configuration's
        // headers (neither loading system adds them for a custom protocol).
        var seen = request
        if !environment.addsCookiesToFirstRequest { cookies.attach(to: &seen) }
        environment.addingConfigurationHeaders(to: &seen)
        player.start(seen, uploadBody: environment.uploadBody, hidesUploadBody: environment.hidesUploadBody)
    }

    override public func stopLoading() {
        stopped = true
        player?.cancel()
        player = nil
    }

    /// The player made its last callback.
    func playerEnded() {
        player = nil
    }

    /// Fails from the delivery context rather than from inside `startLoading`, the way every
    /// other callback is made.
    private func failSoon(_ error: any Error, on scheduler: any DeliveryScheduler) {
        nonisolated(unsafe) let unsafeSelf = self
        let failure = SendableError(error: error)
        scheduler.async {
            if unsafeSelf.stopped { return }
            if let task = unsafeSelf.task, unsafeSelf.platform.isBeingCancelled(task) { return }
            unsafeSelf.client?.urlProtocol(unsafeSelf, didFailWithError: failure.error)
        }
    }
}

/// The URL loading system's client as the player's transport: each delivery is one client
/// callback. The protocol is its own transport: the player holds it weakly (the protocol owns
/// the player), so a protocol the loading system let go is a client gone.
extension StubURLProtocol: ExchangeTransport {
    package var isClientGone: Bool {
        guard let task else { return false }
        return platform.isBeingCancelled(task, check: cancelCheck)
    }

    package func deliver(head: ResponseHead) {
        guard let response = head.httpURLResponse else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    }

    package func deliver(body: Data) {
        client?.urlProtocol(self, didLoad: body)
    }

    package func deliverFinish() {
        client?.urlProtocolDidFinishLoading(self)
        playerEnded()
    }

    package func deliverFailure(_ error: any Error) {
        client?.urlProtocol(self, didFailWithError: error)
        playerEnded()
    }

    package func handOver(redirectTo next: URLRequest, head: ResponseHead) {
        // The player goes on with the 3xx itself (see ExchangePlayer.redirect), so it stays.
        guard let response = head.httpURLResponse else { return }
        if let task { taskLedger?.recordRedirect(of: task) }
        client?.urlProtocol(self, wasRedirectedTo: next, redirectResponse: response)
    }
}
