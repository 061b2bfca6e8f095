#if !URLSTUBS_APPLE_LOADING
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import URLStubs

/// A model of how Apple's URL Loading System drives a custom `URLProtocol`, so the suite runs
/// URLStubs' Apple path on Linux. Each rule comes from Apple's documentation or from
/// OHHTTPStubs' public source (`HTTPStubs.m`), which has relied on it on Apple platforms for a
/// decade; where neither settles a point, the comment says "modelled" and the platform table of
/// the DocC article "Linux and Apple platforms" lists it as not yet run on a device.
///
/// - One thread with a run loop loads every custom protocol of the process (CFNetwork's
///   `com.apple.CFNetwork.CustomProtocols`): `canInit`, `startLoading` and `stopLoading` run
///   there, and client callbacks are expected there (`URLProtocol` docs; OHHTTPStubs captures
///   that run loop in `startLoading` and performs every callback on it).
/// - The session asks `canInit`, possibly several times per task (modelled as: twice with the
///   task), then `canonicalRequest(for:)`. One task object serves every redirect hop; each hop
///   is a new protocol instance whose `task` is that task (`URLProtocol.task`).
/// - The protocol's request has its body in `httpBodyStream`, never `httpBody`; an upload
///   task's body is in neither; configuration headers and cookies are not added (modelled, from
///   OHHTTPStubs' `OHHTTPStubsHTTPBody` workaround and its cookie handling in `startLoading`).
/// - `wasRedirectedTo` makes the session ask its delegate (`willPerformHTTPRedirection`); if the
///   delegate follows, the session stops this protocol and loads the new request through a new
///   one; if it declines, the 3xx the protocol sends next is the final response (OHHTTPStubs
///   issue 174, fixed by its PR 175: the protocol goes on after `wasRedirectedTo`). Callbacks
///   the protocol sends while the delegate decides are held (modelled).
/// - No cookie handling and no timeout for custom protocols: the session's cookie store and
///   `timeoutIntervalForRequest` serve its own HTTP loading only, so a custom protocol's
///   `Set-Cookie` is not stored and its request is never failed with `URLError(.timedOut)`.
/// - `stopLoading` is called when the task is cancelled, when a redirect is followed, and after
///   the protocol finished or failed (modelled).
/// - Every consumer accumulates `didLoad` chunks; a completion-handler task gets the whole body
///   and no data-delegate calls; `cancel()` delivers `URLError(.cancelled)` itself.
///
/// The model records every breach of that contract (a callback off the loading thread, after
/// `stopLoading`, after completion, a second response) in ``violations``; tests expect none.
final class AppleLoadingModel: @unchecked Sendable {
    /// The process-wide loading thread.
    static let loadingThread = LoadingThread()

    let configuration: URLSessionConfiguration
    let delegate: (any URLSessionDelegate)?
    let delegateQueue: OperationQueue
    /// Makes the task objects protocols are initialised with (so `task is URLSessionUploadTask`
    /// works as on Apple platforms); none of its tasks is ever resumed.
    let taskFactory: URLSession

    private let lock = NSLock()
    private var recordedViolations: [String] = []

    /// - Parameter configuration: Copied, as `URLSession` does; install a registry first.
    init(configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)? = nil) {
        self.configuration = configuration.copy() as! URLSessionConfiguration
        self.delegate = delegate
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        self.delegateQueue = queue
        // corelibs' invalidateAndCancel() (in deinit) creates URLSession.shared: the shared
        // registry's class must be registered first for the shared-session tests.
        sharedStubsActivated
        let factoryConfiguration = URLSessionConfiguration.ephemeral
        factoryConfiguration.protocolClasses = []
        self.taskFactory = URLSession(configuration: factoryConfiguration)
    }

    deinit { taskFactory.invalidateAndCancel() }

    /// Every breach of Apple's contract seen so far.
    var violations: [String] {
        lock.lock(); defer { lock.unlock() }
        return recordedViolations
    }

    func recordViolation(_ text: String) {
        lock.lock(); recordedViolations.append(text); lock.unlock()
    }

    func dataTask(
        with request: URLRequest,
        completionHandler: (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)? = nil
    ) -> ModelTask {
        ModelTask(model: self, request: request, uploadBody: nil, completionHandler: completionHandler)
    }

    func uploadTask(
        with request: URLRequest, from body: Data,
        completionHandler: (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)? = nil
    ) -> ModelTask {
        ModelTask(model: self, request: request, uploadBody: body, completionHandler: completionHandler)
    }

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (data ?? Data(), response!))
                }
            }.resume()
        }
    }
}

/// One thread running a run loop forever.
final class LoadingThread: @unchecked Sendable {
    private var thread: Thread?
    private var threadID: pthread_t?
    private var scheduler: RunLoopScheduler!

