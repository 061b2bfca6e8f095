#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LoopbackSockets

#if os(macOS) || os(Linux)

/// The floor of any keep-alive server: a thread per connection doing blocking `recv` and
/// `send`, answering each request head (CR LF CR LF) with fixed bytes. No parsing, matching,
/// journal, dispatch sources or timers: what a server's own CPU cannot go below.
final class PosixFloorServer: @unchecked Sendable {
    // @unchecked: `connections` is guarded by `lock`; the rest is set in init.
    let port: UInt16
    private let listener: Int32
    private let response: [UInt8]
    private let lock = NSLock()
    private var connections: [Int32] = []

    init(response: [UInt8]) throws {
        self.response = response
        (listener, port) = try listenOnLoopback()
        // Blocking accepts on a thread of its own.
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL, 0) & ~O_NONBLOCK)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    private func acceptLoop() {
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                if errno == EINTR { continue }
                return
            }
            var on: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            lock.lock()
            connections.append(descriptor)
            lock.unlock()
            let thread = Thread { [self] in serve(descriptor) }
            thread.start()
        }
    }

    private func serve(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let pattern: [UInt8] = [13, 10, 13, 10]
        var matched = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            for index in 0..<count {
                matched = buffer[index] == pattern[matched] ? matched + 1 : (buffer[index] == 13 ? 1 : 0)
                guard matched == 4 else { continue }
                matched = 0
                let sent = response.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
                if sent != response.count { return }
            }
        }
    }

    /// Shuts every socket down: the threads' blocking calls return and the threads end.
    func stop() {
        lock.lock()
        let open = connections
        connections = []
        lock.unlock()
        for descriptor in open { SystemSocket.shutdown(descriptor, .both) }
        SystemSocket.shutdown(listener, .both)
    }
}

#endif
