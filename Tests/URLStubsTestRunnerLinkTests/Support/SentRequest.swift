import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
@testable import TestSupport

/// A request the app sends at once: its data task is resumed in the initializer, on the
/// caller's thread, and the test awaits its result later.
///
/// Unlike `async let fetch(...)`, whose child task sends the request only once the cooperative
/// pool gets to it (tens of seconds late while the suite runs), the request reaches the app's
/// registry before a wait the test starts next, whose timeout counts from the wait's start.
final class SentRequest: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the fields are read and written under `lock`.
    private let lock = NSLock()
    private var body = Data()
    private var outcome: FetchResult?
    private var waiter: CheckedContinuation<FetchResult, Never>?

    /// Sends `request` through a session of `registry`, read with a completion handler or, for
    /// `.delegate`, by a delegate as the body arrives (the only two ways this type reads).
    init(_ request: URLRequest, from registry: StubRegistry, using api: FetchAPI = .completionHandler) {
        precondition(api == .completionHandler || api == .delegate, "SentRequest reads with a completion handler or a delegate")
        super.init()
        if api == .delegate {
            let session = registry.makeSession(delegate: self)
            session.dataTask(with: request).resume()
            session.finishTasksAndInvalidate()
        } else {
            let session = registry.makeSession()
            session.dataTask(with: request) { [self] data, response, error in
                finish(FetchResult(data: error == nil ? data : nil, response: response as? HTTPURLResponse, error: error))
            }.resume()
            session.finishTasksAndInvalidate()
        }
    }

    convenience init(_ url: String, from registry: StubRegistry, using api: FetchAPI = .completionHandler) {
        self.init(request(url), from: registry, using: api)
    }

    /// What the app received, once the request has ended.
    var result: FetchResult {
        get async {
            await withCheckedContinuation { continuation in
                lock.lock()
                if let outcome {
                    lock.unlock()
                    continuation.resume(returning: outcome)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock(); body.append(data); lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let received = body
        lock.unlock()
        finish(FetchResult(data: error == nil ? received : nil, response: task.response as? HTTPURLResponse, error: error))
    }

    private func finish(_ result: FetchResult) {
        lock.lock()
        outcome = result
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume(returning: result)
    }
}
