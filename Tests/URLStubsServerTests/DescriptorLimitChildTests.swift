import Foundation
import Testing
import URLStubs
import URLStubsServer

#if os(Linux)
/// The descriptor limit as `ulimit -n 256` (macOS's default) sets it, in a child process of
/// its own: more connections than descriptors get `503` before the process runs out, and the
/// child neither crashes nor leaves a request unanswered.
@Suite("Serving stubs: a ulimit-limited process")
struct DescriptorLimitChildTests {
    static let childVariable = "URLSTUBS_ULIMIT_CHILD"

    @Test func aServerUnderUlimit256RefusesBeforeDescriptorsRunOut() async throws {
        try await runChild("childServesUnderItsDescriptorLimit")
    }

    /// The process has no descriptor left when a connection arrives (descriptors taken by
    /// other code, which the server's ceiling cannot foresee): the connection still gets its
    /// `503`, through the descriptor the server keeps spare, instead of waiting unanswered in
    /// the listen queue; once descriptors are free again, the next one is served.
    @Test func aServerWithNoDescriptorLeftStillAnswers503() async throws {
        try await runChild("childAnswersWhenNoDescriptorIsLeft")
    }

    /// Runs the test `name` of this suite in a child process of this test binary under
    /// `ulimit -n 256`, and expects it to pass and print `CHILD-OK`. Does nothing in the child.
    private func runChild(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] == nil else { return }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0])
        guard binary.pathExtension == "xctest" else {
            print("SKIPPED: the child is the .xctest binary swift test runs on Linux")
            return
        }
        let script = "ulimit -n 256 && \(Self.childVariable)=1 exec \"$0\" --testing-library swift-testing --filter \(name)"
        let run = try await ExternalClients.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, binary.path], timeout: 120)
        #expect(run.status == 0, "\(run.output.suffix(2_000))", sourceLocation: sourceLocation)
        #expect(run.output.contains("CHILD-OK"), "\(run.output.suffix(2_000))", sourceLocation: sourceLocation)
    }

    /// Runs only in the child: every descriptor but one is taken, the client's socket takes
    /// that one, so the server has none to accept the connection into.
    @Test func childAnswersWhenNoDescriptorIsLeft() async throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else { return }
        let registry = StubRegistry()
        registry.stub(isPath("/ok")) { _ in StubResponse(string: "ok") }
        let server = try registry.serve()
        defer { server.stop() }
        let (refused, servedAfter) = try await offThePool { () throws -> (RawConnection.Response?, Int) in
            var fillers: [Int32] = []
            while true {
                let filler = open("/dev/null", O_RDONLY)
                guard filler >= 0 else { break }
                fillers.append(filler)
            }
            close(fillers.removeLast())
            let refused: RawConnection.Response?
            do {
                let connection = try RawConnection(port: server.port)
                defer { connection.close() }
                try connection.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n")
                refused = try? connection.readResponse(timeout: 20)
            }
            for filler in fillers { close(filler) }
            let next = try RawConnection(port: server.port)
            defer { next.close() }
            try next.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n")
            return (refused, try next.readResponse(timeout: 20).status)
        }
        #expect(refused?.status == 503, "\(String(describing: refused))")
        #expect(refused?.text.contains("file descriptors") == true, "\(String(describing: refused))")
        #expect(servedAfter == 200)
        print("CHILD-OK")
    }

    /// Runs only in the child: 150 connections from this very process (300 descriptors
    /// with the server's ends, under a limit of 256).
    @Test func childServesUnderItsDescriptorLimit() async throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else { return }
        let registry = StubRegistry()
        registry.stub(isPath("/ok")) { _ in StubResponse(string: "ok") }
        let server = try registry.serve()
        defer { server.stop() }
        let statuses = try await offThePool {
            var connections: [RawConnection] = []
            defer { for connection in connections { connection.close() } }
            for _ in 0..<150 {
                // Descriptors inherited from the parent leave fewer here: when this process's
                // own socket() fails, the last connection took the descriptor the server
                // needed to accept it, and is dropped (the server then answers it unread).
                guard let connection = try? RawConnection(port: server.port) else {
                    connections.removeLast().close()
                    break
                }
                try connection.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n")
                connections.append(connection)
            }
            return connections.map { (try? $0.readResponse(timeout: 20))?.status ?? 0 }
        }
        let refused = statuses.filter { $0 == 503 }.count
        let served = statuses.filter { $0 == 200 }.count
        #expect(refused > 0, "\(statuses)")
        #expect(refused + served == statuses.count, "unanswered: \(statuses)")
        let again = try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n")
            return try connection.readResponse(timeout: 20).status
        }
        #expect(again == 200)
        print("CHILD-OK served \(served), refused \(refused)")
    }
}
#endif
