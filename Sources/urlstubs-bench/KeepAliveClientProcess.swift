#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LoopbackSockets

// A child process: Process exists on macOS and Linux only.
#if os(macOS) || os(Linux)

/// A keep-alive HTTP/1.1 client in another process (python3), sending the fields real
/// clients send, so that this process's CPU is the server's alone. The parent writes a count
/// on its stdin; the child sends that many requests, reads every answer whole, and writes
/// `done`.
final class KeepAliveClientProcess {
    // posix_spawn, not Process: under valgrind (the profile) Foundation's Process fails with
    // EBADF on the descriptors valgrind keeps for itself.
    private var child: pid_t = 0
    private let input: FileHandle
    private let output: FileHandle

    private static let script = #"""
        import socket, sys
        port = int(sys.argv[1])
        path = sys.argv[2]
        connection = socket.create_connection(("127.0.0.1", port))
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        request = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: keep-alive\r\n"
                   "User-Agent: urlstubs-bench/1 CFNetwork/1.0 Darwin/24.0.0\r\nAccept: */*\r\n"
                   "Accept-Language: en-GB,en;q=0.9\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n"
                   % (path, port)).encode("ascii")
        pending = b""
        def get():
            global pending
            connection.sendall(request)
            data = pending
            while b"\r\n\r\n" not in data:
                chunk = connection.recv(65536)
                if not chunk:
                    sys.exit("the connection ended before an answer's head")
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                sys.exit("the answer is not 200: %r" % head)
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            while len(rest) < length:
                chunk = connection.recv(65536)
                if not chunk:
                    sys.exit("the connection ended inside an answer's body")
                rest += chunk
            pending = rest[length:]
        for line in sys.stdin:
            for _ in range(int(line)):
                get()
            print("done", flush=True)
        """#

    /// Connects to `127.0.0.1:port` and waits for counts.
    init(port: UInt16, path: String) throws {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw BenchError("no pipe for the keep-alive client") }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for descriptor in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let arguments = ["/usr/bin/env", "python3", "-c", Self.script, String(port), path]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&child, "/usr/bin/env", &actions, nil, &argv, environ)
        SystemSocket.close(toChild[0])
        SystemSocket.close(fromChild[1])
        input = FileHandle(fileDescriptor: toChild[1], closeOnDealloc: true)
        output = FileHandle(fileDescriptor: fromChild[0], closeOnDealloc: true)
        guard status == 0 else { throw BenchError("could not start python3 for the keep-alive client: \(String(cString: strerror(status)))") }
    }

    /// Sends `count` requests, one after another on one connection; returns when the last
    /// answer has been read whole.
    func run(_ count: Int) throws {
        input.write(Data("\(count)\n".utf8))
        var line = Data()
        while true {
            let byte = output.readData(ofLength: 1)
            if byte.isEmpty { throw BenchError("the keep-alive client (python3) stopped; see its message above") }
            if byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard line == Data("done".utf8) else { throw BenchError("the keep-alive client said \(String(decoding: line, as: UTF8.self))") }
    }

    /// Closes its stdin (the child ends), then waits for it, up to 2 s.
    func stop() {
        guard child > 0 else { return }
        try? input.close()
        var status: Int32 = 0
        let deadline = now() + 2
        while waitpid(child, &status, WNOHANG) == 0 {
            if now() > deadline {
                kill(child, SIGKILL)
                _ = waitpid(child, &status, 0)
                break
            }
            usleep(10_000)
        }
        child = 0
    }

    deinit { stop() }
}

#endif