    init() {
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [unowned self] in
            threadID = pthread_self()
            scheduler = RunLoopScheduler.current()
            // A timer far away keeps the loop from returning at once when it has no work.
            RunLoop.current.add(Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }, forMode: .default)
            ready.signal()
            while true { _ = RunLoop.current.run(mode: .default, before: .distantFuture) }
        }
        thread.name = "AppleLoadingModel (com.apple.CFNetwork.CustomProtocols)"
        self.thread = thread
        thread.start()
        ready.wait()
    }

    var isCurrent: Bool { threadID.map { pthread_equal($0, pthread_self()) != 0 } ?? false }

    /// Runs `work` on the thread, after what is already queued: the same scheduler the
    /// library's Apple path uses to call back on a captured run loop.
    func perform(_ work: @escaping @Sendable () -> Void) {
        scheduler.async(work)
    }
}

/// A task of the model: the session-side state Apple keeps for a task.
final class ModelTask: @unchecked Sendable {
    // @unchecked: every mutable field is touched on the loading thread only.
    private let model: AppleLoadingModel
    private let originalRequest: URLRequest
    private let uploadBody: Data?
    private let completionHandler: (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)?
    /// What the delegate callbacks receive as their task.
    let sessionTask: URLSessionTask

    private var started = false
    private var completed = false
    private var hop: HopClient?
    private var hopCount = 0
    /// Set between `wasRedirectedTo` and the delegate's answer.
    private var heldEvents: [HopClient.Event]?
    private var response: URLResponse?
    private var data = Data()

    init(
        model: AppleLoadingModel, request: URLRequest, uploadBody: Data?,
        completionHandler: (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)?
    ) {
        self.model = model
        self.originalRequest = request
        self.uploadBody = uploadBody
        self.completionHandler = completionHandler
        // Without its body: corelibs never frees the body (or body stream) of a task that never
        // runs, which AddressSanitizer reports. So `canInit(with: task)` sees no body here,
        // where Apple's would see `httpBody`; the protocol instance gets the body (as a stream).
        var bodiless = request
        bodiless.httpBody = nil
        bodiless.httpBodyStream = nil
        let task = uploadBody.map { model.taskFactory.uploadTask(with: bodiless, from: $0) } ?? model.taskFactory.dataTask(with: bodiless)
        self.sessionTask = task
    }

    func resume() {
        AppleLoadingModel.loadingThread.perform { [self] in
            guard !started else { return }
            started = true
            load(originalRequest)
        }
    }

