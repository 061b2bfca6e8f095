import Foundation

/// Holds the responses of a stub until the test releases them: the request arrives, is
/// matched, its response is built and the hooks run, and then nothing is sent until
/// ``release()``. The test decides *when* the server answers, and can look at the app's
/// loading state meanwhile.
///
/// ```swift
/// let gate = ResponseGate()
/// registry.stub(isPath("/feed")) { _ in try StubResponse(json: ["items": []]) }.held(by: gate)
/// model.refresh()                                  // the app sends GET /feed
/// let request = try await gate.waitForRequest()    // it has arrived, and is held
/// #expect(model.isLoading)
/// gate.release()                                   // now the response goes out
/// ```
///
/// Several held requests queue up and are released oldest first, one per call
/// (``release()``, ``release(with:)``, ``fail(_:)``) or all together (``releaseAll()``).
/// A held request blocks no thread: any number can wait while the rest of the process runs.
///
/// A held request keeps its timeout: when it elapses the request fails with
/// `URLError(.timedOut)`, as a cancelled one ends with `.cancelled`, and the gate no longer
/// holds it (a later ``release()`` reports `false`). The request's `requestTime` counts from the
/// release.
///
/// - Important: Holding is for tests: a request nobody releases waits for its whole timeout
///   (60 s by default). Release every request the test made, or cancel it.
public final class ResponseGate: @unchecked Sendable, CustomStringConvertible {
    /// The gate's name, for a gate made with ``init(name:fileID:filePath:line:)``: shown in
    /// ``description`` and in errors.
    let name: String?
    /// The first stub that holds every response by this gate (``StubDescriptor/held(by:)``):
    /// an unnamed gate is described by it, and a wait that times out lists why its matcher
    /// refused the registry's requests.
    private let location: StubLocation?

    private let fields = Locked(Fields())
    /// Every request that reached the gate, for ``waitForRequest(timeout:)``.
    private let arrivals = ArrivalLine<StubRequest>()

    /// What the gate's lock guards.
    private struct Fields {
        weak var stub: StubDescriptor?
        var stubDescription: String?
        var held: [HeldRequest] = []
    }

    /// A gate, for holding every response of a stub (``StubDescriptor/held(by:)``) or chosen
    /// responses (``StubResponse/held(by:)``).
    /// - Parameters:
    ///   - name: Shown in errors and in ``description``.
    ///   - fileID: Where the gate is created; leave the default.
    ///   - filePath: The full path of that file; leave the default.
    ///   - line: The line of the creation; leave the default.
    public init(name: String? = nil, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) {
        self.name = name
        self.location = StubLocation(fileID: fileID, filePath: filePath, line: line)
    }

    /// Binds the gate to `stub`, which holds every response by it, unless it holds another
    /// stub's already.
    func bind(to stub: StubDescriptor) {
        let description = stub.description
        fields.withLock { fields in
            guard fields.stubDescription == nil else { return }
            fields.stub = stub
            fields.stubDescription = description
        }
    }

    /// `gate of "feed"` for an unnamed gate that holds a stub's responses, else
    /// `gate "second page" (MyAppTests/FeedTests.swift:12)`.
    public var description: String {
        let stubDescription = fields.withLock { $0.stubDescription }
        if name == nil, let stubDescription { return "gate of \(stubDescription)" }
        let place = location.map { " (\($0))" } ?? ""
        return name.map { "gate \"\($0)\"\(place)" } ?? "gate\(place)"
    }

    // MARK: Waiting

    /// Waits for the next request to reach the gate and returns it: the first call returns the
    /// first request held, the second call the second, and so on, whether or not they have been
    /// released since. Returns at once when that request has already arrived.
    ///
    /// - Parameter timeout: Seconds to wait before throwing; generous by default, since a
    ///   parallel test suite on a small machine can start a request seconds late.
    /// - Throws: ``VerificationReport`` when no request arrives in time: for a stub's gate it
    ///   lists the requests the registry saw and why the stub's matcher refused each.
    ///   `CancellationError` when the waiting task is cancelled.
    @discardableResult
    public func waitForRequest(timeout: TimeInterval = 30) async throws -> StubRequest {
        try await arrivals.next(timeout: timeout) { [weak self] () -> any Error in
            guard let self else { return CancellationError() }
            return timeoutError(after: timeout)
        }
    }

    /// The requests held now, oldest first.
    public var heldRequests: [StubRequest] {
        fields.withLock { $0.held.map(\.request) }
    }

    /// Every request that has reached the gate, oldest first, released or not. The test reads
    /// them one by one from ``waitForRequest(timeout:)`` (which returns an arrived request at
    /// once) and the registry's `journal` lists every request it saw.
    var requests: [StubRequest] { arrivals.all }

    // MARK: Releasing

