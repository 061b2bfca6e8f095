import Foundation
import Dispatch
#if canImport(Darwin)
import CoreFoundation
#endif

/// Delivers on the run loop of the thread that called `startLoading`, as Apple's URL Loading
/// System requires (Apple's `URLProtocol` documentation; OHHTTPStubs' `HTTPStubs.m` captures
/// that run loop and performs each callback there). Waits happen on a global queue, which
/// then hops back, so no timer is ever added to a run loop from another thread.
///
/// Every CoreFoundation call of URLStubs is in this file. On Apple platforms a block is
/// performed with `CFRunLoopPerformBlock` and the loop woken with `CFRunLoopWakeUp`. Elsewhere
/// (the test suite's model of Apple's loading client, on Linux) a `Timer` due now, added to
/// the captured `RunLoop`, stands in: corelibs' `RunLoop.perform(inModes:block:)` performs on
/// the calling thread's loop, not the receiver's. Timers due at once fire in the order they
/// were added, so steps keep their order.
struct RunLoopScheduler: DeliveryScheduler, @unchecked Sendable {
    // @unchecked: a run loop may be handed blocks from any thread (CFRunLoopPerformBlock and
    // CFRunLoopWakeUp are thread-safe; so is adding a timer on corelibs, which locks).
    #if canImport(Darwin)
    let runLoop: CFRunLoop

    static func current() -> RunLoopScheduler { RunLoopScheduler(runLoop: CFRunLoopGetCurrent()) }

    func async(_ work: @escaping @Sendable () -> Void) {
        CFRunLoopPerformBlock(runLoop, CFRunLoopMode.commonModes.rawValue, work)
        CFRunLoopWakeUp(runLoop)
    }
    #else
    let runLoop: RunLoop

    static func current() -> RunLoopScheduler { RunLoopScheduler(runLoop: RunLoop.current) }

    func async(_ work: @escaping @Sendable () -> Void) {
        runLoop.add(Timer(timeInterval: 0, repeats: false) { _ in work() }, forMode: .common)
    }
    #endif

    func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) {
        if deadline <= .now() {
            async(work)
        } else {
            DispatchQueue.global().asyncAfter(deadline: deadline) { self.async(work) }
        }
    }
}
