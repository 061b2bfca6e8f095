import Foundation

/// Resident memory from /proc/self/status (Linux), in kB.
enum Memory {
    static func statusValue(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let digits = line.dropFirst(key.count + 1).filter(\.isNumber)
            return Int(digits)
        }
        return nil
    }

    static var residentKB: Int? { statusValue("VmRSS") }
    static var peakKB: Int? { statusValue("VmHWM") }

    /// Resets VmHWM to the current RSS (Linux ≥ 4.0: write "5" to clear_refs).
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }
}

/// Samples VmRSS on a background thread, as a cross-check of VmHWM (and the fallback when
/// the peak cannot be reset).
final class RSSSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var maximum = 0
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    init(intervalMilliseconds: Int = 5) {
        let thread = Thread { [self] in
            while true {
                let rss = Memory.residentKB ?? 0
                lock.lock()
                maximum = max(maximum, rss)
                let go = running
                lock.unlock()
                if !go { break }
                usleep(useconds_t(intervalMilliseconds * 1000))
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops sampling; returns the largest VmRSS seen, in kB.
    func stop() -> Int {
        lock.lock(); running = false; lock.unlock()
        finished.wait()
        lock.lock(); defer { lock.unlock() }
        return maximum
    }
}
