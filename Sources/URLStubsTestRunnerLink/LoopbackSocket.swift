// The one file that calls the platform's socket API, for the test-runner link: POSIX calls that
// Glibc and Darwin both have (socket, bind, listen, getsockname, accept, connect, poll, recv,
// send, setsockopt, shutdown, close), on 127.0.0.1 only.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LoopbackSockets
import URLStubs

/// A failed socket call: which call, and the system's reason.
package struct LoopbackSocketError: Error, Sendable, CustomStringConvertible {
    /// `connect to 127.0.0.1:5000 failed: Connection refused`.
    package let description: String
    /// `true` when the peer closed the connection (a read found its end).
    package let isClosed: Bool
    /// `true` when the call waited its whole timeout for the other side.
    package let isTimeout: Bool

    init(_ call: String, code: Int32 = errno) {
        description = "\(call) failed: \(String(cString: strerror(code)))"
        isClosed = false
        isTimeout = false
    }

    init(description: String, isClosed: Bool, isTimeout: Bool = false) {
        self.description = description
        self.isClosed = isClosed
        self.isTimeout = isTimeout
    }
}

/// A TCP socket bound to or connected to 127.0.0.1.
///
/// One thread reads (``read(count:timeout:)``) and closes; any thread may write (writes are
/// serialized) or ``shutdown()`` it to wake the reader. The descriptor is closed once, under
/// the lock writers take, so no write reaches a descriptor number the system gave to another
/// file.
package final class LoopbackSocket: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var isClosed = false

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    deinit { close() }

    /// Listens on 127.0.0.1 on a port the system picks (no clash between parallel runs).
    /// - Parameter backlog: How many connections the system queues until they are accepted;
    ///   the system's maximum by default, so a burst of connections (hostile or not) does not
    ///   leave an app's connection waiting in the system's retries.
    /// - Returns: The listening socket and its port.
    package static func listen(backlog: Int32 = SOMAXCONN) throws -> (socket: LoopbackSocket, port: UInt16) {
        let socket = try LoopbackSocket(descriptor: makeDescriptor())
        var address = SystemSocket.loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw LoopbackSocketError("bind to 127.0.0.1:0") }
        guard systemListen(socket.descriptor, backlog: backlog) == 0 else { throw LoopbackSocketError("listen on 127.0.0.1") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket.descriptor, $0, &length) }
        }
        guard named == 0 else { throw LoopbackSocketError("getsockname") }
        return (socket, UInt16(bigEndian: address.sin_port))
    }

    /// Connects to 127.0.0.1:`port`, waiting at most `timeout` seconds.
    ///
    /// The connect does not block: a listener whose accept queue is full drops the connection
    /// request, and a blocking connect would wait through the system's retries (more than two
    /// minutes on Linux) whatever the caller's timeout.
    /// - Throws: ``LoopbackSocketError`` with `isTimeout` when the listener did not take the
    ///   connection in time; the system's reason (connection refused) otherwise.
    package static func connect(port: UInt16, timeout: TimeInterval = 10) throws -> LoopbackSocket {
        let socket = try LoopbackSocket(descriptor: makeDescriptor())
        let flags = fcntl(socket.descriptor, F_GETFL, 0)
        guard flags >= 0, fcntl(socket.descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { throw LoopbackSocketError("fcntl") }
        var address = SystemSocket.loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            // EINTR: the connect goes on in the kernel, as an EINPROGRESS one does.
            guard errno == EINPROGRESS || errno == EINTR else { throw LoopbackSocketError("connect to 127.0.0.1:\(port)") }
            try socket.waitUntilConnected(port: port, timeout: timeout)
        }
        guard fcntl(socket.descriptor, F_SETFL, flags) == 0 else { throw LoopbackSocketError("fcntl") }
        socket.disableCoalescing()
        return socket
    }

    /// Waits until a connect in progress has ended, and throws its error if it failed.
    private func waitUntilConnected(port: UInt16, timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(max(0, min(timeout, 3600)))
        while true {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&waiting, 1, Int32((max(0, deadline.timeIntervalSinceNow) * 1000).rounded(.up)))
            if ready > 0 { break }
            if ready == 0 {
                throw LoopbackSocketError(
                    description: "connect to 127.0.0.1:\(port) got no answer within \(TestRunnerLinkError.seconds(timeout)) s",
                    isClosed: false, isTimeout: true)
            }
            if errno != EINTR { throw LoopbackSocketError("poll") }
        }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else { throw LoopbackSocketError("getsockopt") }
        if failure != 0 { throw LoopbackSocketError("connect to 127.0.0.1:\(port)", code: failure) }
    }

    /// The next connection, or `nil` when none came within `timeout` seconds or the socket was
    /// shut down.
    package func accept(timeout: TimeInterval) throws -> LoopbackSocket? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            guard try waitUntilReadable(timeout: deadline.timeIntervalSinceNow) else { return nil }
            let accepted = systemAccept(descriptor)
            if accepted >= 0 {
                let socket = LoopbackSocket(descriptor: accepted)
                socket.disableCoalescing()
                return socket
            }
            // A signal, or a client that gave up between the wake-up and the accept: wait on.
            guard errno == EINTR || errno == EAGAIN || errno == ECONNABORTED else { throw LoopbackSocketError("accept") }
        } while deadline.timeIntervalSinceNow > 0
        return nil
    }

    /// Reads exactly `count` bytes.
    /// - Parameter timeout: The longest wait for the bytes to start and to keep coming; `nil`
    ///   waits until they arrive or the socket closes.
    /// - Throws: ``LoopbackSocketError`` with `isClosed` when the peer closed the connection or
    ///   the socket was shut down; a timeout error when nothing came in time.
    package func read(count: Int, timeout: TimeInterval?) throws -> Data {
        var data = Data(count: count)
        var filled = 0
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while filled < count {
            let remaining = deadline.map { $0.timeIntervalSinceNow } ?? 0.25
            if remaining <= 0 { throw LoopbackSocketError(description: "no data within \(timeout ?? 0) s", isClosed: false, isTimeout: true) }
            guard try waitUntilReadable(timeout: min(remaining, 0.25)) else {
                if isShutDown { throw LoopbackSocketError(description: "the connection was closed", isClosed: true) }
                continue
            }
            let received = data.withUnsafeMutableBytes { buffer in
                recv(descriptor, buffer.baseAddress!.advanced(by: filled), count - filled, 0)
            }
            if received > 0 {
                filled += received
            } else if received == 0 {
                throw LoopbackSocketError(description: "the other side closed the connection", isClosed: true)
            } else if errno != EINTR && errno != EAGAIN {
                let code = errno
                throw LoopbackSocketError(description: LoopbackSocketError("read", code: code).description, isClosed: true)
            }
        }
        return data
    }

    /// Writes all of `data`, from any thread (writes are serialized).
    /// - Throws: when the socket is closed, or the peer read nothing for 10 seconds.
    package func write(_ data: Data) throws {
        lock.lock(); defer { lock.unlock() }
        guard !isClosed, !shutDown else { throw LoopbackSocketError(description: "the connection is closed", isClosed: true) }
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        var sent = 0
        while sent < data.count {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&waiting, 1, 10_000)
            if ready == 0 { throw LoopbackSocketError(description: "the other side read nothing for 10 s", isClosed: false, isTimeout: true) }
            if ready < 0 {
                if errno == EINTR { continue }
                throw LoopbackSocketError("poll")
            }
            let written = data.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress!.advanced(by: sent), data.count - sent, flags)
            }
            if written > 0 {
                sent += written
            } else if written < 0, errno != EINTR, errno != EAGAIN {
                let code = errno
                throw LoopbackSocketError(description: LoopbackSocketError("write", code: code).description, isClosed: true)
            }
        }
    }

    private var shutDown = false
    private var isShutDown: Bool {
        lock.lock(); defer { lock.unlock() }
        return shutDown || isClosed
    }

    /// Ends the connection in both directions: the peer reads its end, and this side's reader
    /// wakes within a quarter of a second.
    package func shutdown() {
        lock.lock(); defer { lock.unlock() }
        guard !isClosed, !shutDown else { return }
        shutDown = true
        SystemSocket.shutdown(descriptor, .both)
    }

    /// Closes the descriptor (once).
    package func close() {
        lock.lock(); defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        SystemSocket.close(descriptor)
    }

    // MARK: Platform details

    /// Whether the socket became readable within `timeout`. A signal that interrupts the wait
    /// resumes it for the time left, so `false` always means the whole timeout passed (or the
    /// socket was shut down).
    private func waitUntilReadable(timeout: TimeInterval) throws -> Bool {
        let deadline = Date().addingTimeInterval(max(0, min(timeout, 3600)))
        while !isShutDown {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, Int32((max(0, deadline.timeIntervalSinceNow) * 1000).rounded(.up)))
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { throw LoopbackSocketError("poll") }
        }
        return false
    }

    /// Small frames go out at once, not after the peer's delayed acknowledgement (Nagle).
    private func disableCoalescing() {
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func makeDescriptor() throws -> Int32 {
        let descriptor = SystemSocket.makeTCP()
        guard descriptor >= 0 else { throw LoopbackSocketError("socket") }
        return descriptor
    }

}

private func systemListen(_ descriptor: Int32, backlog: Int32) -> Int32 { listen(descriptor, backlog) }

private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}

private func systemAccept(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }
