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
    private var loadingPath = LoadingPath.native
    /// Apple path: where the task's redirect count is kept between protocol instances.
    private var taskLedger: TaskLedger?

    // MARK: Claiming

    override open class func canInit(with request: URLRequest) -> Bool {
        decide(request, task: nil)
    }

    /// Apple's loading system asks with the task (possibly several times per task): the task
    /// is what lets an unmatched request be reported once.
    override open class func canInit(with task: URLSessionTask) -> Bool {
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
        case .registry(let registry):
            if registry.claimsEveryRequest { return true }
            var withCookies = request
            SessionCookies(
                configuration: registry.lastInstalledConfiguration,
                allowsSharedStorage: registry.storesCookiesInSharedStorage
            ).attach(to: &withCookies)
            let visible = RequestBodyReader.visibleBody(of: withCookies, in: task)
            let stubRequest = StubRequest(withCookies, body: visible.body, pathParameters: [:], isBodyKnown: visible.isKnown)
            // A redirect hop handed to the session is this registry's, whatever it matches:
            // it passes through or fails as the unmatched policy says, as on Linux.
            if registry.claims(stubRequest) { return true }
            if let task, registry.tasks.redirectCount(of: task) > 0 { return true }
            if registry.isEnabled, shouldReport(stubRequest, of: task, to: registry) {
                registry.reportMissing(stubRequest)
            }
            return false
        }
    }

    /// corelibs asks once per task, with the request only. Apple may ask several times, with
    /// the task or the request: only a task's first question is reported.
    private class func shouldReport(_ request: StubRequest, of task: URLSessionTask?, to registry: StubRegistry) -> Bool {
        switch LoadingPath.driving(task) {
        case .corelibs: return true
        case .apple: return task.map { registry.tasks.isFirstReport(of: request, in: $0) } ?? false
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
        let url = request.url?.absoluteString ?? "<no URL>"
        let registry: StubRegistry
        switch ProtocolClassPool.lookup(type(of: self)) {
        case .registry(let found):
            registry = found
        case .released, .unknown:
            failSoon(StubError.registryReleased(url: url), environment: Self.environment(for: task, path: .native, registry: nil))
            return
        }
        loadingPath = LoadingPath.driving(task)
        let environment = Self.environment(for: task, path: loadingPath, registry: registry)
        if environment.isDownloadTask {
            failSoon(StubError.downloadTasksUnsupported(url: url), environment: environment)
            return
        }
        let cookies = SessionCookies(configuration: environment.configuration, allowsSharedStorage: registry.storesCookiesInSharedStorage)
        let player = ResponsePlayer(
            url: request.url, environment: environment, timeout: environment.timeout(for: request), sink: self,
            cookies: cookies, redirectsSoFar: redirectsSoFar(registry), host: registry,
            workQueue: DispatchQueue(label: "URLStubs.request"))
        self.player = player
        // Everything below runs user code (a body stream, the stub's response closure, hooks):
        // off the delivery context, which the whole process shares.
        let request = self.request
        player.start {
            var urlRequest = request
            if !environment.addsCookiesToFirstRequest { cookies.attach(to: &urlRequest) }
            let body = RequestBodyReader.fullBody(of: request, uploadBody: environment.uploadBody)
            let stubRequest = StubRequest(urlRequest, body: body, pathParameters: [:], isBodyKnown: body != nil || !environment.hidesUploadBody)
            return registry.makeItem(for: stubRequest)
        }
    }

    override open func stopLoading() {
        stopped = true
        player?.cancel()
        player = nil
    }

    /// Redirects that led to this request. Apple's loading system runs each hop through a new
    /// protocol instance of the same task: the count is kept per task.
    private func redirectsSoFar(_ registry: StubRegistry) -> Int {
        guard loadingPath == .apple, let task else { return 0 }
        taskLedger = registry.tasks
        return registry.tasks.redirectCount(of: task)
    }

    /// The platform edge: what the loading system that drives this protocol tells about the
    /// task. `registry` is `nil` when it was released.
    private static func environment(for task: URLSessionTask?, path: LoadingPath, registry: StubRegistry?) -> LoadingEnvironment {
        #if URLSTUBS_APPLE_LOADING
        return AppleTaskState.environment(for: task, installedConfiguration: registry?.lastInstalledConfiguration)
        #else
        switch path {
        case .corelibs: return CorelibsTaskState.environment(for: task)
        case .apple: return AppleTaskState.environment(for: task, installedConfiguration: registry?.lastInstalledConfiguration)
        }
        #endif
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
    var isStopped: Bool { stopped }

    var isBeingCancelled: Bool {
        #if URLSTUBS_APPLE_LOADING
        // Apple delivers stopLoading on the thread every step runs on: `stopped` says it all.
        return false
        #else
        guard loadingPath == .corelibs, let task else { return false }
        return CorelibsTaskState.isCanceling(task)
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
        // The player goes on with the 3xx itself (see ResponsePlayer.redirect), so it stays.
        if let task { taskLedger?.recordRedirect(of: task) }
        client?.urlProtocol(self, wasRedirectedTo: request, redirectResponse: response)
    }
}
