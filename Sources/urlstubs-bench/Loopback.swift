import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A child process: Process exists on macOS and Linux only.
#if os(macOS) || os(Linux)

/// A real HTTP/1.1 server on 127.0.0.1 (Python's http.server with keep-alive, so the
/// comparison is with a warm connection, the best case of "run your own mock server").
final class LoopbackServer {
    private let process = Process()
    private let input = Pipe()
    let port: Int

    private static let script = #"""
        import http.server, os, signal, sys, threading
        # Spawned from a dispatch thread, the server inherits a mask that blocks SIGTERM: unblock it.
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        # Exit when the benchmark goes away, even if it could not stop us (stdin reaches EOF).
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        BODY = bytes((i * 31 + 7) & 0xFF for i in range(1024))
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True
            def do_GET(self):
                body, kind = BODY, "application/octet-stream"
                # /text/N: N bytes of text (the recording benchmark's bodies).
                if self.path.startswith("/text/"):
                    size = int(self.path.split("/")[2].split("?")[0])
                    body, kind = (b"abcdefghijklmnopqrstuvwxyz" * (size // 26 + 1))[:size], "text/plain"
                head = ("HTTP/1.1 200 OK\r\nContent-Type: %s\r\n"
                        "Content-Length: %d\r\n\r\n" % (kind, len(body))).encode("ascii")
                self.wfile.write(head + body)
            def log_message(self, *args):
                pass
        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        """#

    init(directory: URL) throws {
        let scriptURL = directory.appendingPathComponent("loopback_server.py")
        try Data(Self.script.utf8).write(to: scriptURL)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        // The first line is the port the server bound (port 0 = any free port).
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw BenchError("the loopback server did not start (python3 needed)")
        }
        self.port = port
    }

    /// SIGTERM, then SIGKILL if the server is still there after 2 s. Polls instead of
    /// `waitUntilExit`, which spins a run loop on corelibs.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.terminate()
        let deadline = now() + 2
        while process.isRunning, now() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { stop() }
}

func loopbackScenario(server: LoopbackServer) -> RequestScenario {
    // The same configuration as the stubbed sessions, with the system's own protocols and no
    // URL cache (a test wants the server's answer, and the cache lookup costs a thread hop).
    let configuration = sessionConfiguration(protocolClasses: URLSessionConfiguration.ephemeral.protocolClasses)
    configuration.urlCache = nil
    let url = URL(string: "http://127.0.0.1:\(server.port)/v1/items/42")!
    return RequestScenario(
        name: "loopback", session: URLSession(configuration: configuration),
        request: URLRequest(url: url))
}
#endif
