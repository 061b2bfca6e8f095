import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts what one delegate task receives and when, without keeping the bytes.
final class TimingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Outcome {
        var started = 0.0
        var headAt: Double?
        var finishedAt = 0.0
        var bytes = 0
        var chunks = 0
        var error: (any Error)?
    }

    private let lock = NSLock()
    private var outcome = Outcome()
    private var continuation: CheckedContinuation<Outcome, Never>?

    /// Starts `task` and waits for it to complete.
    func run(_ task: URLSessionTask) async -> Outcome {
        await withCheckedContinuation { continuation in
            lock.lock()
            outcome = Outcome(started: now())
            self.continuation = continuation
            lock.unlock()
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let at = now()
        lock.lock(); outcome.headAt = at; lock.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        outcome.bytes += data.count
        outcome.chunks += 1
        lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let at = now()
        lock.lock()
        outcome.finishedAt = at
        outcome.error = error
        let result = outcome
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(returning: result)
    }
}
