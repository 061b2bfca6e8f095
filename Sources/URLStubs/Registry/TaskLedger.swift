import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a registry remembers about the tasks Apple's loading system runs through it.
///
/// On Apple platforms one task may meet several protocol instances (one per redirect hop) and
/// several `canInit` questions, and a protocol cannot keep state across them. The task is the
/// one thing they share, so the redirect count and the unmatched reports are kept per task.
/// Tasks are held weakly; entries of finished tasks are dropped as new ones come.
final class TaskLedger: @unchecked Sendable {
    private struct Entry {
        weak var task: URLSessionTask?
        var redirects = 0
        var reportedRequests: Set<String> = []
    }

    private let entries = Locked<[Entry]>([])

    /// `true` the first time `request` of `task` is reported as unmatched (a redirect hop of
    /// the same task is a new request), `false` after.
    func isFirstReport(of request: StubRequest, in task: URLSessionTask) -> Bool {
        let key = request.description
        return update(task) { entry in entry.reportedRequests.insert(key).inserted }
    }

    /// How many redirects of stubs this task was handed to follow.
    func redirectCount(of task: URLSessionTask) -> Int {
        entries.withLock { entries in entries.first { $0.task === task }?.redirects ?? 0 }
    }

    /// Counts a redirect handed to the session for `task`; returns the new count.
    @discardableResult
    func recordRedirect(of task: URLSessionTask) -> Int {
        update(task) { entry in
            entry.redirects += 1
            return entry.redirects
        }
    }

    private func update<Result>(_ task: URLSessionTask, _ change: (inout Entry) -> Result) -> Result {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.task === task }) {
                return change(&entries[index])
            }
            if entries.count >= 64 { entries.removeAll { $0.task == nil } }
            entries.append(Entry(task: task))
            return change(&entries[entries.count - 1])
        }
    }
}
