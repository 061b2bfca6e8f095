import Foundation
import LoopbackTestServer
import Testing

#if os(Linux) || os(macOS)
/// Clients nobody here wrote, run as child processes with a time limit: `curl` and Python's
/// `http.client`.
enum ExternalClients {
    /// What a child printed (standard output and error together) and how it ended.
    struct Run {
        let status: Int32
        let output: String
    }

    /// The `curl` executable, or `nil` when it is not installed (the test then says so).
    static let curl: URL? = ["/usr/bin/curl", "/usr/local/bin/curl", "/opt/homebrew/bin/curl", "/bin/curl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }

    /// Runs `curl` with `arguments` (never through a proxy, silent but for errors).
    static func runCurl(_ arguments: [String], timeout: TimeInterval = 30) async throws -> Run {
        guard let curl else { throw ClientMissing(name: "curl") }
        return try await run(
            curl, ["--silent", "--show-error", "--noproxy", "*", "--max-time", String(Int(timeout))] + arguments, timeout: timeout + 5)
    }

    /// Runs a Python 3 script (its arguments after it).
    static func runPython(_ script: String, _ arguments: [String] = [], timeout: TimeInterval = 30) async throws -> Run {
        try await run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments, timeout: timeout)
    }

    /// Runs `executable`, killing it after `timeout` seconds.
    static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval) async throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = nil }
        let pipe = Pipe()
        let child = try SpawnedProcess(executable: executable, arguments: arguments, environment: environment, output: .pipe(pipe))
        return try await offThePool {
            let watchdog = DispatchWorkItem { child.killNow() }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            let status = child.waitUntilExit()
            watchdog.cancel()
            return Run(status: status, output: String(decoding: data, as: UTF8.self))
        }
    }

    struct ClientMissing: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) is not installed here: install it to run this test" }
    }

    /// `true` when curl is installed; else records why the test does nothing.
    static func curlIsInstalled() -> Bool {
        if curl != nil { return true }
        print("SKIPPED: curl is not installed on this machine; install curl to run this test")
        return false
    }
}
#endif
