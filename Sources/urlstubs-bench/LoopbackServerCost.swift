import Foundation
import URLStubs
import URLStubsServer

// The loopback server's own CPU per request, beside a minimal POSIX keep-alive server's, each
// driven by a keep-alive client in another process:
//
//     swift run -c release urlstubs-bench --only loopbackServer
//     Tests/Bench/bench.sh profile loopbackServer      # user instructions per request (callgrind)
#if os(macOS) || os(Linux)

/// The 1 KB answer both servers give.
private func costBody() -> Data { Data((0..<1024).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) }) }

/// A served registry with the one stub the client asks for.
private func costServer() throws -> (StubRegistry, StubServer) {
    let registry = StubRegistry()
    let server = try registry.serve()
    registry.stub(.get, server.url("/bench").absoluteString, headers: ["Content-Type": "application/octet-stream"], data: costBody())
    return (registry, server)
}

/// `loopbackServer.serverCPU/posixFloor.serverCPU`: this process's CPU per request while a
/// python3 client in another process sends keep-alive requests (the fields a browser or
/// URLSession sends), so nothing of the client is counted. The process holds only the two
/// servers; the one not driven is idle (blocked in `accept`/`recv`, or a quiet dispatch
/// source). The median of per-round ratios, the two alternating which goes first; beside it,
/// the kernel's part of each server's CPU (system time: syscalls and thread wake-ups).
func runLoopbackServerCost(quick: Bool) throws -> [Figure] {
    let (registry, server) = try costServer()
    defer { server.stop() }
    let body = costBody()
    let floor = try PosixFloorServer(
        response: Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + Array(body))
    defer { floor.stop() }
    let serverClient = try KeepAliveClientProcess(port: server.port, path: "/bench")
    defer { serverClient.stop() }
    let floorClient = try KeepAliveClientProcess(port: floor.port, path: "/bench")
    defer { floorClient.stop() }
    progress("loopback server cost: warming up…")
    try serverClient.run(300)
    try floorClient.run(300)
    let rounds = quick ? 7 : 21
    let requests = quick ? 300 : 1000
    var serverCPU: [Double] = []
    var floorCPU: [Double] = []
    var ratios: [Double] = []
    var serverSystem: [Double] = []
    var floorSystem: [Double] = []
    /// CPU per request, and the kernel's part of it (system time: syscalls, wake-ups).
    func measure(_ client: KeepAliveClientProcess, system: inout [Double]) throws -> Double {
        let start = processCPUTime()
        let systemStart = processSystemTime()
        try client.run(requests)
        system.append((processSystemTime() - systemStart) / Double(requests) * 1e6)
        return (processCPUTime() - start) / Double(requests) * 1e6
    }
    for round in 0..<rounds {
        if round % 5 == 0 { progress("loopback server cost: round \(round + 1)/\(rounds)") }
        // The journal keeps every request: emptied between rounds, outside the measurement.
        registry.resetJournal()
        let (viaServer, viaFloor): (Double, Double)
        if round % 2 == 0 {
            viaServer = try measure(serverClient, system: &serverSystem)
            viaFloor = try measure(floorClient, system: &floorSystem)
        } else {
            viaFloor = try measure(floorClient, system: &floorSystem)
            viaServer = try measure(serverClient, system: &serverSystem)
        }
        serverCPU.append(viaServer)
        floorCPU.append(viaFloor)
        ratios.append(viaServer / viaFloor)
    }
    return [
        Figure(name: "loopbackServer.serverCPUUs", value: median(serverCPU), unit: "µs server CPU/request"),
        Figure(name: "posixFloor.serverCPUUs", value: median(floorCPU), unit: "µs server CPU/request"),
        Figure(name: "loopbackServer.serverSystemUs", value: median(serverSystem), unit: "µs kernel CPU/request"),
        Figure(name: "posixFloor.serverSystemUs", value: median(floorSystem), unit: "µs kernel CPU/request"),
        Figure(
            name: "loopbackServer.serverCPU/posixFloor.serverCPU", value: median(ratios), unit: "ratio",
            target: target("≤ 2.5") { $0 <= 2.5 }),
    ]
}

/// For callgrind (`Tests/Bench/bench.sh profile loopbackServer`): 200 warm-up requests, then
/// `requests` more, from a client in another process (valgrind does not follow it), so the
/// instructions counted are the server's.
func runLoopbackServerProfile(requests: Int) throws {
    let (registry, server) = try costServer()
    defer { server.stop() }
    let client = try KeepAliveClientProcess(port: server.port, path: "/bench")
    defer { client.stop() }
    try client.run(200)
    try client.run(requests)
    print("loopbackServer: \(requests) keep-alive requests from another process")
    withExtendedLifetime(registry) {}
}

/// This process's system CPU time (the kernel's work for it), in seconds.
private func processSystemTime() -> Double {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #endif
    return Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

#endif
