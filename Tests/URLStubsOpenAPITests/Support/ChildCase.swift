import Foundation
import LoopbackTestServer
import Testing

/// Work that could crash the process or run for minutes if a limit regressed (a stack overflow,
/// a huge allocation), run in a child process: this test binary, running only
/// ``ChildCaseRunner/childRunsOneCase()``, which runs the named case on a thread with the given
/// stack size and prints what it returned.
enum ChildCase {
    static let variable = "URLSTUBS_OPENAPI_CHILD_CASE"
    static let stackVariable = "URLSTUBS_OPENAPI_CHILD_STACK"
    static let marker = "child case result: "

    static let argumentVariable = "URLSTUBS_OPENAPI_CHILD_ARGUMENT"

    /// The test binary: on Linux `swift test` runs the `.xctest` executable itself. On macOS
    /// the runner is another process, and child cases skip.
    static let binary: URL? = {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0])
        return binary.pathExtension == "xctest" && FileManager.default.isExecutableFile(atPath: binary.path) ? binary : nil
    }()

    /// How the child ended: its status (`nil` when killed at the time limit) and the case's
    /// result (`nil` when it printed none: it crashed).
    struct Outcome: Sendable, CustomStringConvertible {
        let status: Int32?
        let result: String?
        let output: String
        var description: String { "status \(status.map(String.init) ?? "killed"), result \(result ?? "none"); output: \(output.suffix(2_000))" }
    }

    /// Runs case `name` of ``ChildCases/all`` with `argument` in a child, on a thread of
    /// `stackSize` bytes, killed after `timeLimit` seconds.
    static func run(_ name: String, argument: String = "", stackSize: Int, timeLimit: Double = 120) async throws -> Outcome {
        let binary = try #require(binary)
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = name
        environment[stackVariable] = String(stackSize)
        environment[argumentVariable] = argument
        let output = Pipe()
        let process = try SpawnedProcess(
            executable: binary, arguments: ["--testing-library", "swift-testing", "--filter", "childRunsOneCase"],
            environment: environment, output: .pipe(output))
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let deadline = DispatchTime.now() + timeLimit
                let killer = DispatchWorkItem { process.killNow() }
                DispatchQueue.global().asyncAfter(deadline: deadline, execute: killer)
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(output.fileHandleForReading.fileDescriptor, $0.baseAddress, $0.count) }
                    if count > 0 {
                        data.append(contentsOf: buffer[0..<count])
                    } else if count < 0, errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
                let status = process.waitUntilExit()
                killer.cancel()
                let text = String(decoding: data, as: UTF8.self)
                let result = text.components(separatedBy: "\n").first { $0.hasPrefix(marker) }.map { String($0.dropFirst(marker.count)) }
                let timedOut = DispatchTime.now() >= deadline
                continuation.resume(returning: Outcome(status: timedOut ? nil : status, result: result, output: text))
            }
            thread.start()
        }
    }
}

@Suite struct ChildCaseRunner {
    /// Runs in the child only: the case named in its environment, on a thread of the stack
    /// size given.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[ChildCase.variable] != nil))
    func childRunsOneCase() {
        let environment = ProcessInfo.processInfo.environment
        let name = environment[ChildCase.variable]!
        let argument = environment[ChildCase.argumentVariable] ?? ""
        guard let work = ChildCases.all[name] else {
            print(ChildCase.marker + "no case \(name)")
            return
        }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = work(argument)
            let line = ChildCase.marker + result.replacingOccurrences(of: "\n", with: " ") + "\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            done.signal()
        }
        thread.stackSize = Int(environment[ChildCase.stackVariable] ?? "") ?? (8 << 20)
        thread.start()
        done.wait()
    }
}
