import Foundation
import URLStubs

/// A response body the test writes while the app reads it: a live feed, server-sent events,
/// NDJSON, a chat's token stream.
///
/// A stub answers with it (`StubResponse.stream(_:statusCode:headers:)`, with the
/// `Content-Type` it sends: `text/event-stream` for server-sent events); the response head goes
/// out at once, and then each write reaches the app when it is made:
///
/// ```swift
/// let prices = LiveStream(name: "prices")
/// registry.stub(isPath("/prices")) { _ in .stream(prices, headers: ["Content-Type": "text/event-stream"]) }
/// feed.connect()                                          // the app opens the stream
/// try await prices.waitForConnection()
/// try prices.send(event: ServerSentEvent(event: "price", data: #"{"teapot":12}"#))
/// try await waitUntil { feed.prices == [12] }             // the app saw that event
/// try prices.send(event: ServerSentEvent(event: "price", data: #"{"teapot":13}"#))
/// try prices.finish()
/// ```
///
/// Writes are delivered on the loading context the moment they are made (no polling, no thread
/// waits for them), one `didReceive data` each. A write made before any request connected is
/// kept for the first one to connect, so a test may write before the app connects. Once a
/// connected request has gone away without the stream's end (the app cancelled it, it timed
/// out), a write throws `StreamFailure.notConnected` until another request
/// connects, and what the departed request had not received is dropped: nothing meant for one
/// request is ever sent to another (``finish(fileID:line:)`` then simply ends the stream). A
/// stream serves one request at a time: a second request
/// while one is connected fails with
/// `StreamFailure.liveStreamBusy`, and a stream whose end a request has received
/// cannot serve another (`StreamFailure.liveStreamEnded`): make one per
/// connection, for example `registry.stub(isPath("/events"), responses: [.stream(first), .stream(second)])`.
///
/// **Linux:** corelibs gives completion handlers and `async` `data(for:)` one body only, so those
/// receive everything at ``finish(fileID:line:)``; delegates receive each write as it is sent. On Apple
/// platforms every consumer, `bytes(for:)` included, sees each write as it is sent.
///
/// **Timeout:** the request's timeout applies to the gaps between writes: a stream the test
/// never finishes fails with `URLError(.timedOut)` once no write came for that long.
///
/// **Timing:** `requestTime` delays the head (and the connection); the body's pacing modifiers
/// (`responseTime`, `downloadSpeed`, `failing(afterBytes:)`, `truncated(afterBytes:)`) do not
/// apply, since each write goes out when the test makes it. Use ``fail(_:fileID:line:)`` to
/// drop the connection mid-stream.
///
/// **Memory:** at most `bufferLimit` bytes (an argument of ``init(name:bufferLimit:fileID:filePath:line:)``, 16 MiB by default) are written and not yet taken
/// by the app: on Linux a delegate has taken a write once its `didReceive data` has run; a
/// consumer that gets the body whole holds every write until the end. A write past the limit
/// throws `StreamFailure.bufferFull`; a test that streams more than
/// the limit to a slow reader waits for room first:
///
/// ```swift
/// for chunk in chunks {
///     try await stream.waitForRoom()
///     try stream.send(chunk)
/// }
/// ```
///
/// - Important: Misuse throws at the line that made it: a write after ``finish(fileID:line:)`` or
///   ``fail(_:fileID:line:)``, or ending twice, throws a `StubError` saying where the stream ended.
public final class LiveStream: @unchecked Sendable, CustomStringConvertible {
    /// The name given at creation, shown in errors.
    let name: String?
    /// Where the stream was created.
    let location: StubLocation

    /// The most bytes written and not yet taken by the app (see "Memory" above).
    let bufferLimit: Int

    private let lock = NSLock()
    private var pending: [StreamedWrite] = []
    /// Bytes written and not yet taken by the app: pending, or handed on and not yet read.
    private var unsent = 0
    /// The most ``unsent`` ever was, for tests of the bound.
    private(set) var peakUnsent = 0
    /// Why the last connected request went away without the end; writes throw until another
    /// connects.
    private var departure: String?
    /// Tests waiting for room (``waitForRoom(timeout:)``).
    private var roomWaiters: [PendingWait<Void>] = []
    /// How the stream ended and where (`"finished at PriceTests.swift:31"`), once it has.
    private var ending: String?
    /// `true` once a connected request has received the end.
    private var endDelivered = false
    private var connection: LiveConnection?
    /// Every request that connected, for ``waitForConnection(timeout:)``.
    private let connections = ArrivalLine<StubRequest>()

