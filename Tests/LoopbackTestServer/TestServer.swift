// LoopbackTestServer: what the tests run outside their own process, shared by every test target.
//
// - `TestServer.swift`: `TestServer.shared`, the real HTTP server of `Tests/Server/stub_server.py`
//   on a free 127.0.0.1 port, for passthrough and recording tests (never a mock of the network).
// - `SpawnedProcess.swift`: a child process (the server, the probe apps, the test binary), started
//   with `posix_spawn` on Linux; its header says why not `Process` there.
// - `SmallStack.swift`: `runTestInChild` runs one test of this binary in a child process with a
//   time limit, for whatever may crash or hang; `onASmallStack` runs work on a 512 KB stack, as
//   Apple platforms give a secondary thread, inside such a child.
//
// Nothing here blocks a thread of Swift's cooperative pool or of dispatch's worker pool for
// long: a child is awaited on a thread of its own, and the time limit is an `asyncAfter` timer
// (see the rule in `Tests/TestSupport/TestSupport.swift`). Two waits are short or owned: the
// first use of `TestServer.shared` waits for the server to print its port (once per process),
// and `onASmallStack` blocks its caller, which is the child's own test.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A child process: Process exists on macOS and Linux only (not on iOS, tvOS or visionOS).
#if os(macOS) || os(Linux)

/// The real HTTP server of `Tests/Server/stub_server.py`, started once per test process on a
/// free loopback port and stopped when the process ends (the server exits when its standard
/// input closes).
public final class TestServer: @unchecked Sendable {
    /// The one server of the test process.
    public static let shared = TestServer()

    /// The loopback port it listens on.
    public let port: Int
    private let process: SpawnedProcess
    private let input: Pipe

    private init() {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Server/stub_server.py")
        input = Pipe()
        let output = Pipe()
        do {
            process = try SpawnedProcess(
                executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", script.path],
                environment: ProcessInfo.processInfo.environment, input: input, output: .standardOutput(output))
        } catch {
            fatalError("the test server could not start: python3 \(script.path): \(error)")
        }
        // The first line is the port. A read interrupted by a signal (another test's child
        // process ending) is tried again.
        var line = Data()
        reading: while true {
            let byte: Data?
            do {
                byte = try output.fileHandleForReading.read(upToCount: 1)
            } catch let error as NSError where "\(error)".contains("Interrupted system call") {
                continue
            } catch {
                break
            }
            guard let first = byte?.first, first != UInt8(ascii: "\n") else { break reading }
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            fatalError("the test server did not print its port")
        }
        self.port = port
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// How many requests the server has seen for `path` carrying `?tag=<tag>`.
    public func count(_ path: String, tag: String) async throws -> Int {
        let (data, _) = try await plainSession.data(from: url("/__count?path=\(path)&tag=\(tag)"))
        guard case .object(let members) = try URLStubs.JSONValue(data: data), case .integer(let count)? = members["count"] else { return -1 }
        return count
    }

    /// A session with no stubs at all, to talk to the server directly.
    public let plainSession = URLSession(configuration: .ephemeral)
}

import URLStubs
#endif
