import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
/// `stop()` waits at most 5 s: a response closure or a closure matcher still running then is
/// journaled as cancelled before `stop()` returns, and what it returns afterwards is dropped
/// (neither sent nor journaled again).
@Suite("Serving stubs: stopping past the deadline")
struct StopDeadlineTests {
    /// Serves `registry`, sends `GET path` on a raw connection, and stops the server once user
    /// code signals `started`: the connection, the journal as `stop()` returned, and how long
    /// `stop()` took.
    private static func stopWhileRunning(
        _ path: String, on registry: StubRegistry, started: DispatchSemaphore
    ) async throws -> (RawConnection, [JournalEntry], TimeInterval) {
        let server = try registry.serve()
        return try await offThePool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            _ = started.wait(timeout: .now() + 20)
            let began = Date()
            server.stop()
            return (connection, registry.journal, Date().timeIntervalSince(began))
        }
    }

    @Test func aClosureRunningPastTheDeadlineIsJournaledBeforeStopReturns() async throws {
        let registry = StubRegistry()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let finished = Locked<[String]>([])
        registry.afterFinish { request, _, _, error in
            let cancelled = (error as? URLError)?.code == .cancelled
            finished.withLock { $0.append("\(request.url?.path ?? "?") \(cancelled ? "cancelled" : "\(String(describing: error))")") }
        }
        let stuck = registry.stub(isPath("/stuck")) { _ in
            started.signal()
            _ = release.wait(timeout: .now() + 60)
            returned.signal()
            return StubResponse(string: "too late")
        }
        let (connection, journalAtReturn, took) = try await Self.stopWhileRunning("/stuck", on: registry, started: started)
        #expect(journalAtReturn.count == 1, "journal as stop() returned: \(journalAtReturn)")
        #expect(journalAtReturn.first?.errorDescription == "URLError(-999)", "\(journalAtReturn)")
        #expect(journalAtReturn.first?.statusCode == nil)
        #expect(journalAtReturn.first?.stub === stuck)
        #expect(took >= 4 && took < 40, "stop() took \(took) s")
        // The client got no answer, only the end of the connection.
        let (bytes, _) = try await offThePool { connection.readToEnd(timeout: 10) }
        #expect(bytes.isEmpty, "\(String(decoding: bytes, as: UTF8.self))")
        // The closure returns after stop(): nothing more reaches the journal.
        release.signal()
        _ = try await offThePool { returned.wait(timeout: .now() + 20) }
        try await Task.sleep(for: .milliseconds(500))
        #expect(registry.journal.count == 1, "journal after the closure returned: \(registry.journal)")
        // afterFinish hears of the cancel once (hooks run on their own lane: give it a moment).
        #expect(finished.withLock { $0 } == ["/stuck cancelled"])
        connection.close()
    }

    @Test func aClosureMatcherRunningPastTheDeadlineIsJournaledBeforeStopReturns() async throws {
        let registry = StubRegistry()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let answered = Locked(0)
        let slow = registry.stub(
            RequestMatcher("a slow matcher") { request in
                guard request.url?.path == "/slow" else { return false }
                started.signal()
                _ = release.wait(timeout: .now() + 60)
                returned.signal()
                return true
            }
        ) { _ in
            answered.withLock { $0 += 1 }
            return StubResponse(string: "too late")
        }
        let (connection, journalAtReturn, took) = try await Self.stopWhileRunning("/slow", on: registry, started: started)
        #expect(journalAtReturn.count == 1, "journal as stop() returned: \(journalAtReturn)")
        #expect(journalAtReturn.first?.errorDescription == "URLError(-999)", "\(journalAtReturn)")
        #expect(journalAtReturn.first?.statusCode == nil)
        #expect(journalAtReturn.first?.request.url?.path == "/slow")
        #expect(took >= 4 && took < 40, "stop() took \(took) s")
        let (bytes, _) = try await offThePool { connection.readToEnd(timeout: 10) }
        #expect(bytes.isEmpty, "\(String(decoding: bytes, as: UTF8.self))")
        // The matcher returns (a match) after stop(): its response is never built, nothing more
        // reaches the journal, and the stub keeps its activation for another request.
        release.signal()
        _ = try await offThePool { returned.wait(timeout: .now() + 20) }
        try await Task.sleep(for: .milliseconds(500))
        #expect(registry.journal.count == 1, "journal after the matcher returned: \(registry.journal)")
        #expect(answered.withLock { $0 } == 0)
        #expect(slow.activationCount == 0)
        connection.close()
    }
}
#endif
