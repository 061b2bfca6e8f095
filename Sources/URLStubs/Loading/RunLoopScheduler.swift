import Foundation
import Dispatch
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// Delivers on the run loop of the thread that called `startLoading`, as Apple's URL Loading
/// System requires (Apple's `URLProtocol` documentation; OHHTTPStubs' `HTTPStubs.m` captures
/// that run loop and performs each callback there). Waits happen on a global queue, which
/// then hops back, so nothing is ever scheduled on a run loop from another thread but blocks.
///
/// Every CoreFoundation call of URLStubs is in this file: `CFRunLoopPerformBlock` then
/// `CFRunLoopWakeUp`, on Apple platforms and on Linux alike (corelibs ships CoreFoundation;
/// the test suite's model of Apple's loading client runs this very code). Only the spelling
/// of the common modes differs. A toolchain without CoreFoundation falls back to a `Timer`
/// due now, which works but which corelibs never frees.
struct RunLoopScheduler: DeliveryScheduler, @unchecked Sendable {
    // @unchecked: CFRunLoopPerformBlock and CFRunLoopWakeUp may be called from any thread.
    #if canImport(CoreFoundation)
    let runLoop: CFRunLoop

    static func current() -> RunLoopScheduler { RunLoopScheduler(runLoop: CFRunLoopGetCurrent()) }

    func async(_ work: @escaping @Sendable () -> Void) {
        #if canImport(Darwin)
        CFRunLoopPerformBlock(runLoop, CFRunLoopMode.commonModes.rawValue, work)
        #else
        CFRunLoopPerformBlock(runLoop, kCFRunLoopCommonModes, work)
        #endif
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
