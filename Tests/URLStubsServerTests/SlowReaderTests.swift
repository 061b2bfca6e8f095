import Foundation
import Testing
import URLStubs
@testable import URLStubsServer

#if os(Linux)
/// A large body to a client that reads slowly is read from its file as the client takes it,
/// not piled up in the server's memory. What the server holds is measured where it is held
/// (the bytes waiting for the client): the process's resident memory also counts whatever the
/// tests running beside this one allocate at that moment.
@Suite("Serving stubs: a slow reader")
struct SlowReaderTests {
    @Test func aLargeFileBodyToASlowReaderDoesNotPileUpInMemory() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-server-big-\(UUID().uuidString)")
        try Data(count: 96 << 20).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let registry = StubRegistry()
        registry.stub(isPath("/big")) { _ in try StubResponse(fixture: file) }
        let server = try registry.serve()
        defer { server.stop() }
        let (waitingMB, received) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /big HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            _ = try connection.readExactly(1)
            // The client reads nothing for a second: the server has all the time it needs to
            // read the whole file, if it reads ahead of the client.
            Thread.sleep(forTimeInterval: 1)
            let waiting = Double(server.core.largestOutputWaiting) / 1_048_576
            let (rest, _) = connection.readToEnd(timeout: 10)
            return (waiting, rest.count + 1)
        }
        #expect(waitingMB < 4, "the server held \(waitingMB) MB of the body while the client read nothing")
        #expect(received > 96 << 20)
    }

}

#endif