    /// A stream to answer requests with.
    /// - Parameters:
    ///   - name: Shown in errors (`live stream "prices" (MyAppTests/PriceTests.swift:8)`).
    ///   - bufferLimit: The most bytes written and not yet taken by the app (16 MiB by
    ///     default); a write past it throws.
    ///   - fileID: Where the stream is created, for errors; leave the default.
    ///   - filePath: The full path of that file; leave the default.
    ///   - line: The line of the creation; leave the default.
    public init(
        name: String? = nil, bufferLimit: Int = 16 * 1024 * 1024, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) {
        self.name = name
        self.bufferLimit = max(1, bufferLimit)
        self.location = StubLocation(fileID: fileID, filePath: filePath, line: line)
    }

    /// `live stream "prices" (MyAppTests/PriceTests.swift:8)`.
    public var description: String {
        name.map { "live stream \"\($0)\" (\(location))" } ?? "live stream (\(location))"
    }

    // MARK: Connection

    /// `true` while a request is connected (its head sent, its end not yet delivered).
    public var isConnected: Bool {
        lock.lock(); defer { lock.unlock() }
        return connection != nil
    }

    /// `true` once ``finish(fileID:line:)`` or ``fail(_:fileID:line:)`` was called: the test's
    /// own call, which a later write reports (`StreamFailure.writeAfterEnd`).
    var isEnded: Bool {
        lock.lock(); defer { lock.unlock() }
        return ending != nil
    }

    /// Waits for the next request to connect and returns it: the first call returns the first
    /// request that connected, the second call the second, and so on, at once when that
    /// request has already connected (even if it has finished since).
    /// - Parameter timeout: Seconds to wait before throwing; generous by default, since a
    ///   parallel test suite on a small machine can start a request seconds late.
    /// - Throws: `VerificationReport` when none connects in time; `CancellationError` when the
    ///   waiting task is cancelled.
    @discardableResult
    public func waitForConnection(timeout: TimeInterval = 30) async throws -> StubRequest {
        let awaited = "a request connected to the \(description)"
        return try await connections.next(timeout: timeout) {
            VerificationReport(
                awaited: awaited, timeout: timeout, matched: [], others: [], matcher: nil,
                hint: "Check that a stub answers with .stream(stream), and that the app sends its request.")
        }
    }

    /// Waits until the app has taken enough of what was written that at most half of the
    /// stream's `bufferLimit` is left unsent: the way to stream more than the limit to a slow reader.
    /// Returns at once when there is room.
    /// - Parameter timeout: Seconds to wait before throwing.
    /// - Throws: `VerificationReport` when the app reads too slowly;
    ///   `StreamFailure.notConnected` when the connected request goes away
    ///   meanwhile; `CancellationError` when the waiting task is cancelled.
    public func waitForRoom(timeout: TimeInterval = 30) async throws {
        let stream = description
        let limit = bufferLimit
        try await PendingWait<Void>.run(
            timeout: timeout,
            timeoutError: {
                VerificationReport(
                    awaited: "room to write to the \(stream) (at most \(limit / 2) bytes unsent)", timeout: timeout, matched: [], others: [],
                    matcher: nil, hint: "The app reads the stream more slowly than the test writes it, or has stopped reading.")
            },
            start: { wait in
                lock.lock()
                let outcome = roomOutcomeLocked()
                if outcome == nil { roomWaiters.append(wait) }
                lock.unlock()
                if let outcome { wait.resolve(outcome) }
            },
            finish: { wait in
                lock.lock()
                roomWaiters.removeAll { $0 === wait }
                lock.unlock()
            })
    }

    /// What a wait for room comes to now: room, a departed request, or `nil` (wait on).
    private func roomOutcomeLocked() -> Result<Void, any Error>? {
        if let departure, connection == nil { return .failure(StubError.library(StreamFailure.notConnected(stream: description, reason: departure))) }
        return unsent <= bufferLimit / 2 ? .success(()) : nil
    }

    /// Resolves the waits for room that can be. Call without the lock.
    private func settleRoomWaiters() {
        lock.lock()
        guard !roomWaiters.isEmpty, let outcome = roomOutcomeLocked() else {
            lock.unlock()
            return
        }
        let waiting = roomWaiters
        roomWaiters.removeAll()
        lock.unlock()
        for wait in waiting { wait.resolve(outcome) }
    }

