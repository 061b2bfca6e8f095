import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsStreaming

/// Tells, for each write, when a delegate received it.
final class ArrivalDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: CheckedContinuation<Double, any Error>?
    private var finished: CheckedContinuation<Void, Never>?
    private var isComplete = false

    /// Runs `send`, and returns when the delegate received what it sent (seconds, `now()` clock).
    func arrival(of send: () throws -> Void) async throws -> Double {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock(); waiting = continuation; lock.unlock()
            do {
                try send()
            } catch {
                lock.lock(); let pending = waiting; waiting = nil; lock.unlock()
                pending?.resume(throwing: error)
            }
        }
    }

    func completion() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if isComplete {
                lock.unlock()
                continuation.resume()
                return
            }
            finished = continuation
            lock.unlock()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let at = now()
        lock.lock(); let pending = waiting; waiting = nil; lock.unlock()
        pending?.resume(returning: at)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        isComplete = true
        let pending = waiting, done = finished
        waiting = nil
        finished = nil
        lock.unlock()
        pending?.resume(throwing: error ?? BenchError("the stream ended before a write arrived"))
        done?.resume()
    }
}

/// The delay from `LiveStream.send` to the delegate's `didReceive data`, one write at a time
/// (each waits for the previous one to arrive, so nothing queues): what a test waits between
/// writing an event and seeing the app react to it.
func runLiveStream(writes: Int) async throws -> [Figure] {
    progress("live stream: \(writes) writes")
    let registry = StubRegistry()
    let stream = LiveStream(name: "bench")
    registry.stub(isHost("live.bench.local"), name: "live feed") { _ in .stream(stream, headers: ["Content-Type": "text/event-stream"]) }
    let delegate = ArrivalDelegate()
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let session = registry.makeSession(delegate: delegate, delegateQueue: queue)
    defer { session.finishTasksAndInvalidate() }
    session.dataTask(with: URL(string: "https://live.bench.local/events")!).resume()
    try await stream.waitForConnection()
    let event = try ServerSentEvent(event: "tick", data: #"{"price":12.5}"#).encoded()
    var delays: [Double] = []
    for index in 0..<(writes + writes / 10) {
        let sent = now()
        let arrived = try await delegate.arrival { try stream.send(event) }
        // The first tenth warms up (allocations, thread wake-ups) and is not counted.
        if index >= writes / 10 { delays.append((arrived - sent) * 1000) }
    }
    try stream.finish()
    await delegate.completion()
    withExtendedLifetime(registry) {}
    return [
        Figure(name: "liveStream.writes", value: Double(delays.count), unit: "writes"),
        Figure(name: "liveStream.sendToDelegateMs.p50", value: percentile(delays, 0.5), unit: "ms", target: target("< 1") { $0 < 1 }),
        Figure(name: "liveStream.sendToDelegateMs.p99", value: percentile(delays, 0.99), unit: "ms"),
    ]
}

/// The value below which `fraction` of `values` lie (nearest rank).
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count - 1, max(0, rank - 1))]
}
