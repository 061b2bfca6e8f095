import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// Limits that hold against a client that means harm: a request has deadlines however often
/// its bytes come, memory follows the bytes received, and headers cost linear time.
@Suite("Serving stubs: deadlines and costs")
struct DeadlineTests {
    private static func server(_ configure: (inout StubServer.Limits) -> Void) throws -> StubServer {
        let registry = StubRegistry()
        registry.stub(isPath("/ok")) { request in StubResponse(string: "ok \(request.body?.count ?? 0)") }
        var limits = StubServer.Limits()
        configure(&limits)
        return try registry.serve(limits: limits)
    }

    /// Sends `bytes` one at a time, `pause` apart, until the server answers or closes: what it
    /// answered, after how long.
    private static func trickle(_ bytes: String, pause: TimeInterval, port: UInt16, giveUpAfter: TimeInterval = 30) async throws -> (
        text: String, seconds: TimeInterval
    ) {
        try await offThePool {
            let connection = try RawConnection(port: port)
            let started = Date()
            for byte in bytes.utf8 {
                if Date().timeIntervalSince(started) > giveUpAfter { break }
                do { try connection.send(Data([byte])) } catch { break }
                let (answer, _) = connection.readToEnd(timeout: pause)
                if !answer.isEmpty { return (String(decoding: answer, as: UTF8.self), Date().timeIntervalSince(started)) }
            }
            let (answer, _) = connection.readToEnd(timeout: 5)
            return (String(decoding: answer, as: UTF8.self), Date().timeIntervalSince(started))
        }
    }

    /// Slowloris: a head sent a byte at a time, each byte well within the read timeout.
    @Test func aHeadTrickledByteByByteGets408AtItsDeadline() async throws {
        let server = try Self.server {
            $0.readTimeout = 30
            $0.requestHeadTimeout = 1
        }
        defer { server.stop() }
        let head = "GET /ok HTTP/1.1\r\nHost: localhost\r\nX-Pad: \(String(repeating: "p", count: 200))\r\n\r\n"
        let (text, seconds) = try await Self.trickle(head, pause: 0.2, port: server.port)
        #expect(text.hasPrefix("HTTP/1.1 408 "), "\(text)")
        #expect(text.contains("head timeout of 1.0 seconds"), "\(text)")
        #expect(seconds < 15, "the 408 came after \(seconds) s")
        #expect(server.registry.journal.isEmpty)
    }

    @Test func aBodyTrickledBelowTheMinimumRateGets408() async throws {
        let server = try Self.server {
            $0.readTimeout = 1
            $0.minimumBodyBytesPerSecond = 100
        }
        defer { server.stop() }
        let (text, seconds) = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /ok HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n")
            let started = Date()
            while Date().timeIntervalSince(started) < 30 {
                do { try connection.send("b") } catch { break }
                let (answer, _) = connection.readToEnd(timeout: 0.3)
                if !answer.isEmpty { return (String(decoding: answer, as: UTF8.self), Date().timeIntervalSince(started)) }
            }
            return ("", Date().timeIntervalSince(started))
        }
        #expect(text.hasPrefix("HTTP/1.1 408 "), "\(text)")
        #expect(text.contains("slower than the server's minimum of 100 bytes a second"), "\(text)")
        #expect(seconds < 15, "the 408 came after \(seconds) s")
    }

    /// A body sent at a fair pace is not cut off by the rate, though it takes longer than the
    /// read timeout.
    @Test func aSteadyBodyIsNotCutOff() async throws {
        let server = try Self.server {
            $0.readTimeout = 2
            $0.minimumBodyBytesPerSecond = 100
        }
        defer { server.stop() }
        let response = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /ok HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2000\r\n\r\n")
            for _ in 0..<20 {
                try connection.send(String(repeating: "b", count: 100))
                Thread.sleep(forTimeInterval: 0.25)
            }
            return try connection.readResponse()
        }
        #expect(response.status == 200)
        #expect(response.text == "ok 2000")
    }

    /// Clients that announce large bodies and send none cost the server nothing.
    @Test func anAnnouncedLengthReservesNoMemory() async throws {
        let server = try Self.server { $0.maximumBodyBytes = 1 << 30 }
        defer { server.stop() }
        let before = Self.virtualMemoryBytes()
        let connections = try await offThePool {
            try (0..<48).map { _ in
                let connection = try RawConnection(port: server.port)
                try connection.send("POST /ok HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(1 << 30)\r\n\r\nx")
                return connection
            }
        }
        let deadline = Date().addingTimeInterval(20)
        while server.openConnections < 48, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(500))
        let grown = Self.virtualMemoryBytes() - before
        // Reserving what was announced would be 48 GB.
        #expect(grown < 8 << 30, "the address space grew by \(grown >> 20) MB")
        for connection in connections { connection.close() }
    }

    /// Linux: the process's address space (VmSize), the measure an `ulimit -v` limits.
    private static func virtualMemoryBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmSize:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
    }

    /// 40,000 distinct header names in one head (about 0.6 s here, idle): answered in linear
    /// time. Joining repeats by looking back over every field took minutes for as many.
    @Test func manyDistinctHeaderFieldsCostLinearTime() async throws {
        let server = try Self.server { $0.maximumHeaderBytes = 1024 * 1024 }
        defer { server.stop() }
        let fields = (0..<40_000).map { "X-F\($0): v\r\n" }.joined()
        // Timed on the client's thread: this task resumes only when the cooperative pool gets to
        // it, which can be tens of seconds after the answer while the suite runs.
        let (response, seconds) = try await offThePool {
            let started = Date()
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\(fields)\r\n")
            return (try connection.readResponse(timeout: 180), Date().timeIntervalSince(started))
        }
        #expect(response.status == 200)
        #expect(seconds < 90, "took \(seconds) s")
    }
}
#endif

