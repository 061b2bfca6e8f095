// Fuzz target: the stub server's head deadline, Host check and remembered head. Any bytes are
// what a client sent.
// fuzz-also-compiles: Sources/URLStubsServer Sources/LoopbackSockets
import Foundation

/// The names a request may reach: the server's own and the one allowed below.
private let reachable: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]", "api.test"]
private let access = ServerAccess(upstream: nil, allowedHosts: ["api.test"], allowedOrigins: ["http://app.test"]).bound(to: 8080)

/// A request the server does not refuse makes a URL on a reachable host, whatever its Host
/// and target say: the Host check and Foundation's URL parser agree.
private func checkAccess(_ request: ParsedHTTPRequest) {
    guard access.refusal(of: request) == nil, let url = request.url(defaultHost: "127.0.0.1:8080") else { return }
    let host = (url.host ?? "").lowercased()
    precondition(
        reachable.contains(host), "\(request.target.debugDescription) with Host \(String(describing: request.value(of: "Host"))) reaches \(host)")
    if let port = url.port { precondition(port == 8080 || host == "api.test", "port \(port)") }
}

/// Feeds `bytes` one at a time, a second apart: a head's deadline counts from its first byte,
/// and no byte that follows moves it.
private func checkDeadline(_ bytes: UnsafeRawBufferPointer) {
    var parser = HTTPRequestParser(maximumHeaderBytes: 2048, maximumBodyBytes: 4096)
    var began: UInt64?
    for index in 0..<bytes.count {
        let now = UInt64(index + 1) * 1_000_000_000
        parser.append(UnsafeRawBufferPointer(rebasing: bytes[index..<index + 1]), at: now)
        var ended = false
        while let event = parser.next() {
            ended = true
            if case .request(let request) = event { checkAccess(request) }
        }
        if ended { began = nil }
        precondition(parser.headBegan == nil || parser.bodyBegan == nil, "a head and a body at once")
        if let headBegan = parser.headBegan {
            precondition(headBegan <= now)
            if let began { precondition(headBegan == began, "a byte moved the head's deadline") }
            began = headBegan
        } else if !ended {
            began = nil
        }
    }
}

/// What a request says, for comparing two readings.
private func described(_ request: ParsedHTTPRequest) -> String {
    "\(request.method) \(request.target) 1.\(request.minorVersion) \(request.headers.map { "\($0.name):\($0.value)" }) \(request.body.count) \(request.keepsAlive)"
}

/// The same bytes sent twice on one connection (a keep-alive client asking again): the second
/// reading, which may take a head from the parser's memory of the last one, gives the same
/// requests as the first.
private func checkRepeat(_ bytes: UnsafeRawBufferPointer) {
    var parser = HTTPRequestParser(maximumHeaderBytes: 2048, maximumBodyBytes: 4096)
    func read() -> [String]? {
        parser.append(bytes)
        var found: [String] = []
        while let event = parser.next() {
            guard case .request(let request) = event else { return nil }
            found.append(described(request))
        }
        return parser.isBetweenRequests ? found : nil
    }
    guard let first = read(), !first.isEmpty, let second = read() else { return }
    precondition(first == second, "read again: \(second), first: \(first)")
}

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerHead(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: bytes, count: count)
    var parser = HTTPRequestParser(maximumHeaderBytes: 2048, maximumBodyBytes: 4096)
    parser.append(input)
    while let event = parser.next() {
        if case .request(let request) = event { checkAccess(request) }
    }
    checkDeadline(input)
    checkRepeat(input)
    return 0
}
