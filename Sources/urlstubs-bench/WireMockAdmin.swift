// WireMock's admin API over the loopback server: a `POST /__admin/mappings` followed by a
// request the new mapping answers, both on one keep-alive connection, as a UI test that sets
// up its backend through the admin API does.
//
//     swift run -c release urlstubs-bench --only wiremock --json
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LoopbackSockets
import URLStubs
import URLStubsServer
import URLStubsWireMock

#if os(macOS) || os(Linux)

/// `wireMock.adminPostThenRequestMs.p50` and `.p90`: the wall time from sending the POST of a
/// new mapping to reading the last byte of the answer to a request it matches, over a
/// registry already holding the 160 mappings of the load figure (`folder`).
func runWireMockAdmin(folder: URL, quick: Bool, rounds: Int? = nil) throws -> [Figure] {
    progress("wireMock: admin POST then a request it answers, over loopback…")
    let registry = StubRegistry()
    try registry.stubs(fromWireMock: folder)
    let server = try registry.serveWireMock()
    defer { server.stop() }
    let client = try AdminBenchClient(port: server.port)
    defer { client.close() }
    var samples: [Double] = []
    let rounds = rounds ?? (quick ? 100 : 500)
    for round in 0..<(rounds + 50) {
        // The journal keeps every request; emptied outside the measurement.
        if round % 100 == 0 { registry.resetJournal() }
        let path = "/admin-bench/\(round)"
        let mapping =
            #"{"request": {"method": "GET", "urlPath": "\#(path)"}, "#
            + #""response": {"status": 200, "jsonBody": {"round": \#(round)}, "headers": {"Content-Type": "application/json"}}}"#
        let began = now()
        let created = try client.exchange(
            "POST /__admin/mappings HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\n", body: Data(mapping.utf8))
        let answered = try client.exchange("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAccept: application/json\r\n", body: nil)
        let elapsed = now() - began
        guard created.status == 201 else { throw BenchError("POST /__admin/mappings answered \(created.status): \(created.body)") }
        guard answered.status == 200, answered.body == #"{"round":\#(round)}"# else {
            throw BenchError("the new mapping's request answered \(answered.status): \(answered.body)")
        }
        if round >= 50 { samples.append(elapsed * 1000) }
    }
    let sorted = samples.sorted()
    return [
        Figure(name: "wireMock.adminPostThenRequestMs.p50", value: median(samples), unit: "ms", target: target("< 1") { $0 < 1 }),
        Figure(name: "wireMock.adminPostThenRequestMs.p90", value: sorted[sorted.count * 9 / 10], unit: "ms"),
    ]
}

/// One keep-alive connection to the server, sending a request and reading its answer whole.
private final class AdminBenchClient {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 65_536)

    init(port: UInt16) throws {
        descriptor = try connectToLoopback(port: port)
    }

    /// Sends `head` (its lines, without the blank line) and `body`, and reads the answer: its
    /// status and body (the head's `Content-Length` says how long).
    func exchange(_ head: String, body: Data?) throws -> (status: Int, body: String) {
        var request = Array(head.utf8)
        if let body {
            request += Array("Content-Length: \(body.count)\r\n\r\n".utf8)
            request += Array(body)
        } else {
            request += Array("\r\n".utf8)
        }
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { throw BenchError("the admin bench client could not send its request") }
        var filled = 0
        var headEnd: Int?
        var expected: Int?
        while expected.map({ filled < $0 }) ?? true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, $0.count - filled, 0) }
            guard count > 0 else { throw BenchError("the connection ended after \(filled) bytes of an answer") }
            filled += count
            if expected == nil, let end = Self.headEnd(buffer[0..<filled]) {
                headEnd = end
                expected = end + Self.contentLength(String(decoding: buffer[0..<end], as: UTF8.self))
            }
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, String(decoding: buffer[headEnd!..<filled], as: UTF8.self))
    }

    private static func headEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in bytes.startIndex...(bytes.endIndex - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private static func contentLength(_ head: String) -> Int {
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" { return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0 }
        }
        return 0
    }

    func close() { SystemSocket.close(descriptor) }
}

#endif
