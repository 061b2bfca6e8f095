// The stub server (URLStubsServer) against the floor of its approach: a minimal responder on
// the same kind of sockets and DispatchSources that answers every request with fixed bytes,
// driven by the same keep-alive client.
//
//     swift run -c release urlstubs-bench --only loopbackServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LoopbackSockets
import URLStubs
import URLStubsServer

#if os(macOS) || os(Linux)

/// `loopbackServer.cpu/loopbackFloor.cpu` (CPU per 1 KB keep-alive request, client included,
/// the median of per-round ratios), `loopbackServer.p50Us` (one request's wall time) and
/// `loopbackServer.memoryPer1000ConnectionsMB` (resident memory growth while 1,000 keep-alive
/// connections, each answered once, are held).
func runLoopbackServer(quick: Bool) throws -> [Figure] {
    raiseDescriptorLimit(to: 4096)
    let body = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) })
    let registry = StubRegistry()
    let server = try registry.serve()
    defer { server.stop() }
    registry.stub(.get, server.url("/bench").absoluteString, headers: ["Content-Type": "application/octet-stream"], data: body)
    let floor = try FloorResponder(body: body)
    defer { floor.stop() }

    let serverClient = try BenchClient(port: server.port)
    let floorClient = try BenchClient(port: floor.port)
    progress("loopback server: warming up…")
    for _ in 0..<300 {
        try serverClient.get()
        try floorClient.get()
    }
    let rounds = quick ? 7 : 41
    let requests = quick ? 100 : 400
    var ratios: [Double] = []
    var latencies: [Double] = []
    var serverCPU: [Double] = []
    var floorCPU: [Double] = []
    for round in 0..<rounds {
        if round % 10 == 0 { progress("loopback server: round \(round + 1)/\(rounds)") }
        // The journal keeps every request: emptied between rounds, outside the measurement.
        registry.resetJournal()
        func measure(_ client: BenchClient, latencies: inout [Double]) throws -> Double {
            let start = processCPUTime()
            for _ in 0..<requests {
                let began = now()
                try client.get()
                latencies.append((now() - began) * 1e6)
            }
            return (processCPUTime() - start) / Double(requests) * 1e6
        }
        var unused: [Double] = []
        // Alternate which goes first, so neither always follows the other's work.
        let (viaServer, viaFloor): (Double, Double)
        if round % 2 == 0 {
            viaServer = try measure(serverClient, latencies: &latencies)
            viaFloor = try measure(floorClient, latencies: &unused)
        } else {
            viaFloor = try measure(floorClient, latencies: &unused)
            viaServer = try measure(serverClient, latencies: &latencies)
        }
        serverCPU.append(viaServer)
        floorCPU.append(viaFloor)
        ratios.append(viaServer / viaFloor)
    }

    progress("loopback server: 1,000 keep-alive connections…")
    let memoryMB = try memoryFor(connections: 1000, port: server.port)
    return [
        Figure(name: "loopbackServer.cpuUs", value: median(serverCPU), unit: "µs CPU/request"),
        Figure(name: "loopbackFloor.cpuUs", value: median(floorCPU), unit: "µs CPU/request"),
        Figure(
            name: "loopbackServer.cpu/loopbackFloor.cpu", value: median(ratios), unit: "ratio",
            target: target("≤ 1.5") { $0 <= 1.5 }),
        Figure(name: "loopbackServer.p50Us", value: median(latencies), unit: "µs/request"),
        Figure(
            name: "loopbackServer.memoryPer1000ConnectionsMB", value: memoryMB, unit: "MB",
            target: target("≤ 64") { $0 <= 64 }),
    ]
}

/// Resident memory growth, in MB, while `count` connections are open, each answered once and
/// kept alive.
private func memoryFor(connections count: Int, port: UInt16) throws -> Double {
    let before = Memory.residentKB ?? 0
    var clients: [BenchClient] = []
    clients.reserveCapacity(count)
    for _ in 0..<count { clients.append(try BenchClient(port: port)) }
    for client in clients { try client.get() }
    // Every connection has been answered: the server holds them all, idle.
    Thread.sleep(forTimeInterval: 0.2)
    let after = Memory.residentKB ?? 0
    for client in clients { client.close() }
    return Double(after - before) / 1024
}

/// Lets the process open `wanted` descriptors (the client's and the server's ends of 1,000
/// connections), as far as the hard limit allows.
private func raiseDescriptorLimit(to wanted: Int) {
    var limit = rlimit()
    #if canImport(Darwin)
    let resource = RLIMIT_NOFILE
    #else
    let resource = Int32(RLIMIT_NOFILE.rawValue)
    #endif
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
    limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
    _ = setrlimit(resource, &limit)
}

