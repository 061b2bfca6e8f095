import Foundation
import LoopbackTestServer
import Testing
@testable import TestSupport

#if os(Linux) || os(macOS)
@Suite("The tests' child processes")
struct SpawnedProcessTests {
    /// Started from a dispatch worker, which blocks most signals: the child must still end on
    /// SIGTERM, and report it as `Process` would.
    @Test func aChildStartedFromADispatchThreadEndsOnTerminate() async throws {
        let (status, runningAfter) = try await onItsOwnDispatchThread { () throws -> (Int32, Bool) in
            let child = try SpawnedProcess(
                executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"], environment: [:], output: .discarded)
            #expect(child.isRunning)
            let start = Date()
            child.terminate()
            let status = child.waitUntilExit()
            #expect(Date().timeIntervalSince(start) < 10, "SIGTERM took \(Date().timeIntervalSince(start)) s")
            child.terminate()  // ended and reaped: nothing is sent
            return (status, child.isRunning)
        }
        #expect(status == SIGTERM)
        #expect(!runningAfter)
    }

    /// The output pipe ends when the child does (the parent keeps no copy of its write end),
    /// and the exit code comes back.
    @Test func outputEndsWithTheChildAndItsExitCodeComesBack() async throws {
        let (output, status) = try await onItsOwnDispatchThread { () throws -> (String, Int32) in
            let pipe = Pipe()
            let child = try SpawnedProcess(
                executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo out; echo err >&2; exit 3"], environment: [:],
                output: .pipe(pipe))
            var data = Data()
            while let chunk = nextChunk(of: pipe.fileHandleForReading) { data.append(chunk) }
            return (String(decoding: data, as: UTF8.self), child.waitUntilExit())
        }
        #expect(output.contains("out") && output.contains("err"), "\(output)")
        #expect(status == 3)
    }

    #if os(Linux)
    /// `stop()` returns once the child is stopped, not when SIGSTOP is sent: until then a child
    /// goes on running (and a test talking to it would be answered), for milliseconds to
    /// seconds under load.
    @Test func stopReturnsOnceTheChildHasStopped() async throws {
        let notStopped = try await onItsOwnDispatchThread { () throws -> [String] in
            let child = try SpawnedProcess(
                executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "while :; do :; done"], environment: [:],
                output: .discarded)
            defer {
                child.killNow()
                child.waitUntilExit()
            }
            var states: [String] = []
            for _ in 0..<100 {
                child.stop()
                let state = Self.state(of: child.processIdentifier)
                if state != "T" { states.append(state) }
                child.continueRunning()
                let deadline = Date().addingTimeInterval(10)
                while Self.state(of: child.processIdentifier) == "T", Date() < deadline { usleep(100) }
            }
            return states
        }
        #expect(notStopped.isEmpty, "states right after stop(), other than T (stopped): \(notStopped)")
    }

    /// The state letter of `/proc/<pid>/stat`: `R` running, `S` sleeping, `T` stopped.
    private static func state(of pid: Int32) -> String {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.components(separatedBy: ") ").last.map { String($0.prefix(1)) } ?? "?"
    }
    #endif
}

/// Runs `work` on a global dispatch queue's thread (whose signal mask blocks most signals),
/// without holding a cooperative thread while it waits.
private func onItsOwnDispatchThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try work() })
        }
    }
}
#endif
