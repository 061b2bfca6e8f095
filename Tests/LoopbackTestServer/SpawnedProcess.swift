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
/// with `posix_spawn`, which closes every descriptor above 2 itself (glibc 2.34's
/// `posix_spawn_file_actions_addclosefrom_np`), with no signal blocked or ignored whatever the
/// starting thread's mask. With an older glibc, and on macOS, it is `Process`.
///
/// Contract: a signal is sent only while the child is this object's (running, or ended and not
/// yet reaped), so it never reaches another process that reused the ID.
public final class SpawnedProcess: @unchecked Sendable {
    // @unchecked: `exitStatus` is guarded by `lock`; `child` never changes.
    /// Where the child's standard output and error go.
    public enum Output {
        /// Nowhere (`/dev/null`).
        case discarded
        /// Both into this pipe's write end; the parent reads its read end.
        case pipe(Pipe)
        /// Standard output into this pipe; standard error stays this process's.
        case standardOutput(Pipe)
    }

    private enum Child {
        case spawned(pid_t)
        case process(Process)
    }

    private let child: Child
    private let lock = NSLock()
    /// Set once the spawned child is reaped.
    private var exitStatus: Int32?

    /// The child's process ID.
    public var processIdentifier: Int32 {
        switch child {
        case .spawned(let pid): return pid
        case .process(let process): return process.processIdentifier
        }
    }

    /// Starts `executable` with exactly `arguments` and `environment`.
    /// - Parameters:
    ///   - input: A pipe whose read end becomes the child's standard input; the parent keeps
    ///     the write end. `nil`: the child reads `/dev/null`.
    ///   - output: Where standard output and error go.
    public init(executable: URL, arguments: [String], environment: [String: String], input: Pipe? = nil, output: Output) throws {
        #if os(Linux)
        if let pid = try Self.spawn(executable, arguments, environment, input: input, output: output) {
            child = .spawned(pid)
            // The child holds its own copies; the parent's would keep the pipes open for ever.
            try? input?.fileHandleForReading.close()
            switch output {
            case .discarded: break
            case .pipe(let pipe), .standardOutput(let pipe): try? pipe.fileHandleForWriting.close()
            }
            return
        }
        #endif
        child = .process(try Self.run(executable, arguments, environment, input: input, output: output))
    }

    /// Whether the child has not ended yet (does not block).
    public var isRunning: Bool {
        switch child {
        case .process(let process):
            return process.isRunning
        case .spawned:
            lock.lock()
            defer { lock.unlock() }
            return reapLocked(blocking: false) == nil
        }
    }

    /// Sends SIGTERM (nothing when the child has ended).
    public func terminate() { signal(SIGTERM) }

    /// Sends SIGKILL, like a crash (nothing when the child has ended).
    public func killNow() { signal(SIGKILL) }

    /// Sends SIGSTOP and returns once the child has stopped where it is, as an app paused in
    /// the debugger is (at once when the child has ended).
    ///
    /// `kill` returns before the child stops: the signal stops the process only once one of
    /// its threads runs and takes it, and until then its other threads go on (under load, for
    /// milliseconds to seconds). A test that talked to the child right after `kill` would be
    /// answered by a child it believed stopped.
    public func stop() {
        signal(SIGSTOP)
        let pid = processIdentifier
        let ended: Bool = {
            lock.lock(); defer { lock.unlock() }
            return exitStatus != nil
        }()
        guard !ended else { return }
        // Not reaped (WNOWAIT): returns when the child is stopped, or has ended meanwhile.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WSTOPPED | WEXITED | WNOWAIT) < 0, errno == EINTR {}
    }

    /// Sends SIGCONT: a stopped child goes on (nothing when the child has ended).
    public func continueRunning() { signal(SIGCONT) }

    /// Blocks until the child ends; its exit code, or the signal that ended it (as `Process`'s
    /// `terminationStatus`). Call it off the cooperative pool.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        switch child {
        case .process(let process):
            process.waitUntilExit()
            return process.terminationStatus
        case .spawned(let pid):
            #if os(Linux)
            // Waits for the end without reaping (the ID stays this child's), then reaps under
            // the lock, so that a signal sent meanwhile still reaches this child.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
            #endif
            lock.lock()
            defer { lock.unlock() }
            return reapLocked(blocking: true) ?? -1
        }
    }

    private func signal(_ number: Int32) {
        switch child {
        case .process(let process):
            guard process.isRunning else { return }
            send(number, to: process.processIdentifier)
        case .spawned(let pid):
            lock.lock()
            defer { lock.unlock() }
            if reapLocked(blocking: false) == nil { send(number, to: pid) }
        }
    }

    /// The exit status once the spawned child has ended (reaping it), `nil` while it runs.
    private func reapLocked(blocking: Bool) -> Int32? {
        if let exitStatus { return exitStatus }
        guard case .spawned(let pid) = child else { return nil }
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        } while result < 0 && errno == EINTR
        if result == pid {
            let signal = status & 0x7f
            exitStatus = signal == 0 ? (status >> 8) & 0xff : signal
        } else if result < 0 {
            exitStatus = -1
        }
        return exitStatus
    }

    private static func run(_ executable: URL, _ arguments: [String], _ environment: [String: String], input: Pipe?, output: Output) throws -> Process
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let input {
            process.standardInput = input
        } else {
            process.standardInput = FileHandle.nullDevice
        }
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
        return process
    }

    #if os(Linux)
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc 2.34 and later; not in the headers Swift imports, so looked up by name.
    private static let addCloseFrom: CloseFrom? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    /// The child's ID, or `nil` when this glibc cannot close the descriptors for the child.
    private static func spawn(
        _ executable: URL, _ arguments: [String], _ environment: [String: String], input: Pipe?, output: Output
    ) throws -> pid_t? {
        guard let addCloseFrom else { return nil }
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
        // The starting thread may be a dispatch worker, which blocks most signals: the child
        // starts with none blocked and every handler at its default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        sigdelset(&everySignal, SIGKILL)
        sigdelset(&everySignal, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable.path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv + [nil], envp + [nil])
        guard result == 0 else { throw SpawnError("posix_spawn \(executable.path): \(String(cString: strerror(result)))") }
        return pid
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