/// A keep-alive HTTP/1.1 client on a blocking socket: one request, then its whole answer.
private final class BenchClient {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 8192)
    private let request: [UInt8]

    init(port: UInt16) throws {
        descriptor = try connectToLoopback(port: port)
        request = Array("GET /bench HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
    }

    /// Sends the request and reads the answer to its last byte (its head says the length).
    func get() throws {
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { throw BenchError("the bench client could not send its request") }
        var filled = 0
        var expected: Int?
        while expected.map({ filled < $0 }) ?? true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, $0.count - filled, 0) }
            guard count > 0 else { throw BenchError("the connection ended after \(filled) bytes of an answer") }
            filled += count
            if expected == nil, let end = headEnd(filled) {
                // A stub that did not match would be measured as a 404 with its report.
                guard buffer.starts(with: Array("HTTP/1.1 200".utf8)) else {
                    throw BenchError("the answer is not 200: \(String(decoding: buffer[0..<end], as: UTF8.self))")
                }
                expected = end + contentLength(end)
            }
        }
    }

    private func headEnd(_ filled: Int) -> Int? {
        guard filled >= 4 else { return nil }
        for index in 0...(filled - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// The value of the head's `Content-Length` field (spelled so by both responders).
    private func contentLength(_ headEnd: Int) -> Int {
        let name = Array("\r\nContent-Length: ".utf8)
        guard headEnd > name.count else { return 0 }
        for start in 0..<(headEnd - name.count) where buffer[start] == 13 && buffer[start..<start + name.count].elementsEqual(name) {
            var value = 0
            var index = start + name.count
            while index < headEnd, (48...57).contains(buffer[index]) {
                value = value * 10 + Int(buffer[index] - 48)
                index += 1
            }
            return value
        }
        return 0
    }

    func close() { SystemSocket.close(descriptor) }
    deinit { close() }
}

/// The floor: accepts on 127.0.0.1 and answers each request's head (no body is expected) with
/// the same status, fields and 1 KB body as the stub, from a DispatchSource on a serial queue
/// per connection, as the server does. No parsing, matching, journal or player.
private final class FloorResponder: @unchecked Sendable {
    // @unchecked: each connection's state is touched on its own queue only.
    let port: UInt16
    private let listener: Int32
    private let acceptSource: any DispatchSourceRead
    private let response: [UInt8]
    private let lock = NSLock()
    private var connections: [any DispatchSourceRead] = []

    init(body: Data) throws {
        response =
            Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + Array(body)
        (listener, port) = try listenOnLoopback()
        acceptSource = DispatchSource.makeReadSource(fileDescriptor: listener, queue: DispatchQueue(label: "floor.accept"))
        acceptSource.setEventHandler { [unowned self] in acceptAll() }
        acceptSource.activate()
    }

    private func acceptAll() {
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else { return }
            var on: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL, 0) | O_NONBLOCK)
            let queue = DispatchQueue(label: "floor.connection", target: .global())
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            let state = FloorConnection(descriptor: descriptor, response: response)
            state.source = source
            source.setEventHandler {
                if !state.readAndAnswer() {
                    state.source?.cancel()
                    state.source = nil
                }
            }
            source.setCancelHandler { SystemSocket.close(descriptor) }
            lock.lock()
            connections.append(source)
            lock.unlock()
            source.activate()
        }
    }

    func stop() {
        acceptSource.cancel()
        lock.lock()
        let open = connections
        connections = []
        lock.unlock()
        for source in open { source.cancel() }
        SystemSocket.close(listener)
    }
}

/// One floor connection: counts request heads as they end (CRLF CRLF) and answers each.
private final class FloorConnection: @unchecked Sendable {
    private let descriptor: Int32
    private let response: [UInt8]
    /// Its read source, until the client leaves.
    var source: (any DispatchSourceRead)?
    /// How many bytes of CR LF CR LF the last read ended with.
    private var matched = 0
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    init(descriptor: Int32, response: [UInt8]) {
        self.descriptor = descriptor
        self.response = response
    }

    /// `false` when the client is gone.
    func readAndAnswer() -> Bool {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { return false }
        if count < 0 { return errno == EAGAIN || errno == EINTR }
        let pattern: [UInt8] = [13, 10, 13, 10]
        for index in 0..<count {
            matched = buffer[index] == pattern[matched] ? matched + 1 : (buffer[index] == 13 ? 1 : 0)
            if matched == 4 {
                matched = 0
                // Loopback takes 1 KB at once; a short write would be a broken benchmark.
                let sent = response.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
                if sent != response.count { return false }
            }
        }
        return true
    }
}

func listenOnLoopback() throws -> (Int32, UInt16) {
    let descriptor = SystemSocket.makeTCP()
    var address = SystemSocket.loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
            bind(descriptor, pointer, length) == 0 && listen(descriptor, 1024) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
    }
    guard descriptor >= 0, bound else { throw BenchError("the floor responder could not listen on 127.0.0.1") }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL, 0) | O_NONBLOCK)
    return (descriptor, UInt16(bigEndian: address.sin_port))
}

/// A keep-alive client's socket, connected to 127.0.0.1:`port`, with Nagle's delay off.
func connectToLoopback(port: UInt16) throws -> Int32 {
    let descriptor = SystemSocket.makeTCP()
    var address = SystemSocket.loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard descriptor >= 0, connected else { throw BenchError("could not connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
    var on: Int32 = 1
    _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    return descriptor
}

#endif
