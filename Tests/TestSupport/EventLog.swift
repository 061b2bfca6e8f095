import Foundation

/// A thread-safe list, for hooks that run on URLSession's queues.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
    var events: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
