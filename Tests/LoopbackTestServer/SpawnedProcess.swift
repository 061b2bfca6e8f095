import Foundation

// A child process: Process and posix_spawn exist on macOS and Linux only.
#if os(macOS) || os(Linux)

/// A child process the tests start: the test server, the probe apps, and the test binary run as
/// a child.
///
/// Why not `Process` on Linux: corelibs' `Process.run` lists `/proc/self/fd` to close every
/// descriptor in the child, and copies 256 bytes of each entry's name, reading past the end of
/// its directory buffer. Once the test process holds about 1,400 descriptors (parallel tests'
/// sockets), the last entry can sit at the very end of that buffer, and the read can cross into
/// an unmapped page: the whole test run ends with SIGSEGV. So on Linux the child is started
/// with `posix_spawn`, which closes every descriptor above 2 itself (glibc's
/// `posix_spawn_file_actions_addclosefrom_np`). Elsewhere it is `Process`, which has no such
/// scan.
public final class SpawnedProcess: @unchecked Sendable {
    // @unchecked: the exit status is guarded by `condition`.
    /// Where the child's standard output and error go.
    public enum Output {
        /// Nowhere (`/dev/null`).
        case discarded
        /// Both into this pipe's write end; the parent reads its read end.
        case pipe(Pipe)
        /// Standard output into this pipe; standard error stays this process's.
        case standardOutput(Pipe)
    }

    private let condition = NSCondition()
    private var exitStatus: Int32?
    private var isReaping = false
    #if os(Linux)
    /// The child's process ID.
    public let processIdentifier: pid_t
    #else
    private let process = Process()
    /// The child's process ID.
    public var processIdentifier: Int32 { process.processIdentifier }
    #endif

    /// Starts `executable` with exactly `arguments` and `environment`.
    /// - Parameters:
    ///   - input: A pipe whose read end becomes the child's standard input; the parent keeps
    ///     the write end. `nil`: the child reads `/dev/null`.
    ///   - output: Where standard output and error go.
    public init(executable: URL, arguments: [String], environment: [String: String], input: Pipe? = nil, output: Output) throws {
        #if os(Linux)
        processIdentifier = try Self.spawn(executable, arguments, environment, input: input, output: output)
        // The child holds its own copies; the parent's would keep the pipes open for ever.
        try? input?.fileHandleForReading.close()
        switch output {
        case .discarded: break
        case .pipe(let pipe), .standardOutput(let pipe): try? pipe.fileHandleForWriting.close()
        }
        #else
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input ?? FileHandle.nullDevice
        switch output {
        case .discarded:
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        case .pipe(let pipe):
            process.standardOutput = pipe
            process.standardError = pipe
        case .standardOutput(let pipe):
            process.standardOutput = pipe
        }
        try process.run()
        #endif
    }

    /// Whether the child has not ended yet (does not block).
    public var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        if exitStatus != nil { return false }
        #if os(Linux)
        if isReaping { return true }
        var status: Int32 = 0
        let result = waitpid(processIdentifier, &status, WNOHANG)
        if result == processIdentifier {
            exitStatus = Self.decode(status)
            return false
        }
        return result == 0
        #else
        return process.isRunning
        #endif
    }

    /// Sends SIGTERM (nothing when the child has ended).
    public func terminate() {
        guard isRunning else { return }
        send(SIGTERM, to: processIdentifier)
    }

    /// Sends SIGKILL, like a crash (nothing when the child has ended).
    public func killNow() {
        guard isRunning else { return }
        send(SIGKILL, to: processIdentifier)
    }

    /// Blocks until the child ends; its exit code, or the signal that ended it (as `Process`'s
    /// `terminationStatus`). Call it off the cooperative pool.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        #if os(Linux)
        condition.lock()
        while exitStatus == nil, isReaping { condition.wait() }
        if let exitStatus {
            condition.unlock()
            return exitStatus
        }
        isReaping = true
        condition.unlock()
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(processIdentifier, &status, 0)
        } while result < 0 && errno == EINTR
        condition.lock()
        exitStatus = result == processIdentifier ? Self.decode(status) : -1
        isReaping = false
        condition.broadcast()
        let ended = exitStatus!
        condition.unlock()
        return ended
        #else
        process.waitUntilExit()
        return process.terminationStatus
        #endif
    }

    #if os(Linux)
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc 2.34 and later; not in the headers Swift imports, so looked up by name.
    private static let addCloseFrom: CloseFrom? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    private static func spawn(
        _ executable: URL, _ arguments: [String], _ environment: [String: String], input: Pipe?, output: Output
    ) throws -> pid_t {
        guard let addCloseFrom else {
            throw SpawnError("posix_spawn_file_actions_addclosefrom_np is missing: glibc 2.34 or later is needed")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input.fileHandleForReading.fileDescriptor, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        switch output {
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .pipe(let pipe):
            posix_spawn_file_actions_adddup2(&actions, pipe.fileHandleForWriting.fileDescriptor, 1)
            posix_spawn_file_actions_adddup2(&actions, pipe.fileHandleForWriting.fileDescriptor, 2)
        case .standardOutput(let pipe):
            posix_spawn_file_actions_adddup2(&actions, pipe.fileHandleForWriting.fileDescriptor, 1)
        }
        guard addCloseFrom(&actions, 3) == 0 else { throw SpawnError("posix_spawn_file_actions_addclosefrom_np failed") }
        let argv = ([executable.path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, nil, argv + [nil], envp + [nil])
        guard result == 0 else { throw SpawnError("posix_spawn \(executable.path): \(String(cString: strerror(result)))") }
        return pid
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }
    #endif
}

private func send(_ signal: Int32, to process: Int32) {
    #if canImport(Glibc)
    _ = Glibc.kill(process, signal)
    #else
    _ = Darwin.kill(process, signal)
    #endif
}

/// A child process could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    init(_ description: String) { self.description = description }
}
#endif
