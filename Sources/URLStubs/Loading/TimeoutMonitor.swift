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

    fileprivate struct Entry {
        let due: UInt64
        /// Weak: a finished request (with its body and registry) is not kept for its check.
        weak var player: ExchangePlayer?
    }

    private let checks = Locked(Checks())
    private let queue = DispatchQueue(label: "URLStubs.TimeoutMonitor")
    private let timer: DispatchSourceTimer

    /// What the monitor's lock guards.
    fileprivate struct Checks {
        /// Checks registered in the order they fall due (most are: the first check of each
        /// request comes a fixed second after it starts).
        var inOrder = FIFOQueue<Entry>()
        /// The `due` of `inOrder`'s last entry (read without copying the entry's weak reference).
        var lastInOrder: UInt64 = 0
        /// The others, as a binary min-heap by `due`.
        var heap: [Entry] = []
        var armedFor: UInt64 = .max
    }

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
        let rearm = checks.withLock { checks in
            if checks.inOrder.isEmpty || due >= checks.lastInOrder {
                checks.inOrder.append(Entry(due: due, player: player))
                checks.lastInOrder = due
            } else {
                checks.push(Entry(due: due, player: player))
            }
            let rearm = due < checks.armedFor
            if rearm { checks.armedFor = due }
            return rearm
        }
        if rearm { timer.schedule(deadline: moment, leeway: Self.leeway) }
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        var due: [ExchangePlayer] = []
        let next = checks.withLock { checks -> DispatchTime? in
            while let first = checks.inOrder.first, first.due <= now {
                if let player = first.player { due.append(player) }
                _ = checks.inOrder.popFirst()
            }
            while let first = checks.heap.first, first.due <= now {
                if let player = first.player { due.append(player) }
                checks.popFirst()
            }
            let earliest = min(checks.inOrder.first?.due ?? .max, checks.heap.first?.due ?? .max)
            checks.armedFor = earliest
            return earliest == .max ? nil : DispatchTime(uptimeNanoseconds: earliest)
        }
        if let next { timer.schedule(deadline: next, leeway: Self.leeway) }
        for player in due { player.timeoutCheckDue() }
    }
}

// MARK: Heap

extension TimeoutMonitor.Checks {
    fileprivate mutating func push(_ entry: TimeoutMonitor.Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    fileprivate mutating func popFirst() {
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
