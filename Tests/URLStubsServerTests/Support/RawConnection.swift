#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A blocking TCP connection to 127.0.0.1 that sends exactly the bytes a test writes and reads
/// what comes back, for what no ready-made client does on purpose: pipelining, a head without
/// its body, a client that sends nothing.
final class RawConnection: @unchecked Sendable {
    // @unchecked: a test uses it from one thread at a time (handed from the test to offThePool).
    /// How the server's side of the connection ended, as a read saw it.
    enum End: Equatable {
        /// An orderly close (FIN) after the bytes read.
        case closed
        /// A reset (RST).
        case reset
        /// Nothing came within the timeout; the connection is still open.
        case silent
    }

    /// A response read off the wire.
    struct Response {
        let status: Int
        /// Field names lowercased, in order.
        let headers: [(name: String, value: String)]
        let body: Data

        func value(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) throws {
        #if canImport(Darwin)
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close()
            throw Failure(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit { close() }

    private var isClosed = false
    func close() {
        guard !isClosed else { return }
        isClosed = true
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// Sends all of `text` (UTF-8).
    func send(_ text: String) throws { try send(Data(text.utf8)) }

    /// Sends all of `data`.
    func send(_ data: Data) throws {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        var sent = 0
        while sent < data.count {
            let count = data.withUnsafeBytes { systemSend(descriptor, $0.baseAddress! + sent, data.count - sent, flags) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send: \(String(cString: strerror(errno)))")
            }
            sent += count
        }
    }

    /// Reads at least one more byte into the buffer; how the connection ended when none came.
    private func fill(timeout: TimeInterval) -> End? {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&waiting, 1, Int32(timeout * 1000))
        if ready == 0 { return .silent }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count > 0 {
            buffer += chunk[0..<count]
            return nil
        }
        if count == 0 { return .closed }
        return errno == ECONNRESET ? .reset : .closed
    }

    /// Reads until the connection ends (or `timeout` passes with nothing new): the bytes and
    /// how it ended.
    func readToEnd(timeout: TimeInterval = 10) -> (bytes: Data, end: End) {
        while true {
            if let end = fill(timeout: timeout) {
                defer { buffer = [] }
                return (Data(buffer), end)
            }
        }
    }

    /// Reads one response (its body framed by Content-Length or chunked; none for `HEAD`).
    func readResponse(timeout: TimeInterval = 10, forHEAD: Bool = false) throws -> Response {
        var headEnd: Int?
        while headEnd == nil {
            if let index = find([13, 10, 13, 10]) {
                headEnd = index
            } else if let end = fill(timeout: timeout) {
                throw Failure(
                    description:
                        "the connection ended (\(end)) before a whole head; read so far: \(String(decoding: buffer, as: UTF8.self).debugDescription)")
            }
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "not a status line: \(head)") }
        let headers = lines.map { line -> (name: String, value: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]).lowercased(), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        func value(_ name: String) -> String? { headers.first { $0.name == name }?.value }
        if forHEAD || status == 204 || status == 304 || (100..<200).contains(status) {
            return Response(status: status, headers: headers, body: Data())
        }
        if value("transfer-encoding") == "chunked" {
            var body = Data()
            while true {
                let line = try readLine(timeout: timeout)
                guard let size = Int(line.split(separator: ";")[0], radix: 16) else { throw Failure(description: "bad chunk size \(line)") }
                if size == 0 {
                    _ = try readLine(timeout: timeout)
                    return Response(status: status, headers: headers, body: body)
                }
                body += try readExactly(size, timeout: timeout)
                _ = try readLine(timeout: timeout)
            }
        }
        let length = Int(value("content-length") ?? "0") ?? 0
        return Response(status: status, headers: headers, body: try readExactly(length, timeout: timeout))
    }

    /// Everything up to and including `marker` (UTF-8), as text.
    func readUntil(_ marker: String, timeout: TimeInterval = 10) throws -> String {
        let pattern = Array(marker.utf8)
        while true {
            if let index = find(pattern) {
                defer { buffer.removeFirst(index + pattern.count) }
                return String(decoding: buffer[0..<index + pattern.count], as: UTF8.self)
            }
            if let end = fill(timeout: timeout) {
                throw Failure(
                    description:
                        "the connection ended (\(end)) before \(marker.debugDescription); read: \(String(decoding: buffer, as: UTF8.self).debugDescription)"
                )
            }
        }
    }

    /// Exactly `count` bytes.
    func readExactly(_ count: Int, timeout: TimeInterval = 10) throws -> Data {
        while buffer.count < count {
            if let end = fill(timeout: timeout) {
                throw Failure(description: "the connection ended (\(end)) after \(buffer.count) of \(count) bytes")
            }
        }
        defer { buffer.removeFirst(count) }
        return Data(buffer[0..<count])
    }

    private func readLine(timeout: TimeInterval) throws -> String {
        while true {
            if let index = find([13, 10]) {
                defer { buffer.removeFirst(index + 2) }
                return String(decoding: buffer[0..<index], as: UTF8.self)
            }
            if let end = fill(timeout: timeout) { throw Failure(description: "the connection ended (\(end)) inside a line") }
        }
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for index in 0...(buffer.count - pattern.count) where buffer[index] == pattern[0] {
            if Array(buffer[index..<index + pattern.count]) == pattern { return index }
        }
        return nil
    }
}

private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, bytes, count, flags)
}

/// Runs blocking work (a read on the wire, a child process) on a thread of its own: not on one
/// of the few threads Swift concurrency shares with every other test, and not on dispatch's
/// worker pool either, whose threads corelibs' loading queue and URLStubs' timeout clock need
/// (a test blocking them stalled every request of the process for seconds).
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
