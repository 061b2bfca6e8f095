import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// The engine's seam for bodies that arrive over time (`StubResponse(streamedBody:)`), driven by
/// sources written here: the engine alone plays pushed and scripted writes, tells a pushing
/// source what the app took and when the request left, and fails a request its source refuses.
@Suite("Streamed bodies through the engine's seam")
struct StreamedBodyTests {
    @Test(arguments: FetchAPI.allCases)
    func pushedWritesArriveInOrderAndAreAcknowledged(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let source = PushedSource()
        registry.stub(.any) { _ in StubResponse(streamedBody: source.play, headers: ["Content-Type": "text/plain"]) }
        let outcome = Outcome()
        let task = Task { outcome.set(await fetch(request("https://api.test/pushed"), from: registry, using: api)) }
        let connection = try await source.connection()
        connection.push(.data(Data("one ".utf8)))
        connection.push(.data(Data("two".utf8)))
        connection.push(.finish)
        await task.value
        let result = try #require(outcome.result)
        #expect(result.error == nil)
        #expect(result.body == "one two")
        #expect(result.response?.expectedContentLength == -1, "a streamed body has no length")
        if FetchAPI.streamingAPIs.contains(api) {
            #expect(result.chunks == [Data("one ".utf8), Data("two".utf8)], "one didReceive per write")
        }
        try await waitUntil(timeout: patientWait) { connection.consumedBytes == 7 }
        #expect(connection.departure == "the request that was reading it finished", "the engine lets go of the connection at the end")
    }

    @Test(arguments: FetchAPI.allCases)
    func scriptedWritesArriveAtTheirMomentsAndStopAtTheEnd(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let script: [(pause: TimeInterval, write: StreamedWrite)] = [
            (0, .data(Data("a".utf8))), (0.3, .data(Data("b".utf8))), (0, .failure(URLError(.networkConnectionLost))),
            (0, .data(Data("never".utf8))),
        ]
        registry.stub(isPath("/failing")) { _ in StubResponse(streamedBody: { _, _, _ in .scripted(script) }) }
        registry.stub(isPath("/ending")) { _ in StubResponse(streamedBody: { _, _, _ in .scripted([(0, .data(Data("x".utf8)))]) }) }
        let start = Date()
        let failing = await fetch("https://api.test/failing", from: registry, using: api)
        #expect(Date().timeIntervalSince(start) >= 0.3, "the second write waited for its pause")
        #expect(failing.urlError?.code == .networkConnectionLost)
        if FetchAPI.streamingAPIs.contains(api) {
            #expect(failing.chunks == [Data("a".utf8), Data("b".utf8)], "nothing after the failure")
        }
        let ending = await fetch("https://api.test/ending", from: registry, using: api)
        #expect(ending.error == nil && ending.body == "x", "a script without an end finishes after its last write")
    }

    @Test(arguments: FetchAPI.allCases)
    func aSourceThatRefusesFailsTheRequestBeforeAnyHead(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(.any, name: "refusing") { _ in
            StubResponse(streamedBody: { _, stub, _ in throw StubError.library(RefusingSource.refused(stub: stub, reason: "refused")) })
        }
        let result = await fetch("https://api.test/refused", from: registry, using: api)
        guard case .library(RefusingSource.refused(let stub, let reason))? = result.stubError else {
            Issue.record("expected the source's error, got \(String(describing: result.error))")
            return
        }
        #expect(stub.contains("\"refusing\"") && reason == "refused", "the source is told the stub's description")
        #expect(result.response == nil)
    }

    @Test func aCancelledRequestDisconnectsItsSourceWithTheReason() async throws {
        let registry = StubRegistry()
        let source = PushedSource()
        registry.stub(.any) { _ in StubResponse(streamedBody: source.play) }
        let recorder = DelegateRecorder()
        let session = registry.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: cancellableRequest("https://api.test/cancelled"))
        task.resume()
        let connection = try await source.connection()
        connection.push(.data(Data("one".utf8)))
        try await waitUntil(timeout: patientWait) { recorder.chunkCount == 1 }
        task.cancel()
        try await waitUntil(timeout: patientWait) { connection.departure != nil }
        #expect(connection.departure == "the app cancelled the request that was reading it")
    }

    @Test func headGetsTheHeadWithoutAskingTheSource() async {
        let registry = StubRegistry()
        let source = PushedSource()
        registry.stub(.any) { _ in StubResponse(streamedBody: source.play) }
        let result = await fetch(request("https://api.test/head", method: "HEAD"), from: registry)
        #expect(result.error == nil && result.statusCode == 200)
        #expect(source.connections == 0)
    }
}

/// A source that pushes what the test gives its connection.
private final class PushedSource: @unchecked Sendable {
    // @unchecked: the fields are read and written under `lock`.
    private let lock = NSLock()
    private var made: [PushedConnection] = []

    var connections: Int { lock.lock(); defer { lock.unlock() }; return made.count }
    private var first: PushedConnection? { lock.lock(); defer { lock.unlock() }; return made.first }

    @Sendable func play(_ request: StubRequest, _ stub: String, _ wake: @escaping @Sendable () -> Void) throws -> StreamedBodyPlay {
        let connection = PushedConnection(wake: wake)
        lock.lock(); made.append(connection); lock.unlock()
        return .pushed(connection)
    }

    /// The first connection, once a request made it.
    func connection() async throws -> PushedConnection {
        try await waitUntil(timeout: patientWait) { [self] in connections > 0 }
        return try #require(first)
    }
}

private final class PushedConnection: StreamedBodyConnection, @unchecked Sendable {
    // @unchecked: the fields are read and written under `lock`.
    private let lock = NSLock()
    private let wake: @Sendable () -> Void
    private var waiting: [StreamedWrite] = []
    private var consumed = 0
    private var left: String?

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    func push(_ write: StreamedWrite) {
        lock.lock(); waiting.append(write); lock.unlock()
        wake()
    }

    var consumedBytes: Int { lock.lock(); defer { lock.unlock() }; return consumed }
    var departure: String? { lock.lock(); defer { lock.unlock() }; return left }

    func take() -> [StreamedWrite] {
        lock.lock(); defer { lock.unlock() }
        let writes = waiting
        waiting.removeAll()
        return writes
    }

    func consumed(_ bytes: Int) { lock.lock(); consumed += bytes; lock.unlock() }
    func disconnect(reason: String) { lock.lock(); left = reason; lock.unlock() }
}

/// A library's failure as a streamed source throws it: the engine carries it to the request
/// as `StubError.library`, and a pattern reaches its case.
private enum RefusingSource: LibraryFailure {
    case refused(stub: String, reason: String)
    var code: Int { 1_000 }
    var description: String {
        switch self {
        case .refused(let stub, let reason): return "the source of \(stub) refused: \(reason)"
        }
    }
}
