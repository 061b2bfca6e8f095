import Foundation
import Testing

/// An opt-in diagnostic, not a check: with `URLSTUBS_POOL_PROBE=FILE swift test`, a thread of
/// its own hands a small job to Swift's cooperative pool every 100 ms for 150 s and appends to
/// FILE each time the job waited more than 0.3 s for a thread, as `t=SECONDS wait=SECONDS`.
///
/// Swift Testing starts every test at once and the pool (one thread per core) runs its jobs
/// first in, first out, so a test's task resumes behind all the work queued before it; on 2
/// cores the wait reached 28 s at the start of a run. That is why time bounds in this suite
/// are read where the work ended (a completion handler, the registry's `afterFinish`, a thread
/// of the test's own), never after an `await` on the pool.
@Suite("Diagnostics: the cooperative pool's wait")
struct PoolWaitProbe {
    @Test func recordsHowLongTheCooperativePoolMakesAJobWait() async throws {
        guard let path = ProcessInfo.processInfo.environment["URLSTUBS_POOL_PROBE"] else { return }
        #expect(FileManager.default.createFile(atPath: path, contents: nil), "cannot write \(path)")
        guard let file = FileHandle(forWritingAtPath: path) else { return }
        let start = Date()
        let thread = Thread {
            while Date().timeIntervalSince(start) < 150 {
                let handed = Date()
                let ran = DispatchSemaphore(value: 0)
                Task.detached { ran.signal() }
                ran.wait()
                let wait = Date().timeIntervalSince(handed)
                if wait > 0.3 {
                    file.write(Data(String(format: "t=%.1f wait=%.2f\n", handed.timeIntervalSince(start), wait).utf8))
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            try? file.close()
        }
        thread.start()
    }
}
