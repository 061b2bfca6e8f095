import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Remembers which task's request was already reported as unmatched, so the journal and
/// `onMissing` see it once although Apple's loading system may ask `canInit` several times
/// for one task. Tasks are held weakly; entries of finished tasks are dropped as new ones come.
final class ReportedTasks: @unchecked Sendable {
    private struct Entry {
        weak var task: URLSessionTask?
        let request: String
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// `true` the first time `request` of `task` is seen (a redirect hop of the same task is a
    /// new request), `false` after.
    func isFirstReport(of request: StubRequest, in task: URLSessionTask) -> Bool {
        let key = request.description
        lock.lock(); defer { lock.unlock() }
        if entries.contains(where: { $0.task === task && $0.request == key }) { return false }
        if entries.count >= 64 { entries.removeAll { $0.task == nil } }
        entries.append(Entry(task: task, request: key))
        return true
    }
}
