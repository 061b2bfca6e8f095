import Foundation

/// Values compiled from text (regular expressions, JSONPath expressions, date patterns), each
/// compiled once and shared between threads; a cache that outgrows `limit` starts over.
final class CompiledCache<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [String: Value?] = [:]
    private let limit: Int
    private let compile: @Sendable (String) -> Value?

    init(limit: Int = 4096, compile: @escaping @Sendable (String) -> Value?) {
        self.limit = limit
        self.compile = compile
    }

    /// The value compiled from `text`, or `nil` when it does not compile.
    func value(for text: String) -> Value? {
        lock.lock()
        if let entry = entries[text] {
            lock.unlock()
            return entry
        }
        lock.unlock()
        let value = compile(text)
        lock.lock()
        if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
        entries[text] = value
        lock.unlock()
        return value
    }
}
