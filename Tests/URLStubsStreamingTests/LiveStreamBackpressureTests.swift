import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import URLStubsStreaming
@testable import TestSupport

/// A live stream holds at most its buffer limit of bytes the app has not read, and nothing
/// meant for one request ever reaches another.
@Suite("Live streams under load")
struct LiveStreamBackpressureTests {
    @Test func aSlowDelegateReadingAHundredMegabytesKeepsTheStreamUnderItsLimit() async throws {
        let registry = StubRegistry()
        let limit = 4 * 1024 * 1024
        let stream = LiveStream(name: "bulk", bufferLimit: limit)
        registry.stub(.any) { _ in .stream(stream) }
        let reader = SlowReader(pause: 0.002)
        let session = registry.makeSession(delegate: reader)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request("https://api.test/bulk")).resume()
        try await stream.waitForConnection(timeout: patientWait)
        let chunk = Data(repeating: 7, count: 256 * 1024)
        let total = 100 * 1024 * 1024
        var written = 0
        while written < total {
            try await stream.waitForRoom(timeout: patientWait)
            try stream.send(chunk)
            written += chunk.count
        }
        try stream.finish()
        try await waitUntil(timeout: patientWait) { reader.isComplete }
        #expect(reader.error == nil)
        #expect(reader.received == total, "every byte arrived once")
        #expect(stream.peakUnsent <= limit, "at most the limit was ever held for the app (\(stream.peakUnsent) bytes)")
    }

    @Test func aWritePastTheLimitThrowsAndSaysWhatToDo() throws {
        let stream = LiveStream(name: "small", bufferLimit: 1_000)
        try stream.send(Data(count: 600))
        #expect(throws: StubError.library(StreamFailure.bufferFull(stream: stream.description, limit: 1_000, unsent: 600))) {
            try stream.send(Data(count: 600))
        }
        let message = StubError.library(StreamFailure.bufferFull(stream: stream.description, limit: 1_000, unsent: 600)).description
        #expect(message.contains("waitForRoom()"))
        #expect(message.contains("bufferLimit is 1000"))
    }

    @Test(arguments: [FetchAPI.delegate, .appleModel])
    func writesAfterTheReaderLeftAreNeverQueuedForTheNextRequest(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let stream = LiveStream(name: "feed")
        registry.stub(.any) { _ in .stream(stream, headers: ["Content-Type": "text/event-stream"]) }
        // The first reader: one event, then the app cancels.
        let recorder = DelegateRecorder()
        let cancel: @Sendable () -> Void
        var sessions: [URLSession] = []
        defer { sessions.forEach { $0.finishTasksAndInvalidate() } }
        #if !URLSTUBS_APPLE_LOADING
        if api == .appleModel {
            let model = appleModel(for: registry, delegate: recorder)
            let task = model.dataTask(with: cancellableRequest("https://api.test/feed"))
            task.resume()
            cancel = { task.cancel() }
        } else {
            let session = registry.makeSession(delegate: recorder)
            sessions.append(session)
            let task = session.dataTask(with: cancellableRequest("https://api.test/feed"))
            task.resume()
            cancel = { task.cancel() }
        }
        #else
        let session = registry.makeSession(delegate: recorder)
        sessions.append(session)
        let task = session.dataTask(with: cancellableRequest("https://api.test/feed"))
        task.resume()
        cancel = { task.cancel() }
        #endif
        try await stream.waitForConnection(timeout: patientWait)
        try stream.send("data: one\n\n")
        try await waitUntil(timeout: patientWait) { recorder.chunkCount == 1 }
        cancel()
        try await waitUntil(timeout: patientWait) { !stream.isConnected }
        let refused = #expect(throws: StubError.self) { try stream.send("data: meant for the first reader\n\n") }
        #expect(refused.map { "\($0)" }?.contains("the app cancelled the request") == true)

        // The next reader gets only what is written for it.
        let next = await withTaskGroup(of: FetchResult?.self) { group in
            group.addTask { await fetch(request("https://api.test/feed"), from: registry, using: api) }
            group.addTask {
                do {
                    // The second request to connect (the first call returned the first).
                    try await stream.waitForConnection(timeout: patientWait)
                    try stream.send("data: two\n\n")
                    try stream.finish()
                } catch {
                    Issue.record("\(error)")
                }
                return nil
            }
            var result: FetchResult?
            for await outcome in group { if let outcome { result = outcome } }
            return result
        }
        #expect(next?.body == "data: two\n\n")
    }
}

/// A delegate that takes its time over each chunk, as a slow app does.
private final class SlowReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the fields are read and written under `lock`.
    private let lock = NSLock()
    private let pause: TimeInterval
    private var bytes = 0
    private var done = false
    private var failure: (any Error)?

    init(pause: TimeInterval) { self.pause = pause }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        Thread.sleep(forTimeInterval: pause)
        lock.lock(); bytes += data.count; lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock(); done = true; failure = error; lock.unlock()
    }

    var received: Int { lock.lock(); defer { lock.unlock() }; return bytes }
    var isComplete: Bool { lock.lock(); defer { lock.unlock() }; return done }
    var error: (any Error)? { lock.lock(); defer { lock.unlock() }; return failure }
}
