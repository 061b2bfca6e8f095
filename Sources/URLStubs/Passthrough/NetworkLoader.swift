import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads requests from the real network for passthrough stubs and unmatched requests.
///
/// Its session has no stub protocol installed and every request it sends is marked, so a
/// passed-through request can never be intercepted again (the loop guard). It keeps no cookies
/// of its own: the caller's session already attached its cookies to the request, and the
/// server's `Set-Cookie` reaches the caller's store through the normal stub path.
///
/// It follows no redirect: a 3xx comes back as the response, and the stub path follows it hop
/// by hop like a stubbed redirect, so each hop's cookies reach the caller's store and go out
/// with the next hop, `onRedirect` sees real hops, and a recording holds every hop.
enum NetworkLoader {
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        // The request's own timeout clock (the player's) governs: the network waits as long as
        // the app's session would, which may be longer than Foundation's default 60 s.
        configuration.timeoutIntervalForRequest = 7 * 24 * 3600
        configuration.protocolClasses = configuration.protocolClasses?.filter { !($0 is StubURLProtocol.Type) }
        return URLSession(configuration: configuration, delegate: RedirectRefuser(), delegateQueue: nil)
    }()

    /// Hands every redirect response back instead of following it.
    private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    /// Where tasks of ``session`` are resumed and cancelled. On Linux both do a `sync` onto the
    /// process-wide queue every session's work queue targets: from the loading context (a
    /// stub's step, `stopLoading`, a timeout) that is a deadlock or a crash, so they never run
    /// there. Serial, and never blocked for long: each call waits only for the step in progress.
    private static let control = DispatchQueue(label: "URLStubs.NetworkLoader.control")

    /// A passthrough in flight, cancellable from the delivery context.
    final class Handle: @unchecked Sendable {
        private let state = Locked((task: URLSessionTask?.none, cancelled: false))

        fileprivate func attach(_ task: URLSessionTask) -> Bool {
            state.withLock { state in
                guard !state.cancelled else { return false }
                state.task = task
                return true
            }
        }

        /// Cancels the request; returns at once (the task is cancelled on ``control``).
        func cancel() {
            let task = state.withLock { state in
                state.cancelled = true
                defer { state.task = nil }
                return state.task
            }
            guard let task else { return }
            control.async { task.cancel() }
        }
    }

    /// Starts fetching `request` and returns at once; `completion` runs on an arbitrary queue.
    /// Safe to call from the delivery context: the task is resumed on ``control``.
    static func start(
        _ request: URLRequest, completion: @escaping @Sendable (Result<(HTTPURLResponse, Data), SendableError>) -> Void
    ) -> Handle {
        let handle = Handle()
        control.async {
            let task = load(request, resume: false, completion: completion)
            if handle.attach(task) { task.resume() }
        }
        return handle
    }

    /// Applies a passthrough's transforms (user code: call off the loading context) to what the
    /// server sent, as a stub response with the stub's pacing; tells them of a network failure.
    static func applying(
        _ transforms: [ResponseTransform], to result: Result<(HTTPURLResponse, Data), SendableError>, timing: StubResponse
    ) -> Result<StubResponse, SendableError> {
        switch result {
        case .failure(let failure):
            for transform in transforms { transform.networkFailed?(failure.error) }
            return .failure(failure)
        case .success(var (response, body)):
            do {
                for transform in transforms {
                    (response, body) = try transform.apply(response, body)
                }
            } catch {
                return .failure(SendableError(error: error))
            }
            return .success(stubResponse(from: response, body: body, timing: timing))
        }
    }

    /// Fetches `request`; `completion` runs on an arbitrary queue.
    static func load(
        _ request: URLRequest, resume: Bool = true,
        completion: @escaping @Sendable (Result<(HTTPURLResponse, Data), SendableError>) -> Void
    ) -> URLSessionTask {
        let marked = (request as NSURLRequest).mutableCopy() as! NSMutableURLRequest
        URLProtocol.setProperty(true, forKey: StubURLProtocol.passthroughKey, in: marked)
        let task = session.dataTask(with: marked as URLRequest) { data, response, error in
            if let error {
                completion(.failure(SendableError(error: error)))
            } else if let http = response as? HTTPURLResponse {
                completion(.success((http, data ?? Data())))
            } else {
                completion(.failure(SendableError(error: URLError(.badServerResponse))))
            }
        }
        if resume { task.resume() }
        return task
    }

    /// A stub response holding what the server sent. Transport headers are dropped because
    /// the body is already decoded and will be re-sent with its own length.
    static func stubResponse(from response: HTTPURLResponse, body: Data, timing: StubResponse) -> StubResponse {
        let transportHeaders = ["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"]
        var headers = HeaderFields(response.stringHeaders)
        for name in transportHeaders { headers.removeAll(named: name) }
        var result = StubResponse(data: body, statusCode: response.statusCode, headers: headers)
        // The wait before the request was sent is over; the body keeps the stub's pace.
        result.pacing = ResponsePacing(requestTime: 0, body: timing.pacing.body)
        return result
    }
}

extension StubDescriptor {
    /// Stands for "the real network" in hooks and the journal when no stub answered a request
    /// that the registry passes through.
    static let network = StubDescriptor(
        name: "network passthrough", matcher: .any,
        location: StubLocation(fileID: "URLStubs/NetworkLoader.swift", filePath: #filePath, line: 0),
        maxActivations: nil, sequence: 0, answer: .constant(.passthrough()))
}
