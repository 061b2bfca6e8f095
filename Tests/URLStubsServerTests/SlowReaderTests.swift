import Foundation
import Testing
import URLStubs
import URLStubsServer

#if os(Linux)
/// A large body to a client that reads slowly is read from its file as the client takes it,
/// not piled up in the server's memory.
@Suite("Serving stubs: a slow reader")
struct SlowReaderTests {
    @Test func aLargeFileBodyToASlowReaderDoesNotPileUpInMemory() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-server-big-\(UUID().uuidString)")
        try Data(count: 96 << 20).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let registry = StubRegistry()
        registry.stub(isPath("/big")) { _ in StubResponse(fileAt: file) }
        let server = try registry.serve()
        defer { server.stop() }
        let (growthMB, received) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /big HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            _ = try connection.readExactly(1)
            let before = residentMB()
            // The client reads nothing for a second: the server has all the time it needs to
            // read the whole file, if it reads ahead of the client.
            Thread.sleep(forTimeInterval: 1)
            let growth = residentMB() - before
            let (rest, _) = connection.readToEnd(timeout: 10)
            return (growth, rest.count + 1)
        }
        #expect(growthMB < 40, "the server's memory grew by \(growthMB) MB while the client read nothing")
        #expect(received > 96 << 20)
    }

}

/// VmRSS of this process, in MB.
private func residentMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Double(line.filter(\.isNumber)).map { $0 / 1024 } ?? 0
}
#endif
