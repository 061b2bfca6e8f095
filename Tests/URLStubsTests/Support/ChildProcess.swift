import Foundation

/// What a child process printed (stdout and stderr together) and how it ended.
struct ChildProcessResult: Sendable {
    let status: Int32
    let output: String
}

/// Runs `executable` to its end without holding a thread of Swift's cooperative pool, which has
/// one thread per core: a test blocked in `waitUntilExit()` for a child's whole run (seconds
/// under a sanitizer) stalls every other test. The output is read, and the exit awaited, on a
/// thread of its own.
func runChildProcess(_ executable: URL, arguments: [String], environment: [String: String]) async throws -> ChildProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    return await withCheckedContinuation { continuation in
        Thread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            continuation.resume(returning: ChildProcessResult(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self)))
        }.start()
    }
}
