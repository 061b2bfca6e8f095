// The one file of the server that calls the platform's socket API: POSIX calls that Glibc and
// Darwin both have, on non-blocking descriptors that a ConnectionReader (on Linux the epoll
// calls of ReadPoller.swift) or a DispatchSource watches.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LoopbackSockets

/// Socket calls on raw descriptors. A descriptor here is non-blocking: reads and writes answer
/// at once, and a reader or a DispatchSource says when to try again.
enum ServerSocket {
    /// A listening socket on the loopback address of one family (127.0.0.1 or ::1), never a
    /// wildcard address, so nothing outside this machine can connect.
    /// - Returns: The descriptor and the port it is bound to (the one the system picked when
    ///   `port` is 0).
    static func listen(ipv6: Bool, port: UInt16, backlog: Int32) throws -> (descriptor: Int32, port: UInt16) {
        let address = ipv6 ? "[::1]:\(port)" : "127.0.0.1:\(port)"
        let descriptor = SystemSocket.makeTCP(ipv6: ipv6)
        guard descriptor >= 0 else { throw StubServerError.socketCall("socket", address: address, code: errno) }
        var on: Int32 = 1
        // A fixed port can be bound again at once after a server on it stopped (TIME_WAIT).
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if ipv6 { _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) }
        var boundPort = port
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            #if canImport(Darwin)
            address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = SystemSocket.loopbackAddress(port: port)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw StubServerError.socketCall("bind", address: address, code: code)
        }
        guard systemListen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw StubServerError.socketCall("listen", address: address, code: code)
        }
        if port == 0 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            guard named == 0 else {
                let code = errno
                close(descriptor)
                throw StubServerError.socketCall("getsockname", address: address, code: code)
            }
            boundPort = withUnsafePointer(to: &storage) { pointer in
                ipv6
                    ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                    : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        }
        setNonBlocking(descriptor)
        return (descriptor, boundPort)
    }

    /// The result of ``accept(_:)``.
    enum Accepted {
        case connection(Int32)
        /// Nothing waits (or the client gave up in between).
        case none
        /// The process has no descriptor left: try again later.
        case outOfDescriptors
    }

    /// The next connection waiting on `listener`, made non-blocking, with small writes sent
    /// at once (no Nagle delay) and no SIGPIPE on Apple platforms.
    static func accept(_ listener: Int32) -> Accepted {
        while true {
            let descriptor = systemAccept(listener)
            if descriptor >= 0 {
                setNonBlocking(descriptor)
                var on: Int32 = 1
                _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                #if canImport(Darwin)
                _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
                #endif
                return .connection(descriptor)
            }
            switch errno {
            case EINTR: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors
            default: return .none
            }
        }
    }

    /// The result of a read or a write.
    enum Transfer: Equatable {
        case bytes(Int)
        /// Try again when the source fires.
        case wouldBlock
        /// The peer closed its side (reads only).
        case closed
        /// The connection failed (reset by the peer, or any other error).
        case failed
    }

    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed
            }
        }
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Transfer {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        while true {
            let count = send(descriptor, buffer.baseAddress, buffer.count, flags)
            if count >= 0 { return .bytes(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed
            }
        }
    }

    /// Closes `descriptor` so that the peer sees a reset (RST), not an orderly end: unsent
    /// bytes are dropped, and the client's next read fails with "connection reset".
    static func reset(_ descriptor: Int32) {
        var linger = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        close(descriptor)
    }

    /// Ends the sending side: the peer reads the end of the stream after the bytes sent.
    static func shutdownWrites(_ descriptor: Int32) {
        SystemSocket.shutdown(descriptor, .writes)
    }

    static func close(_ descriptor: Int32) {
        SystemSocket.close(descriptor)
    }

    /// A descriptor on `/dev/null`, not inherited by child processes, kept only to be given up
    /// when the process has no other (``SpareDescriptor``); -1 when none is free.
    static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Reads and drops what waits on non-blocking `descriptor` now.
    static func drain(_ descriptor: Int32) {
        withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 1) { buffer in
            for _ in 0..<4 {
                guard case .bytes(let count) = read(descriptor, into: buffer), count == buffer.count else { return }
            }
        }
    }

    /// Bytes written to `descriptor` that the peer has not acknowledged yet (still in the
    /// kernel's send queue): what was written minus this is what the client took. 0 when the
    /// system cannot say.
    static func unacknowledgedBytes(_ descriptor: Int32) -> Int {
        var value: Int32 = 0
        #if canImport(Darwin)
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_NWRITE, &value, &length) == 0 else { return 0 }
        #else
        guard ioctl(descriptor, UInt(TIOCOUTQ), &value) == 0 else { return 0 }
        #endif
        return Int(max(0, value))
    }

    /// The process's soft limit on open descriptors (`ulimit -n`); `Int.max` when unlimited.
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        // RLIM_INFINITY is the largest value: clamping makes it Int.max.
        guard getrlimit(resource, &limit) == 0 else { return Int.max }
        return Int(clamping: limit.rlim_cur)
    }

    private static func setNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }
}

// Globals: inside `ServerSocket`, `listen` and `accept` name its own methods.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }

private func systemAccept(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }
