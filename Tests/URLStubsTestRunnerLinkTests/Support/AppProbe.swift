import Foundation
import LoopbackTestServer
@testable import TestSupport

/// `urlstubs-app-probe` running as a child process: an app launched by a test, whose
/// output lines the test awaits while it runs and whose stdin takes its commands.
///
/// Its output is read on a thread of its own; awaiting a line holds no thread of the
/// cooperative pool.
final class AppProbe: @unchecked Sendable {
    /// The probe executable, built next to the tests.
    static let executable = builtExecutable("urlstubs-app-probe")

    private let process: SpawnedProcess
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var lines: [String] = []
    private var ended = false
    private var waiters: [(prefix: String, continuation: CheckedContinuation<String, any Error>)] = []
    private let exited = DispatchSemaphore(value: 0)

    /// Starts the probe with this process's environment plus `environment`, off the
    /// cooperative pool (starting a process takes a fork and an exec).
    static func start(environment: [String: String]) async throws -> AppProbe {
        try await onItsOwnThread { try AppProbe(environment: environment) }
    }

    private init(environment: [String: String]) throws {
        guard let executable = Self.executable else { throw ChildTestUnavailable() }
        process = try SpawnedProcess(
            executable: executable, arguments: [fixturesFolder.path],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, input: input, output: .pipe(output))
        let thread = Thread { [self] in readOutput() }
        thread.start()
    }

    deinit {
        // Reaped on a thread of its own, so that no ended probe is left a zombie.
        let process = process
        process.terminate()
        Thread { process.waitUntilExit() }.start()
    }

    /// Writes one command line to the probe's stdin.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The first line the probe printed that starts with `prefix`, waiting for it if needed.
    func line(startingWith prefix: String, timeout: TimeInterval = 30) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) {
                lock.unlock()
                return continuation.resume(returning: line)
            }
            if ended {
                let all = lines.joined(separator: "\n")
                lock.unlock()
                return continuation.resume(throwing: ProbeError("the probe ended without printing \"\(prefix)…\"; it printed:\n\(all)"))
            }
            waiters.append((prefix, continuation))
            lock.unlock()
            // Weak: a pending timeout must not keep an ended probe (its process, pipes and
            // lines) alive until it fires.
            probeTimeouts.asyncAfter(deadline: .now() + timeout) { [weak self] in
                guard let self else { return }
                lock.lock()
                let index = waiters.firstIndex { $0.prefix == prefix }
                let waiter = index.map { waiters.remove(at: $0) }
                let all = lines.joined(separator: "\n")
                lock.unlock()
                waiter?.continuation.resume(throwing: ProbeError("no line \"\(prefix)…\" within \(timeout) s; the probe printed:\n\(all)"))
            }
        }
    }

    /// Everything printed so far.
    var printed: String {
        lock.lock(); defer { lock.unlock() }
        return lines.joined(separator: "\n")
    }

    /// Tells the probe to quit, and awaits its exit (off the cooperative pool).
    @discardableResult
    func quit() async throws -> Int32 {
        send("quit")
        try? input.fileHandleForWriting.close()
        return try await onItsOwnThread { [self] in
            if exited.wait(timeout: .now() + 30) == .timedOut { process.killNow() }
            return process.waitUntilExit()
        }
    }

    /// Ends the probe at once, like a crash (nothing when it has already ended).
    func kill() {
        process.killNow()
    }

    /// The probe's process ID, to read what the system shows of it (`/proc/<pid>/environ`).
    var processIdentifier: Int32 { process.processIdentifier }

    /// Stops the probe where it is, as the debugger pauses an app (SIGSTOP), and returns once
    /// it has stopped.
    func stop() {
        process.stop()
    }

    /// Lets a stopped probe go on (SIGCONT).
    func continueRunning() {
        process.continueRunning()
    }

    /// Awaits the end of a probe that was killed (off the cooperative pool), so that it is
    /// reaped, not left a zombie.
    @discardableResult
    func waitForExit() async throws -> Int32 {
        try await onItsOwnThread { [self] in
            process.waitUntilExit()
        }
    }

    private func readOutput() {
        let handle = output.fileHandleForReading
        var buffer = Data()
        while let chunk = nextChunk(of: handle) {
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                deliver(line)
            }
        }
        lock.lock()
        ended = true
        let pending = waiters
        waiters.removeAll()
        let all = lines.joined(separator: "\n")
        lock.unlock()
        exited.signal()
        for waiter in pending {
            waiter.continuation.resume(throwing: ProbeError("the probe ended without printing \"\(waiter.prefix)…\"; it printed:\n\(all)"))
        }
    }

    private func deliver(_ line: String) {
        lock.lock()
        lines.append(line)
        var ready: [CheckedContinuation<String, any Error>] = []
        waiters.removeAll { waiter in
            guard line.hasPrefix(waiter.prefix) else { return false }
            ready.append(waiter.continuation)
            return true
        }
        lock.unlock()
        for continuation in ready { continuation.resume(returning: line) }
    }
}

/// The probe did not print what a test waited for.
struct ProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where the probe's waits time out: a queue of its own, not the global queue other tests keep busy.
private let probeTimeouts = DispatchQueue(label: "URLStubsTests.AppProbe.timeouts")