    func cancel() {
        AppleLoadingModel.loadingThread.perform { [self] in
            guard started, !completed else { return }
            complete(with: URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: originalRequest.url as Any]))
        }
    }

    // MARK: Loading one hop

    /// What the session hands a protocol for `request`.
    private static func preparedRequest(_ request: URLRequest) -> URLRequest {
        var prepared = request
        if let body = prepared.httpBody {
            prepared.httpBody = nil
            prepared.httpBodyStream = DataStream(body)
        }
        return prepared
    }

    /// Loads one hop through a new protocol instance.
    private func load(_ request: URLRequest) {
        let prepared = Self.preparedRequest(request)
        let task = sessionTask
        // The platform's own protocols (corelibs' HTTP one here) stand for Apple's network stack,
        // which the model does not have.
        let classes = (model.configuration.protocolClasses ?? []).compactMap { $0 as? StubURLProtocol.Type }
        let chosen = classes.first { protocolClass in
            // (corelibs cannot move `currentRequest` to a redirect hop, so from the second hop
            // on canInit sees the first request; URLStubs claims a hop of a task it redirected.)
            let first = protocolClass.canInit(with: task)
            let again = protocolClass.canInit(with: task)
            if first != again { model.recordViolation("canInit answered differently for one task: \(first), then \(again)") }
            return first
        }
        guard let protocolClass = chosen else {
            // The model has no network: Apple would use its HTTP protocol here.
            complete(with: URLError(.cannotConnectToHost, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any]))
            return
        }
        _ = protocolClass.canonicalRequest(for: prepared)
        let client = HopClient(task: self)
        let urlProtocol = protocolClass.init(request: prepared, cachedResponse: nil, client: client)
        urlProtocol.task = task
        // URLStubs' seam for the loading system that drives an instance: Apple's, here.
        urlProtocol.platform = ApplePlatform()
        client.urlProtocol = urlProtocol
        hop = client
        urlProtocol.startLoading()
    }

    private func stop(_ client: HopClient) {
        guard !client.isStopped else { return }
        client.isStopped = true
        client.urlProtocol?.stopLoading()
        // The protocol holds its client strongly: let go, or the hop and the task leak.
        client.urlProtocol = nil
    }

    // MARK: Client events

    /// Called on whatever thread the protocol called its client from.
    func receive(_ event: HopClient.Event, from client: HopClient) {
        if !AppleLoadingModel.loadingThread.isCurrent {
            model.recordViolation("\(event.name) called off the loading thread")
            AppleLoadingModel.loadingThread.perform { [self] in receiveOnLoadingThread(event, from: client) }
            return
        }
        receiveOnLoadingThread(event, from: client)
    }

    private func receiveOnLoadingThread(_ event: HopClient.Event, from client: HopClient) {
        if client.isStopped {
            model.recordViolation("\(event.name) after stopLoading")
            return
        }
        if completed {
            model.recordViolation("\(event.name) after the task completed")
            return
        }
        guard client === hop else {
            model.recordViolation("\(event.name) from a protocol that no longer loads this task")
            return
        }
        if heldEvents != nil, !event.isRedirect {
            heldEvents?.append(event)
            return
        }
        apply(event, from: client)
    }

    private func apply(_ event: HopClient.Event, from client: HopClient) {
        switch event {
        case .redirect(let request, let redirectResponse):
            guard heldEvents == nil else {
                model.recordViolation("wasRedirectedTo while a redirect was pending")
                return
            }
            heldEvents = []
            askDelegate(about: request, after: redirectResponse) { [self] decision in
                AppleLoadingModel.loadingThread.perform { [self] in
                    guard !completed, client === hop else { return }
                    if let decision {
                        heldEvents = nil
                        stop(client)
                        hopCount += 1
                        load(decision)
                    } else {
                        let held = heldEvents ?? []
                        heldEvents = nil
                        for event in held where !completed { apply(event, from: client) }
                    }
                }
            }
        case .response(let received):
            if response != nil { model.recordViolation("a second response") }
            response = received
            if completionHandler == nil, let delegate = model.delegate as? URLSessionDataDelegate,
                let dataTask = sessionTask as? URLSessionDataTask
            {
                let session = model.taskFactory
                model.delegateQueue.addOperation {
                    delegate.urlSession(session, dataTask: dataTask, didReceive: received) { _ in }
                }
            }
        case .data(let chunk):
            if response == nil { model.recordViolation("data before a response") }
            data.append(chunk)
            if completionHandler == nil, let delegate = model.delegate as? URLSessionDataDelegate,
                let dataTask = sessionTask as? URLSessionDataTask
            {
                let session = model.taskFactory
                model.delegateQueue.addOperation { delegate.urlSession(session, dataTask: dataTask, didReceive: chunk) }
            }
        case .finish:
            complete(with: nil)
        case .failure(let error):
            complete(with: error)
        }
    }

    private func askDelegate(
        about request: URLRequest, after response: URLResponse,
        decide: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let delegate = model.delegate as? URLSessionTaskDelegate, let http = response as? HTTPURLResponse else {
            decide(request)
            return
        }
        let session = model.taskFactory
        let task = sessionTask
        model.delegateQueue.addOperation {
            delegate.urlSession(
                session, task: task, willPerformHTTPRedirection: http, newRequest: request,
                completionHandler: decide)
        }
    }

    private func complete(with error: (any Error)?) {
        completed = true
        heldEvents = nil
        if let hop { stop(hop) }
        hop = nil
        let response = error == nil ? response : nil
        let body = data
        let session = model.taskFactory
        let task = sessionTask
        if let completionHandler {
            model.delegateQueue.addOperation { completionHandler(error == nil ? body : nil, response, error) }
        } else if let delegate = model.delegate as? URLSessionTaskDelegate {
            model.delegateQueue.addOperation { delegate.urlSession(session, task: task, didCompleteWithError: error) }
        }
    }
}

/// An input stream over bytes in memory. (corelibs' `InputStream(data:)` never frees the data
/// it is given: AddressSanitizer reports every body the model sent that way.)
final class DataStream: InputStream {
    private let bytes: Data
    private var offset = 0
    private var status: Stream.Status = .notOpen

    init(_ bytes: Data) {
        self.bytes = bytes
        super.init(data: Data())
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var hasBytesAvailable: Bool { offset < bytes.count }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        let count = min(length, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.copyBytes(to: buffer, from: (bytes.startIndex + offset)..<(bytes.startIndex + offset + count))
        offset += count
        return count
    }
}

/// The client of one protocol instance (one hop of a task).
final class HopClient: NSObject, URLProtocolClient, @unchecked Sendable {
    enum Event {
        case redirect(URLRequest, URLResponse)
        case response(URLResponse)
        case data(Data)
        case finish
        case failure(any Error)

        var name: String {
            switch self {
            case .redirect: return "wasRedirectedTo"
            case .response: return "didReceive response"
            case .data: return "didLoad"
            case .finish: return "didFinishLoading"
            case .failure: return "didFailWithError"
            }
        }

        var isRedirect: Bool {
            if case .redirect = self { return true }
            return false
        }
    }

    private let task: ModelTask
    var urlProtocol: URLProtocol?
    var isStopped = false

    init(task: ModelTask) { self.task = task }

    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {
        task.receive(.redirect(request, redirectResponse), from: self)
    }

    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {}

    func urlProtocol(_ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy) {
        task.receive(.response(response), from: self)
    }

    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) {
        task.receive(.data(data), from: self)
    }

    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) {
        task.receive(.finish, from: self)
    }

    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
        task.receive(.failure(error), from: self)
    }

    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {}

    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {}
}
#endif
