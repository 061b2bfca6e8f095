#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import URLStubs
import URLStubsTestRunnerLink
@testable import TestSupport

/// The link's socket waits as long as it was asked to, whatever signals the process receives
/// (a child process ending, a profiler, a debugger): an interrupted wait resumes for the time
/// left instead of reporting "nothing came".
@Suite("Loopback socket")
struct LoopbackSocketTests {
    /// Runs `wait` on a thread of its own, interrupting it with a signal every 50 ms for the
    /// first `interruptingFor` seconds, and returns what it returned and how long it waited.
    private func interrupted<Value: Sendable>(
        for interruptingFor: TimeInterval, _ wait: @escaping @Sendable () throws -> Value
    ) async throws -> (value: Value, seconds: TimeInterval) {
        // A handler that does nothing: the signal's only effect is to interrupt a blocking call.
        signal(SIGUSR1) { _ in }
        let waiter = ThreadIdentity()
        let started = Date()
        let result = StartedOnItsOwnThread { () throws -> (value: Value, seconds: TimeInterval) in
            // A thread inherits the signal mask of the thread that started it, and the
            // cooperative pool's threads block most signals: an app's main thread does not.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            waiter.set(pthread_self())
            // The thread lives until the signals stop: a signal to an ended thread is undefined.
            defer { waiter.waitUntilReleased() }
            let begun = Date()
            let value = try wait()
            return (value, Date().timeIntervalSince(begun))
        }
        let thread = try await waiter.value()
        while Date().timeIntervalSince(started) < interruptingFor {
            pthread_kill(thread, SIGUSR1)
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        waiter.release()
        return try await result.value
    }

    @Test func anAcceptInterruptedBySignalsWaitsItsWholeTimeout() async throws {
        let (listener, _) = try LoopbackSocket.listen()
        defer { listener.close() }
        let (accepted, seconds) = try await interrupted(for: 0.6) { try listener.accept(timeout: 1) != nil }
        #expect(!accepted)
        #expect(seconds >= 0.95, "accept(timeout: 1) returned after \(seconds) s")
    }

    @Test func anAcceptInterruptedBySignalsStillTakesTheClientThatComesLater() async throws {
        let (listener, port) = try LoopbackSocket.listen()
        defer { listener.close() }
        let client = StartedOnItsOwnThread { () throws -> LoopbackSocket in
            Thread.sleep(forTimeInterval: 0.8)
            return try LoopbackSocket.connect(port: port)
        }
        let (accepted, _) = try await interrupted(for: 0.6) { try listener.accept(timeout: 60) }
        #expect(accepted != nil)
        try await client.value.close()
    }

    @Test func aReadInterruptedBySignalsGetsTheBytesThatComeLater() async throws {
        let (listener, port) = try LoopbackSocket.listen()
        defer { listener.close() }
        let client = try LoopbackSocket.connect(port: port)
        defer { client.close() }
        let server = try #require(try listener.accept(timeout: 60))
        defer { server.close() }
        let writer = StartedOnItsOwnThread {
            Thread.sleep(forTimeInterval: 0.8)
            try client.write(Data("late".utf8))
        }
        let (data, _) = try await interrupted(for: 0.6) { try server.read(count: 4, timeout: 60) }
        #expect(String(decoding: data, as: UTF8.self) == "late")
        try await writer.value
    }
}

/// The `pthread_t` of a thread that has started, handed to the test that signals it, and the
/// gate that keeps the thread alive while it may be signalled.
private final class ThreadIdentity: @unchecked Sendable {
    private let lock = NSLock()
    private var thread: pthread_t?
    private let released = DispatchSemaphore(value: 0)

    func waitUntilReleased() { released.wait() }

    func release() { released.signal() }

    func set(_ thread: pthread_t) {
        lock.lock(); defer { lock.unlock() }
        self.thread = thread
    }

    private var current: pthread_t? {
        lock.lock(); defer { lock.unlock() }
        return thread
    }

    func value() async throws -> pthread_t {
        while true {
            if let known = current { return known }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}
