import Foundation
import Dispatch

/// Watches the timeouts of every loading request with one timer.
///
/// A dispatch timer per request cost about 9,000 instructions a request (`Tests/Bench/bench.sh
/// profile`), and 60-second timers of finished requests piled up under load. Here a request
/// registers a moment to be checked; one timer, set for the earliest such moment, hands each
/// due request to its own delivery context, where the request decides (it may have made
/// progress since, and then registers its next check).
final class TimeoutMonitor: @unchecked Sendable {
    static let shared = TimeoutMonitor()

    /// How late a check may come: timeouts are reported within this of their moment.
    static let leeway = DispatchTimeInterval.milliseconds(10)

    private struct Entry {
        let due: UInt64
        /// Weak: a finished request (with its body and registry) is not kept for its check.
        weak var player: ExchangePlayer?
    }

    private let lock = NSLock()
    /// Checks registered in the order they fall due (most are: the first check of each request
    /// comes a fixed second after it starts).
    private var inOrder = FIFOQueue<Entry>()
    /// The others, as a binary min-heap by `due`.
    private var heap: [Entry] = []
    private let queue = DispatchQueue(label: "URLStubs.TimeoutMonitor")
    private let timer: DispatchSourceTimer
    private var armedFor: UInt64 = .max

    private init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in fire() }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
    }

    /// Asks for `player.timeoutCheckDue()` at `moment` (or soon after), if the player still
    /// exists then.
    func check(_ player: ExchangePlayer, at moment: DispatchTime) {
        let due = moment.uptimeNanoseconds
        lock.lock()
        if inOrder.last.map({ due >= $0.due }) ?? true {
            inOrder.append(Entry(due: due, player: player))
        } else {
            push(Entry(due: due, player: player))
        }
        let rearm = due < armedFor
        if rearm { armedFor = due }
        lock.unlock()
        if rearm { timer.schedule(deadline: moment, leeway: Self.leeway) }
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        var due: [ExchangePlayer] = []
        lock.lock()
        while let first = inOrder.first, first.due <= now {
            if let player = first.player { due.append(player) }
            _ = inOrder.popFirst()
        }
        while let first = heap.first, first.due <= now {
            if let player = first.player { due.append(player) }
            popFirst()
        }
        let earliest = min(inOrder.first?.due ?? .max, heap.first?.due ?? .max)
        armedFor = earliest
        let next = earliest == .max ? nil : DispatchTime(uptimeNanoseconds: earliest)
        lock.unlock()
        if let next { timer.schedule(deadline: next, leeway: Self.leeway) }
        for player in due { player.timeoutCheckDue() }
    }

    // MARK: Heap

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func popFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].due < heap[smallest].due { smallest = left }
            if right < heap.count, heap[right].due < heap[smallest].due { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
