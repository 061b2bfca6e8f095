import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

@Suite("Stress")
struct StressTests {
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        var ok = 0, cancelled = 0, corrupted = 0, otherErrors: [String] = [], callbacks: [Int: Int] = [:]
        /// The longest time a task took from its `resume()` to its completion, in seconds.
        var longestTask: TimeInterval = 0
        /// Classifies one task's outcome (cancelled, failed, intact or corrupted), and keeps how
        /// long it took when `took` is given.
        func record(_ index: Int, data: Data?, error: (any Error)?, expected: Data, took: TimeInterval = 0) {
            lock.lock(); defer { lock.unlock() }
            callbacks[index, default: 0] += 1
            longestTask = max(longestTask, took)
            if let error = error as? URLError, error.code == .cancelled {
                cancelled += 1
            } else if let error {
                otherErrors.append("\(error)")
            } else if data == expected {
                ok += 1
            } else {
                corrupted += 1
            }
        }
        func read<T>(_ body: (Tally) -> T) -> T { lock.lock(); defer { lock.unlock() }; return body(self) }
    }

    /// 2,000 tasks at once over several sessions and registries, some cancelled at random,
    /// stubs added and removed meanwhile: no crash, every body intact or `.cancelled`.
    @Test func twoThousandConcurrentTasksWithRandomCancels() async throws {
        let registries = [StubRegistry(), StubRegistry()]
        let bodies = (0..<4).map { patternData(3_000 + $0 * 1_111, seed: UInt8($0)) }
        for registry in registries {
            for (index, body) in bodies.enumerated() {
                registry.stub(isPath("/body/\(index)")) { _ in
                    index % 2 == 0 ? StubResponse(data: body) : StubResponse(data: body).requestTime(0, responseTime: 0.02)
                }
            }
        }
        let sessions = registries.flatMap { registry in (0..<2).map { _ in registry.makeSession() } }
        defer { sessions.forEach { $0.finishTasksAndInvalidate() } }
        let tally = Tally()
        let total = 2_000
        let churn = Task.detached {
            // Stubs come and go while requests run; the four answering stubs stay.
            var extra: [StubDescriptor] = []
            for round in 0..<200 {
                let registry = registries[round % 2]
                extra.append(registry.stub(isPath("/churn/\(round)")) { _ in StubResponse(data: Data()) })
                if extra.count > 5 { registry.remove(extra.removeFirst()) }
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<total {
                group.addTask {
                    let bodyIndex = index % bodies.count
                    let session = sessions[index % sessions.count]
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let task = session.dataTask(with: URL(string: "https://stress.test/body/\(bodyIndex)")!) { data, _, error in
                            tally.record(index, data: data, error: error, expected: bodies[bodyIndex])
                            continuation.resume()
                        }
                        task.resume()
                        if index % 5 == 0 {
                            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...20_000))) {
                                task.cancel()
                            }
                        }
                    }
                }
            }
        }
        await churn.value
        tally.read { tally in
            #expect(tally.corrupted == 0)
            #expect(tally.otherErrors.isEmpty, "\(tally.otherErrors.prefix(3))")
            #expect(tally.ok + tally.cancelled == total)
            #expect(tally.callbacks.count == total)
            #expect(tally.callbacks.values.allSatisfy { $0 == 1 }, "exactly one completion per task")
            #expect(tally.ok >= total * 3 / 4)
        }
    }
}

/// Collects the body of many delegate tasks of one session, task by task.
final class MultiTaskRecorder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var bodies: [Int: Data] = [:]
    private var completions: [Int: @Sendable (Data?, (any Error)?) -> Void] = [:]

    func register(_ task: URLSessionTask, completion: @escaping @Sendable (Data?, (any Error)?) -> Void) {
        lock.lock(); completions[task.taskIdentifier] = completion; lock.unlock()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock(); bodies[dataTask.taskIdentifier, default: Data()].append(data); lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let body = bodies.removeValue(forKey: task.taskIdentifier)
        let completion = completions.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        completion?(error == nil ? (body ?? Data()) : nil, error)
    }
}