    /// Sends the oldest held request's response, the one its stub built.
    /// - Returns: `false` when no request was held (none arrived yet, or the one that did has
    ///   already been released, timed out or been cancelled).
    @discardableResult
    public func release() -> Bool {
        releaseOldest(.asStubbed)
    }

    /// Answers the oldest held request with `response` instead of the one its stub built
    /// (`afterFinish` sees `response`; `onActivation` already saw the stub's own).
    /// - Returns: `false` when no request was held.
    @discardableResult
    public func release(with response: StubResponse) -> Bool {
        releaseOldest(.response(response))
    }

    /// Fails the oldest held request with `error` at once, like a dropped connection.
    ///
    /// ```swift
    /// gate.fail(URLError(.networkConnectionLost))
    /// ```
    /// - Returns: `false` when no request was held.
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
        releaseOldest(.failure(SendableError(error: error)))
    }

    /// Sends every held request's response, oldest first.
    /// - Returns: How many requests were released.
    @discardableResult
    public func releaseAll() -> Int {
        let all = fields.withLock { fields in
            defer { fields.held.removeAll() }
            return fields.held
        }
        for request in all { request.release(.asStubbed) }
        return all.count
    }

    private func releaseOldest(_ release: GateRelease) -> Bool {
        let oldest = fields.withLock { fields in fields.held.isEmpty ? nil : fields.held.removeFirst() }
        guard let oldest else { return false }
        oldest.release(release)
        return true
    }

    // MARK: The player's side

    /// Holds `request` until it is released; hands it to the oldest waiting
    /// ``waitForRequest(timeout:)``.
    func hold(_ request: HeldRequest) {
        fields.withLock { fields in
            fields.held.append(request)
            arrivals.arrive(request.request)
        }
    }

    /// Forgets `request`, which ended without being released (timed out, cancelled).
    func abandon(_ request: HeldRequest) {
        fields.withLock { fields in fields.held.removeAll { $0 === request } }
    }

    private func timeoutError(after timeout: TimeInterval) -> VerificationReport {
        let earlier = arrivals.all.count
        let stub = fields.withLock { $0.stub }
        let registry = stub?.registry
        let matcher = stub?.matcher
        let journal = registry?.journal ?? []
        let others = matcher.map { matcher in journal.filter { !matcher.matches($0.request) } } ?? []
        let before = earlier == 0 ? "" : " (the \(earlier) that arrived earlier went to earlier calls)"
        var hint = VerificationReport.noRequestSeenHint
        if stub == nil { hint = "Check that a stub answers with .held(by:) this gate, and that the app sends its request." }
        return VerificationReport(
            awaited: "a new request held by the \(description)\(before)", timeout: timeout,
            matched: [], others: others, matcher: matcher, hint: hint)
    }
}

/// How a held request goes on.
enum GateRelease: Sendable {
    /// With the response its stub built.
    case asStubbed
    case response(StubResponse)
    case failure(SendableError)
}

/// A request waiting at a gate; releasing it hands the decision to its player.
final class HeldRequest: Sendable {
    let request: StubRequest
    private let onRelease: @Sendable (GateRelease) -> Void

    init(request: StubRequest, onRelease: @escaping @Sendable (GateRelease) -> Void) {
        self.request = request
        self.onRelease = onRelease
    }

    func release(_ release: GateRelease) { onRelease(release) }
}

extension StubDescriptor {
    /// Holds every response of this stub by `gate` until the test releases it. An unnamed
    /// gate is then described by this stub, and a wait for it that times out lists why this
    /// stub refused the registry's requests.
    ///
    /// ```swift
    /// let gate = ResponseGate()
    /// registry.stub(isPath("/checkout")) { _ in StubResponse(statusCode: 201) }.held(by: gate)
    /// app.placeOrder()
    /// try await gate.waitForRequest()
    /// #expect(app.state == .placingOrder)
    /// gate.release()
    /// ```
    ///
    /// - Important: Every request this stub answers is held, from now on: release each one
    ///   (``ResponseGate/releaseAll()``), or it waits for its timeout.
    @discardableResult
    public func held(by gate: ResponseGate) -> StubDescriptor {
        gate.bind(to: self)
        self.gate = gate
        return self
    }
}

extension StubResponse {
    /// This response, held by `gate` until the test releases it: for holding only some
    /// responses of a stub (the second page, the retry); ``StubDescriptor/held(by:)`` holds
    /// every response of a stub.
    ///
    /// ```swift
    /// let gate = ResponseGate(name: "second page")
    /// registry.stub(isPath("/items"), responses: [page1, page2.held(by: gate)])
    /// ```
    public func held(by gate: ResponseGate) -> StubResponse {
        var copy = self
        copy.gate = gate
        return copy
    }
}