    func write(_ write: StreamedWrite, ending newEnding: String?) throws {
        lock.lock()
        if let ending {
            lock.unlock()
            if newEnding == nil { throw StubError.library(StreamFailure.writeAfterEnd(stream: description, ended: ending)) }
            throw StubError.library(StreamFailure.endedTwice(stream: description, ended: ending))
        }
        if departure != nil, connection == nil {
            guard let newEnding else {
                let reason = departure ?? ""
                lock.unlock()
                throw StubError.library(StreamFailure.notConnected(stream: description, reason: reason))
            }
            // The end of a stream no one reads: it is over, and no later request gets it.
            ending = newEnding
            endDelivered = true
            lock.unlock()
            return
        }
        if case .data(let data) = write {
            guard unsent + data.count <= bufferLimit else {
                let current = unsent
                lock.unlock()
                throw StubError.library(StreamFailure.bufferFull(stream: description, limit: bufferLimit, unsent: current))
            }
            unsent += data.count
            peakUnsent = max(peakUnsent, unsent)
        }
        if let newEnding { ending = newEnding }
        pending.append(write)
        let wake = connection?.takeWake()
        lock.unlock()
        wake?()
    }

    // MARK: The player's side

    /// Connects a request of the stub described by `stub`; `wake` is called (from any thread)
    /// when writes wait to be taken with ``take(for:)``, once until they are taken.
    /// - Throws: `StreamFailure.liveStreamBusy` while another request is connected;
    ///   `StreamFailure.liveStreamEnded` once a request received the stream's end.
    func connect(_ request: StubRequest, stub: String, wake: @escaping @Sendable () -> Void) throws -> LiveConnection {
        lock.lock()
        if connection != nil {
            lock.unlock()
            throw StubError.library(StreamFailure.liveStreamBusy(stream: description, stub: stub))
        }
        if endDelivered {
            lock.unlock()
            throw StubError.library(StreamFailure.liveStreamEnded(stream: description, stub: stub))
        }
        let made = LiveConnection(stream: self, request: request, wake: wake)
        connection = made
        departure = nil
        connections.arrive(request)
        let wakeNow = pending.isEmpty ? nil : made.takeWake()
        lock.unlock()
        wakeNow?()
        return made
    }

    /// The writes waiting for `connection`, oldest first (none once it was disconnected).
    func take(for connection: LiveConnection) -> [StreamedWrite] {
        lock.lock(); defer { lock.unlock() }
        guard self.connection === connection else { return [] }
        connection.wakeScheduled = false
        let writes = pending
        pending.removeAll()
        if writes.contains(where: \.isEnd) {
            endDelivered = true
            self.connection = nil
        }
        return writes
    }

    /// The app has taken `bytes` of the writes `connection` was given (a delegate's
    /// `didReceive data` ran, or a whole body was delivered).
    func consumed(_ bytes: Int, by connection: LiveConnection) {
        lock.lock()
        if !connection.isDisconnected { unsent = max(0, unsent - bytes) }
        lock.unlock()
        settleRoomWaiters()
    }

    /// The request went away (`reason`: cancelled, timed out, failed) before the stream's end:
    /// what it had not received is dropped, and writes throw until another request connects.
    func disconnect(_ connection: LiveConnection, reason: String) {
        lock.lock()
        connection.isDisconnected = true
        if self.connection === connection {
            self.connection = nil
            departure = reason
            pending.removeAll { !$0.isEnd }
            unsent = 0
        }
        lock.unlock()
        settleRoomWaiters()
    }
}

/// One request connected to a ``LiveStream``: what the engine's player takes the writes from.
final class LiveConnection: StreamedBodyConnection, @unchecked Sendable {
    // @unchecked: `wakeScheduled` and `isDisconnected` are guarded by the stream's lock.
    /// Held until the request lets go of it (its end delivered, or gone away), and no longer:
    /// the stream holds this connection only as long.
    private let stream: LiveStream
    let request: StubRequest
    private let wake: @Sendable () -> Void
    var wakeScheduled = false
    /// Set when the request went away: its late acknowledgements no longer count.
    var isDisconnected = false

    init(stream: LiveStream, request: StubRequest, wake: @escaping @Sendable () -> Void) {
        self.stream = stream
        self.request = request
        self.wake = wake
    }

    func take() -> [StreamedWrite] { stream.take(for: self) }
    func consumed(_ bytes: Int) { stream.consumed(bytes, by: self) }
    func disconnect(reason: String) { stream.disconnect(self, reason: reason) }

    /// The wake call, unless one is already on its way. Call under the stream's lock.
    func takeWake() -> (@Sendable () -> Void)? {
        guard !wakeScheduled else { return nil }
        wakeScheduled = true
        return wake
    }
}

extension StreamedWrite {
    /// `true` for a write that ends the body.
    var isEnd: Bool {
        if case .data = self { return false }
        return true
    }
}
