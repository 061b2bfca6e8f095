import Foundation

// Readers must be safe on the stack of a secondary thread on Apple platforms: 512 KB. A reader
// that is not crashes the whole process there, so the tests read on such a thread inside a
// child process (the test binary itself, running one test), with a time limit.
#if os(macOS) || os(Linux)

/// The stack size of a secondary thread on Apple platforms.
public let smallStackSize = 512 * 1024

/// Runs `work` on a new thread with a 512 KB stack and returns its result; blocks until then.
public func onASmallStack<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) throws -> Value {
    let outcome = SmallStackOutcome<Value>()
    let thread = Thread { outcome.finish(Result { try work() }) }
    thread.stackSize = smallStackSize
    thread.start()
    return try outcome.wait().get()
}

private final class SmallStackOutcome<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is written once, before `done` is signalled, and read after.
    private var result: Result<Value, any Error>?
    private let done = DispatchSemaphore(value: 0)

    func finish(_ result: Result<Value, any Error>) {
        self.result = result
        done.signal()
    }

    func wait() -> Result<Value, any Error> {
        done.wait()
        return result!
    }
}

/// How a test run in a child process ended.
public struct ChildTestRun: Sendable {
    /// The exit code, or the number of the signal that ended the child.
    public let status: Int32
    /// Standard output and error together.
    public let output: String
    /// `true` when the child was still running at the time limit and was killed.
    public let timedOut: Bool
}

/// Runs the test `filter` of this test binary (the `.xctest` executable `swift test` runs on
/// Linux) in a child process, with `variable` set to `1` so that the test does its work
/// there, and ends the child after `timeLimit` seconds. `nil` where there is no such binary
/// (macOS runs tests through a helper).
public func runTestInChild(_ filter: String, variable: String, timeLimit: TimeInterval = 120) async throws -> ChildTestRun? {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0])
    guard binary.pathExtension == "xctest", FileManager.default.isExecutableFile(atPath: binary.path) else { return nil }
    var environment = ProcessInfo.processInfo.environment
    environment[variable] = "1"
    let pipe = Pipe()
    let process = try SpawnedProcess(
        executable: binary, arguments: ["--testing-library", "swift-testing", "--filter", filter], environment: environment,
        output: .pipe(pipe))
    return await withCheckedContinuation { continuation in
        let thread = Thread {
            let killed = KilledFlag()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) {
                if process.isRunning {
                    killed.set()
                    process.killNow()
                }
            }
            var data = Data()
            let handle = pipe.fileHandleForReading
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    data.append(contentsOf: buffer[0..<count])
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            let status = process.waitUntilExit()
            continuation.resume(returning: ChildTestRun(status: status, output: String(decoding: data, as: UTF8.self), timedOut: killed.isSet))
        }
        thread.start()
    }
}

private final class KilledFlag: @unchecked Sendable {
    // @unchecked: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
#endif
