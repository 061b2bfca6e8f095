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

    /// A passthrough in flight, cancellable from the delivery context.
    final class Handle: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionTask?
        private var cancelled = false

        fileprivate func attach(_ task: URLSessionTask) -> Bool {
            lock.lock(); defer { lock.unlock() }
            guard !cancelled else { return false }
            self.task = task
            return true
        }

        func cancel() {
            lock.lock()
            cancelled = true
            let task = self.task
            lock.unlock()
            task?.cancel()
        }
    }

    /// Starts fetching `request` from `queue` (never the delivery context: on Linux every
    /// session's work queue targets one serial queue, and `resume()` does a `sync` onto it,
    /// which would deadlock when called from a stub's own delivery step). `completion` runs on
    /// an arbitrary queue.
    static func start(
        _ request: URLRequest, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<(HTTPURLResponse, Data), SendableError>) -> Void
    ) -> Handle {
        let handle = Handle()
        queue.async {
            let task = load(request, resume: false, completion: completion)
            if handle.attach(task) { task.resume() }
        }
        return handle
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
        var headers: [String: String] = [:]
        var cookies: [String] = []
        for (name, value) in response.stringHeaders {
            let lower = name.lowercased()
            if transportHeaders.contains(lower) { continue }
            if lower == "set-cookie" {
                cookies.append(value)
                continue
            }
            headers[name] = value
        }
        var result = StubResponse(data: body, statusCode: response.statusCode, headers: headers)
        result.setCookieHeaders = cookies
        result.requestTime = 0
        result.responseTime = timing.responseTime
        return result
    }
}

extension StubDescriptor {
    /// Stands for "the real network" in hooks and the journal when no stub answered a request
    /// that the registry passes through.
    static let network = StubDescriptor(
        name: "network passthrough", matcher: .any,
        location: StubLocation(fileID: "URLStubs/NetworkLoader.swift", filePath: #filePath, line: 0),
        maxActivations: nil, sequence: 0
    ) { _, _ in .passthrough() }
}