#if os(Linux) || os(macOS)
/// A client that shuts its sending side after its request (`nc -N`, `shutdown(SHUT_WR)`) is
/// still reading: it gets its answer, and the journal says so.
@Suite("Serving stubs: a half-closed client")
struct HalfClosedClientTests {
    @Test func aClientThatShutItsSendingSideGetsItsAnswer() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/slow")) { _ in StubResponse(string: "answered").requestTime(0.3, responseTime: 0) }
        registry.stub(isPath("/fast")) { _ in StubResponse(string: "at once") }
        let server = try registry.serve()
        defer { server.stop() }
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
            s.sendall(b"GET /slow HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\nGET /fast HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n")
            s.shutdown(socket.SHUT_WR)
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            sys.stdout.write(data.decode())
            """
        let run = try await ExternalClients.runPython(script, [String(server.port)])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.hasPrefix("HTTP/1.1 200 "), "\(run.output)")
        #expect(run.output.contains("answered") && run.output.hasSuffix("at once"), "\(run.output)")
        let entries = registry.journal
        #expect(entries.map(\.statusCode) == [200, 200], "\(entries)")
        #expect(entries.allSatisfy { $0.errorDescription == nil }, "\(entries)")
    }
}
#endif

#if os(Linux) || os(macOS)
/// The connection cap follows the descriptor limit: past it, clients get 503, the process keeps
/// descriptors for everything else, and the server serves again once they leave.
@Suite("Serving stubs: the descriptor limit")
struct DescriptorLimitTests {
    @Test func connectionsNearTheDescriptorLimitGet503AndTheServerRecovers() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/ok")) { _ in StubResponse(string: "ok") }
        // A limit a little above the descriptors this process holds now: each connection
        // takes two of them here (the client's end and the server's).
        let lowestFree = open("/dev/null", O_RDONLY)
        close(lowestFree)
        var limits = StubServer.Limits()
        limits.descriptorLimit = Int(lowestFree) + 16 + 60
        let server = try registry.serve(limits: limits)
        defer { server.stop() }
        let statuses = try await offThePool {
            let connections = try (0..<80).map { _ in try RawConnection(port: server.port) }
            defer { for connection in connections { connection.close() } }
            return try connections.map { connection in
                try connection.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n")
                return try connection.readResponse(timeout: 20)
            }
        }
        // Tests running in parallel open descriptors too: how many of the 80 get 200 varies,
        // but none is left unanswered, and past the limit the answer is 503.
        let refused = statuses.filter { $0.status == 503 }
        #expect(!refused.isEmpty)
        #expect(statuses.allSatisfy { $0.status == 200 || $0.status == 503 })
        #expect(refused.first?.text.contains("ulimit -n") == true, "\(refused.first?.text ?? "")")
        // Once descriptors are free again, the server serves again.
        let served = try await offThePool {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n")
                if try connection.readResponse().status == 200 { return true }
                connection.close()
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }
        #expect(served)
    }
}
#endif
