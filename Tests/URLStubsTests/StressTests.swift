import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs

@Suite("Stress")
struct StressTests {
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        var ok = 0, cancelled = 0, corrupted = 0, otherErrors: [String] = [], callbacks: [Int: Int] = [:]
        func record(_ index: Int, _ update: (Tally) -> Void) {
            lock.lock(); callbacks[index, default: 0] += 1; update(self); lock.unlock()
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
                    index % 2 == 0 ? StubResponse(data: body) : StubResponse(data: body).responseTime(0.02)
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
                            tally.record(index) { tally in
                                if let error = error as? URLError, error.code == .cancelled {
                                    tally.cancelled += 1
                                } else if let error {
                                    tally.otherErrors.append("\(error)")
                                } else if data == bodies[bodyIndex] {
                                    tally.ok += 1
                                } else {
                                    tally.corrupted += 1
                                }
                            }
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