extension StressTests {
    /// The reliability bar: 10,000 requests over many sessions and registries at once, stubs
    /// added and removed meanwhile, random cancels, paced and unpaced bodies, completion
    /// handlers and delegates, and one stub whose closure blocks all along: 0 crashes, 0 hangs,
    /// 0 corrupted bodies, and the blocked request times out.
    @Test func tenThousandRequestsAcrossRegistriesAndSessions() async throws {
        let registries = (0..<5).map { _ in StubRegistry() }
        let bodies = (0..<6).map { patternData(512 + $0 * 7_919, seed: UInt8(40 + $0)) }
        for registry in registries {
            for (index, body) in bodies.enumerated() {
                registry.stub(isPath("/r/\(index)")) { _ in
                    switch index % 3 {
                    case 0: return StubResponse(data: body)
                    case 1: return StubResponse(data: body).requestTime(0, responseTime: 0.03)
                    default: return StubResponse(data: body).downloadSpeed(.kilobytesPerSecond(2_000))
                    }
                }
            }
        }
        let stall = StallControl()
        defer { stall.unblock() }
        registries[0].stub(isPath("/blocked")) { _ in
            stall.markBlocked()
            stall.wait()  // until the 10,000 requests are done
            return StubResponse(data: Data())
        }
        async let blocked = fetch(request("https://stress.test/blocked"), from: registries[0]) { $0.timeoutIntervalForRequest = 1 }
        let recorders = registries.map { _ in MultiTaskRecorder() }
        let sessions: [(URLSession, MultiTaskRecorder?)] = registries.enumerated().flatMap { index, registry in
            [(registry.makeSession(), nil), (registry.makeSession(delegate: recorders[index]), recorders[index])]
        }
        defer { sessions.forEach { $0.0.finishTasksAndInvalidate() } }
        let tally = Tally()
        let total = 10_000
        let churn = Task.detached {
            var extra: [(StubRegistry, StubDescriptor)] = []
            for round in 0..<400 {
                let registry = registries[round % registries.count]
                extra.append((registry, registry.stub(pathStartsWith("/churn/\(round)")) { _ in StubResponse(data: Data()) }))
                if extra.count > 20 { let (owner, stub) = extra.removeFirst(); owner.remove(stub) }
                try? await Task.sleep(nanoseconds: 500_000)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for batch in stride(from: 0, to: total, by: 500) {
                group.addTask {
                    await withTaskGroup(of: Void.self) { inner in
                        for index in batch..<min(batch + 500, total) {
                            inner.addTask { await Self.runOne(index, sessions: sessions, bodies: bodies, tally: tally) }
                        }
                    }
                }
            }
        }
        await churn.value
        tally.read { tally in
            #expect(tally.corrupted == 0)
            #expect(tally.otherErrors.isEmpty, "\(tally.otherErrors.prefix(3))")
            #expect(tally.ok + tally.cancelled == total, "every task completed")
            #expect(tally.callbacks.values.allSatisfy { $0 == 1 }, "exactly one completion per task")
            // Each task timed from its resume() to its completion, where they happen: timed
            // around this task's awaits, the run would include the cooperative pool's backlog
            // (tens of seconds while the suite runs), not the tasks' own time.
            #expect(tally.longestTask < 120, "no task hung: the slowest took \(tally.longestTask) s")
        }
        #expect(await blocked.urlError?.code == .timedOut, "the blocked request timed out")
        #expect(stall.isStillBlocked, "while its closure was still blocked")
    }

    private static func runOne(_ index: Int, sessions: [(URLSession, MultiTaskRecorder?)], bodies: [Data], tally: Tally) async {
        let bodyIndex = index % bodies.count
        let (session, recorder) = sessions[(index / 7) % sessions.count]
        var request = URLRequest(url: URL(string: "https://stress.test/r/\(bodyIndex)")!)
        request.timeoutInterval = 30
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let sent = Date()  // the task resumes below, in this slice
            let finish: @Sendable (Data?, (any Error)?) -> Void = { data, error in
                tally.record(index, data: data, error: error, expected: bodies[bodyIndex], took: Date().timeIntervalSince(sent))
                continuation.resume()
            }
            let task: URLSessionDataTask
            if let recorder {
                task = session.dataTask(with: request)
                recorder.register(task, completion: finish)
            } else {
                task = session.dataTask(with: request) { data, _, error in finish(data, error) }
            }
            task.resume()
            if index % 10 == 3 {
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...40_000))) { task.cancel() }
            }
        }
    }

    @Test func stubRemovedWhileItsRequestIsInFlightStillCompletes() async throws {
        let registry = StubRegistry()
        let slow = registry.stub(isPath("/slow")) { _ in StubResponse(data: Data("finished".utf8)).requestTime(0.3, responseTime: 0.1) }
        let log = EventLog()
        registry.onActivation { _, _, _ in log.append("active") }
        async let result = fetch("https://api.test/slow", from: registry)
        // Generous: the whole suite runs in parallel with this test.
        try await waitUntil(timeout: 120) { !log.events.isEmpty }
        #expect(!log.events.isEmpty, "the request reached its stub")
        #expect(registry.remove(slow))
        let finished = await result
        #expect(finished.body == "finished", "\(String(describing: finished.error))")
        #expect(await fetch("https://api.test/slow", from: registry).stubError != nil, "later requests see it gone")
    }
}
