import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The least a stub can pay to run user code off the loading context and answer on it again:
/// the minimal protocol (``BaselineURLProtocol``) plus one round trip to a parked thread of its
/// own, with nothing else. `startLoading` hands an empty job to the thread, waits on a semaphore
/// until the thread has run it, then answers inline, like the baseline.
///
/// This is a floor, not a design: it blocks the loading context while it waits, which URLStubs
/// must not do (a blocked closure would stall every session). Any design that runs the response
/// closure on another thread pays at least these two wake-ups, so `hopFloor.cpu − baseline.cpu`
/// bounds from below what the closure form (`stubbed`) costs on top of the one-liner
/// (`stubbedConstant`), which runs no user code.
final class HopFloorURLProtocol: URLProtocol {
    private static let worker = ParkedWorker()

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        Self.worker.runAndWait {}
        answerOneKilobyte(self)
    }

    override func stopLoading() {}
}

/// One dedicated thread that sleeps until it is handed a job (as URLStubs' user-code threads do).
final class ParkedWorker: @unchecked Sendable {
    // @unchecked: `job` is guarded by `condition`.
    private let condition = NSCondition()
    private var job: (@Sendable () -> Void)?

    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "urlstubs-bench.hopFloor"
        thread.start()
    }

    /// Runs `work` on the worker thread; returns when it has run.
    func runAndWait(_ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        condition.lock()
        // One job at a time: a second caller waits for the slot rather than replace the first.
        while job != nil { condition.wait() }
        job = {
            work()
            done.signal()
        }
        condition.unlock()
        condition.broadcast()
        done.wait()
    }

    private func loop() {
        condition.lock()
        while true {
            if let next = job {
                job = nil
                condition.broadcast()
                condition.unlock()
                next()
                condition.lock()
            } else {
                condition.wait()
            }
        }
    }
}

func hopFloorScenario() -> RequestScenario {
    let configuration = sessionConfiguration(protocolClasses: [HopFloorURLProtocol.self])
    return RequestScenario(
        name: "hopFloor", session: URLSession(configuration: configuration),
        request: URLRequest(url: benchURL))
}
