import Foundation
import LoopbackTestServer

/// What a child process printed (stdout and stderr together) and how it ended.
struct ChildProcessResult: Sendable {
    let status: Int32
    let output: String
}

/// Runs `executable` to its end without holding a thread of Swift's cooperative pool, which has
/// one thread per core: a test blocked in `waitUntilExit()` for a child's whole run (seconds
/// under a sanitizer) stalls every other test. The output is read, and the exit awaited,
/// ``onItsOwnThread(_:)``.
/// A child still running after `timeLimit` seconds is killed (a test that may hang).
func runChildProcess(
    _ executable: URL, arguments: [String], environment: [String: String], timeLimit: TimeInterval? = nil
) async throws -> ChildProcessResult {
    let output = Pipe()
    let process = try SpawnedProcess(executable: executable, arguments: arguments, environment: environment, output: .pipe(output))
    if let timeLimit { DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) { process.killNow() } }
    return try await onItsOwnThread {
        var data = Data()
        while let chunk = nextChunk(of: output.fileHandleForReading) { data.append(chunk) }
        let status = process.waitUntilExit()
        return ChildProcessResult(status: status, output: String(decoding: data, as: UTF8.self))
    }
}

/// The test binary running this suite: on Linux `swift test` runs the `.xctest` executable
/// itself. On macOS the runner is Xcode's or SwiftPM's helper, and child-run tests skip.
let testBinary: URL? = {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0])
    return binary.pathExtension == "xctest" && FileManager.default.isExecutableFile(atPath: binary.path) ? binary : nil
}()

/// Runs one test of this binary in a child process, as a user's `swift test --filter` would:
/// with this process's environment minus `CI` and `URLSTUBS_RECORD` (the run's own settings
/// must not leak into the child's), plus `environment`.
/// - Parameters:
///   - filter: The test to run (`childFetchesThroughItsCassette`, or XCTest's
///     `Module.Class/testMethod`).
///   - library: `swift-testing` or `xctest`.
func runTestInChildProcess(
    _ filter: String, library: String = "swift-testing", environment: [String: String], timeLimit: TimeInterval? = nil
) async throws -> ChildProcessResult {
    guard let testBinary else { throw ChildTestUnavailable() }
    var inherited = ProcessInfo.processInfo.environment
    inherited["CI"] = nil
    inherited["URLSTUBS_RECORD"] = nil
    let arguments = library == "xctest" ? ["--testing-library", "xctest", filter] : ["--testing-library", library, "--filter", filter]
    return try await runChildProcess(
        testBinary, arguments: arguments, environment: inherited.merging(environment) { $1 }, timeLimit: timeLimit)
}

/// Thrown where no test binary can be run as a child (see ``testBinary``).
struct ChildTestUnavailable: Error, CustomStringConvertible {
    var description: String { "the child is the .xctest binary swift test runs on Linux" }
}

/// The next bytes of a pipe as soon as there are any, or `nil` at its end. A read interrupted
/// by a signal (a child process ending) is tried again, where corelibs' `availableData` and
/// `readDataToEndOfFile()` stop the whole process on `EINTR`.
func nextChunk(of handle: FileHandle) -> Data? {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count > 0 { return Data(buffer[0..<count]) }
        if count < 0, errno == EINTR { continue }
        return nil
    }
}
