import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import TestSupport

/// Loads `request` on `session` with a completion handler and returns what came and how long
/// it took: from just before the task starts to its completion handler, both on the threads where
/// they happen. Timed there, not around the `await`: this task resumes only when the
/// cooperative pool gets to it, which can be tens of seconds late while the suite runs.
func timedExchange(_ request: URLRequest, session: URLSession) async -> (result: FetchResult, seconds: TimeInterval) {
    await withCheckedContinuation { continuation in
        let started = Date()
        session.dataTask(with: request) { data, response, error in
            continuation.resume(
                returning: (
                    FetchResult(data: error == nil ? data : nil, response: response as? HTTPURLResponse, error: error),
                    Date().timeIntervalSince(started)
                ))
        }.resume()
    }
}
