import Foundation
import Testing
@testable import URLStubs

/// The ring buffer behind the user-code runner's and the timeout monitor's queues.
@Suite("FIFO queue")
struct FIFOQueueTests {
    /// Appends and takes in a pattern that wraps around the buffer and grows it while wrapped:
    /// the queue agrees with an array at every step.
    @Test func keepsOrderAcrossWrapsAndGrowth() {
        var queue = FIFOQueue<Int>()
        var model: [Int] = []
        var next = 0
        for round in 0..<200 {
            for _ in 0..<(round % 7 + 1) {
                queue.append(next)
                model.append(next)
                next += 1
            }
            for _ in 0..<(round % 5) {
                #expect(queue.popFirst() == (model.isEmpty ? nil : model.removeFirst()))
            }
            #expect(queue.count == model.count)
            #expect(queue.first == model.first)
            #expect(queue.last == model.last)
        }
        var changed: [Int] = []
        queue.updateEach { $0 = -$0 }
        while let value = queue.popFirst() { changed.append(value) }
        #expect(changed == model.map { -$0 })
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
    }

    /// A taken element is released at once: a queue of jobs does not keep what they capture.
    @Test func releasesWhatItHandsOut() {
        final class Captured {}
        weak var watched: Captured?
        var queue = FIFOQueue<() -> Void>()
        do {
            let captured = Captured()
            watched = captured
            queue.append { _ = captured }
            queue.append {}
        }
        #expect(watched != nil)
        _ = queue.popFirst()
        #expect(watched == nil)
        #expect(queue.count == 1)
    }
}
