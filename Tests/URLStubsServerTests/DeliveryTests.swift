import Foundation
import Testing
import URLStubs
@testable import URLStubsServer

#if os(Linux)
/// What the journal says a client got is what the client took off the socket, and a paced
/// body waits for a client that does not read: the server holds about a megabyte for it, not
/// the body.
@Suite("Serving stubs: delivery as the client takes it")
struct DeliveryTests {
    /// A Python client that reads 64 KB of a fast paced body, then resets: the journal says
    /// the connection was lost after about what it read, not after what the server queued.
    @Test func aClientThatResetsIsJournaledWithWhatItTook() async throws {
        let registry = StubRegistry()
        let body = Data(count: 48 << 20)
        registry.stub(isPath("/big")) { _ in StubResponse(data: body).downloadSpeed(.kilobytesPerSecond(200_000)) }
        let server = try registry.serve()
        defer { server.stop() }
        let run = try await ExternalClients.runPython(Self.resettingClient, [String(server.port), String(64 * 1024)])
        #expect(run.status == 0, "\(run.output)")
        let entry = try await Self.settledEntry(of: registry)
        #expect(entry.errorDescription == "URLError(-1005)", "\(entry)")
        #expect(entry.bodyBytesDelivered >= 64 * 1024 && entry.bodyBytesDelivered < 4 << 20, "\(entry)")
    }

    /// A client that never reads and is reset: an error in the journal, not a plain 200.
    @Test func aClientThatNeverReadIsJournaledWithAnError() async throws {
        let registry = StubRegistry()
        let body = Data(count: 32 << 20)
        registry.stub(isPath("/big")) { _ in StubResponse(data: body).downloadSpeed(.kilobytesPerSecond(200_000)) }
        let server = try registry.serve()
        defer { server.stop() }
        let run = try await ExternalClients.runPython(Self.resettingClient, [String(server.port), "0"])
        #expect(run.status == 0, "\(run.output)")
        let entry = try await Self.settledEntry(of: registry)
        #expect(entry.errorDescription == "URLError(-1005)", "\(entry)")
        #expect(entry.bodyBytesDelivered < 4 << 20, "\(entry)")
        #expect(!entry.description.hasSuffix("200 from \"<closure stub>\""), "\(entry)")
    }

    /// Twenty clients that never read a paced body (in memory, and from a file): each costs
    /// the server about a megabyte of waiting answer bytes, not the body.
    @Test(arguments: [false, true])
    func pacedBodiesWaitForClientsThatDoNotRead(fromFile: Bool) async throws {
        let size = 32 << 20
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-paced-\(UUID().uuidString)")
        if fromFile { try Data(count: size).write(to: file) }
        defer { try? FileManager.default.removeItem(at: file) }
        let registry = StubRegistry()
        let body = Data(count: size)
        registry.stub(isPath("/paced")) { _ in
            let response = fromFile ? try StubResponse(fixture: file) : StubResponse(data: body)
            return response.downloadSpeed(.kilobytesPerSecond(400_000))
        }
        let server = try registry.serve()
        defer { server.stop() }
        let waitingMB = try await offThePool {
            let connections = try (0..<20).map { _ in
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /paced HTTP/1.1\r\nHost: localhost\r\n\r\n")
                return connection
            }
            // At the pace asked for, the whole body would be sent in a tenth of a second.
            Thread.sleep(forTimeInterval: 2)
            let waiting = Double(server.core.largestOutputWaiting) / 1_048_576
            for connection in connections { connection.close() }
            return waiting
        }
        #expect(waitingMB < 4, "the server held \(waitingMB) MB for a client that read nothing")
    }

    /// The journal's only entry, once the server noticed the client's end.
    static func settledEntry(of registry: StubRegistry) async throws -> JournalEntry {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let entry = registry.journal.first, entry.errorDescription != nil { return entry }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try #require(registry.journal.first)
    }

    /// Connects with a small receive buffer, asks for /big, reads argv[2] bytes, waits, and
    /// resets the connection (SO_LINGER 0).
    static var resettingClient: String {
        """
        import socket, struct, sys, time
        port, wanted = int(sys.argv[1]), int(sys.argv[2])
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /big HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n")
        got = 0
        while got < wanted:
            chunk = s.recv(min(65536, wanted - got))
            if not chunk:
                break
            got += len(chunk)
        time.sleep(1.5)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
        print("read", got)
        """
    }
}
#endif
