import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a registry does with a request that no stub matches.
public enum UnmatchedRequestPolicy: Sendable, Equatable {
    /// The request goes on to the next protocol, usually the real network (OHHTTPStubs'
    /// behaviour, the default of ``StubRegistry/shared``).
    case passthrough
    /// The request fails with `URLError(.resourceUnavailable)` whose description is a near-miss
    /// report (the underlying error is `StubError.unmatchedRequest`; see ``StubError/from(_:)``): the closest stubs, why each refused, and a stub snippet that would match
    /// (the default of a registry you create, since a test that silently reaches the
    /// network is a bug).
    case fail
}

/// What a sequence stub does once every response has been used.
public enum SequenceEnd: Sendable {
    /// The last response answers every later request.
    case repeatLast
    /// The stub stops matching, as if removed.
    case exhaust
}

/// A thread-safe list of stubs, the hooks around them and the sessions they answer.
///
/// The most recently added stub whose matcher accepts a request answers it. A registry
/// answers the sessions it is installed into, and only those: two registries in two parallel
/// tests never see each other's requests. ``shared`` is the global registry for
/// `URLSession.shared` and for the free function ``URLStubs/stub(_:name:times:fileID:filePath:line:response:)``.
///
/// ```swift
/// let registry = StubRegistry()
/// registry.stub(isHost("api.example.com") && isPath("/users")) { _ in
///     try StubResponse(json: ["users": []])
/// }
/// let (data, _) = try await registry.makeSession().data(from: URL(string: "https://api.example.com/users")!)
/// ```
public final class StubRegistry: @unchecked Sendable {
    /// The global registry: answers `URLSession.shared` (see ``activateForSharedSession()``)
    /// and sessions it is installed into. Unmatched requests pass through to the network.
    public static let shared = StubRegistry(shared: ())

    /// The `URLProtocol` class that answers for this registry; ``install(into:)`` puts it
    /// first in a configuration's `protocolClasses`.
    public let protocolClass: AnyClass

    /// The registry's one lock, over ``Fields``. The journal (``requests``) and the task ledger
    /// have their own, so recording an entry never waits for the stubs.
    private let fields: Locked<Fields>
    /// This registry's slot in ``ProtocolClassPool`` (`nil` for ``shared``).
    let slotIndex: Int?

    /// What the registry's lock guards.
    private struct Fields {
        /// What answering a request reads, as one snapshot (``snapshot()``).
        var state: State
        /// Named groups of stubs a library switches as one (a scenario), the newest last.
        var stubGroups: [(name: String, stubs: [StubDescriptor])] = []
        var unmatchedExpectations: [ExpectedUnmatchedRequest] = []
        var refusedInstallations: [StubError] = []
        /// Notes a library shows under a near-miss report's headline, by the library's key.
        var reportNotes: [String: String] = [:]
    }

    /// Every request this registry saw (``journal``).
    let requests = RequestJournal(waiterLane: UserCodeRunner.Lane(limit: 1))
    /// Where `onActivation`, `onRedirect`, `afterFinish` and `onMissing` run.
    let hooks = StubHooks()
    /// The registry as its players see it (``RegistryExchangeHost``).
    let exchanges = RegistryExchangeHost()
    /// Redirect counts and unmatched reports per task (Apple's loading system).
    let tasks = TaskLedger()
    /// Where this registry's response closures, body streams and passthrough transforms run:
    /// at most 16 at once, so closures that block hold at most that many threads
    /// (``UserCodeRunner``).
    let userCode = UserCodeRunner.Lane(limit: 16)
    /// The gates declarations name (``gate(named:)``).
    let namedGates = NamedGates()
    /// The streams declarations name (``ResponseDefinition/Body/stream(_:)``).
    let namedStreams = NamedStreams()
    /// The states of the scenarios declarations step through (``scenarioState(_:)``).
    let stepStates = ScenarioStates()

    private static let nextSequence = Locked<UInt64>(1)

    /// A registry of its own, for one test or one component.
    /// - Parameter unmatchedRequests: What to do with a request no stub matches; by default
    ///   it fails with a near-miss report.
    public init(unmatchedRequests: UnmatchedRequestPolicy = .fail) {
        fields = Locked(Fields(state: State(policy: unmatchedRequests)))
        let (protocolClass, index) = ProtocolClassPool.acquire()
        self.protocolClass = protocolClass
        self.slotIndex = index
        exchanges.registry = self
        ProtocolClassPool.bind(index, to: self, claimsEverything: unmatchedRequests == .fail)
    }

    private init(shared: ()) {
        fields = Locked(Fields(state: State(policy: .passthrough)))
        protocolClass = StubURLProtocol.self
        slotIndex = nil
        exchanges.registry = self
    }

    deinit {
        if let slotIndex { ProtocolClassPool.release(slotIndex) }
    }

    // MARK: Stubs

    /// Adds a stub; the most recently added matching stub answers a request.
    ///
    /// - Parameters:
    ///   - matcher: Which requests the stub answers.
    ///   - name: Shown in reports and errors; recommended.
    ///   - times: How many requests the stub may answer before it stops matching (`nil`: no
    ///     limit). Concurrent requests never exceed it.
    ///   - fileID: Where the stub is declared, for reports; leave the default.
    ///   - filePath: The full path of that file, where test failures are recorded; leave the default.
    ///   - line: The line of the declaration; leave the default.
    ///   - response: Builds the response. It may `throw`: the request then fails with that
    ///     error.
    /// - Returns: The stub, to remove it or read its ``StubDescriptor/activationCount``.
    @discardableResult
    public func stub(
        _ matcher: RequestMatcher, name: String? = nil, times: Int? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        response: @escaping @Sendable (StubRequest) throws -> StubResponse
    ) -> StubDescriptor {
        add(matcher, name: name, times: times, location: StubLocation(fileID: fileID, filePath: filePath, line: line)) { request, _ in
            try response(request)
        }
    }

    /// Adds a stub that answers with `responses` in turn (for example 503, 503, 200), then
    /// repeats the last one or stops matching, as `afterLast` says. Concurrent requests each
    /// get a different response.
    @discardableResult
    public func stub(
        _ matcher: RequestMatcher, name: String? = nil, responses: [StubResponse],
        afterLast: SequenceEnd = .repeatLast,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) -> StubDescriptor {
        let limit = afterLast == .exhaust ? responses.count : nil
        return add(
            matcher, name: name, times: limit, location: StubLocation(fileID: fileID, filePath: filePath, line: line),
            answer: .sequence(responses))
    }

    /// Adds a stub from its description (HAR replay and scenarios build these).
    package func add(_ spec: StubSpec) -> StubDescriptor {
        add(spec.matcher, name: spec.name, times: spec.times, location: spec.location, answer: .closure(spec.responder))
    }

    func add(
        _ matcher: RequestMatcher, name: String?, times: Int?, location: StubLocation,
        responder: @escaping @Sendable (StubRequest, Int) throws -> StubResponse
    ) -> StubDescriptor {
        add(matcher, name: name, times: times, location: location, answer: .closure(responder))
    }

    func add(
        _ matcher: RequestMatcher, name: String?, times: Int?, location: StubLocation, answer: StubAnswer,
        priority: Int = StubDeclaration.defaultPriority, origin: StubDeclaration? = nil, scenarioStepper: ScenarioStepper? = nil
    ) -> StubDescriptor {
        let sequence = Self.nextSequence.withLock { next in
            defer { next += 1 }
            return next
        }
        let descriptor = StubDescriptor(
            name: name, matcher: matcher, location: location,
            maxActivations: times.map { max(0, $0) }, sequence: sequence, answer: answer, priority: priority, origin: origin,
            scenarioStepper: scenarioStepper)
        descriptor.registry = self
        // A response known now that no client could receive is reported by verify(), at the
        // stub's line, whether or not a request comes.
        for response in answer.knownResponses {
            do { try response.validate(stubName: descriptor.description) } catch { descriptor.noteInvalidResponse(Self.withoutPrefix(error)) }
        }
        change { $0.table.add(descriptor) }
        if self === StubRegistry.shared { Self.registerSharedProtocolOnce() }
        return descriptor
    }

    /// Removes a stub; returns `false` when it was not in this registry. A request it is
    /// already answering completes normally.
    @discardableResult
    public func remove(_ descriptor: StubDescriptor) -> Bool {
        change { $0.table.remove(descriptor) }
    }

    /// Removes every stub (hooks and the journal stay).
    public func removeAll() {
        change { $0.table.removeAll() }
    }

    /// Every stub, in the order they were added.
    public var stubs: [StubDescriptor] { snapshot().table.all }

    /// When `false`, the registry claims no request: they go to the next protocol (usually
    /// the network) as if the registry were not installed.
    public var isEnabled: Bool {
        get { snapshot().enabled }
        set { change { $0.enabled = newValue } }
    }

    /// What happens to a request that no stub matches.
    public var unmatchedRequestPolicy: UnmatchedRequestPolicy {
        get { snapshot().policy }
        set { change { $0.policy = newValue } }
    }

    /// What near-miss reports, ``verify(includePassedThrough:)``, journal descriptions and
    /// errors print as `<scrubbed>`: ``Scrubbing/default`` (the credential headers) unless
    /// set. `record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)` sets it to the
    /// recording's rules, so one declaration keeps a secret out of both the file and the logs.
    ///
    /// - Important: A registry that does not record and sees secrets in query parameters or
    ///   JSON fields must be told: `registry.scrubbing = .default.adding(queryParameters: ["api_key"])`.
    public var scrubbing: Scrubbing {
        get { snapshot().scrubbing }
        set { change { $0.scrubbing = newValue } }
    }

    /// Lets stubs read and write `HTTPCookieStorage.shared`, on every platform.
    ///
    /// Off by default: the shared store is the test process's real cookie jar (on Linux a file
    /// under `~/.local/share`), and parallel tests would see each other's cookies through it.
    /// Sessions made by ``makeSession(configuration:delegate:delegateQueue:)`` have a cookie
    /// store of their own and need nothing. A `.default` configuration and `URLSession.shared`
    /// use the shared store: turn this on to keep cookies working there.
    public var storesCookiesInSharedStorage: Bool {
        get { snapshot().sharedCookies }
        set { change { $0.sharedCookies = newValue } }
    }

    /// Names of the stub groups this registry holds, the newest last (a library's seam: a
    /// scenario is such a group).
    package var stubGroupNames: [String] {
        fields.withLock { $0.stubGroups.map(\.name) }
    }

    /// Replaces the stubs of the group `name` (`nil`: forgets the group) and returns the group's
    /// previous stubs; a replaced group becomes the newest. The stubs themselves are registered
    /// and removed by the caller.
    @discardableResult
    package func replaceStubGroup(named name: String, with stubs: [StubDescriptor]?) -> [StubDescriptor]? {
        fields.withLock { fields in
            let previous = fields.stubGroups.first { $0.name == name }?.stubs
            fields.stubGroups.removeAll { $0.name == name }
            if let stubs { fields.stubGroups.append((name, stubs)) }
            return previous
        }
    }

    // MARK: State the loading core reads

    /// The registry's state now: one lock, one retain.
    func snapshot() -> State {
        fields.withLock { $0.state }
    }

    /// Changes the state under the lock, copying it first when a request still reads it.
    @discardableResult
    func change<Result>(_ body: (State) -> Result) -> Result {
        fields.withLock { fields in
            if !isKnownUniquelyReferenced(&fields.state) { fields.state = fields.state.copy() }
            let claimedEverything = fields.state.claimsEverything
            let result = body(fields.state)
            // What `canInit` reads without this lock, kept with the protocol class's slot.
            if let slotIndex, fields.state.claimsEverything != claimedEverything {
                ProtocolClassPool.setClaimsEverything(fields.state.claimsEverything, at: slotIndex)
            }
            return result
        }
    }

    /// Sets (or, with `nil`, removes) the note that near-miss reports and `verify()` show under
    /// their headline for the library `key` (a library's seam: a replayed cassette says which
    /// one, and how to record what it lacks). Notes show in the order of their keys.
    package func setReportNote(_ note: String?, for key: String) {
        fields.withLock { $0.reportNotes[key] = note }
    }

    /// The notes of ``setReportNote(_:for:)``, in the order of their keys.
    var reportNotes: [String] {
        fields.withLock { fields in fields.reportNotes.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// The configuration this registry was last installed into.
    var lastInstalledConfiguration: URLSessionConfiguration? {
        get { snapshot().installedConfiguration }
        set { change { $0.installedConfiguration = newValue } }
    }

    /// Declarations of ``expectUnmatched(_:_:fileID:filePath:line:)``, oldest first.
    var expectedUnmatchedRequests: [ExpectedUnmatchedRequest] {
        fields.withLock { $0.unmatchedExpectations }
    }

    func addExpectedUnmatchedRequest(_ expectation: ExpectedUnmatchedRequest) {
        fields.withLock { $0.unmatchedExpectations.append(expectation) }
    }

    /// Why ``install(into:)`` left configurations unchanged (a background one), oldest first:
    /// ``verify(includePassedThrough:)`` reports each.
    var installationProblems: [StubError] {
        fields.withLock { $0.refusedInstallations }
    }

    func addInstallationProblem(_ problem: StubError) {
        fields.withLock { $0.refusedInstallations.append(problem) }
    }
}

/// A stub not yet added to a registry.
package struct StubSpec: Sendable {
    /// The requests the stub answers.
    package var matcher: RequestMatcher
    /// Its name in reports, or `nil`.
    package var name: String?
    /// How many times it answers, or `nil` for no limit.
    package var times: Int?
    /// Where it was declared, for reports.
    package var location: StubLocation
    /// The response to a request, given how many times the stub answered before.
    package var responder: @Sendable (StubRequest, Int) throws -> StubResponse
}

/// Adds a stub to ``StubRegistry/shared``: the OHHTTPStubs-style global spelling.
///
/// ```swift
/// stub(isMethod(.post) && pathStartsWith("/upload")) { _ in
///     StubResponse(data: Data(), statusCode: 201, headers: ["Location": "/files/1"])
/// }
/// ```
@discardableResult
public func stub(
    _ matcher: RequestMatcher, name: String? = nil, times: Int? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    response: @escaping @Sendable (StubRequest) throws -> StubResponse
) -> StubDescriptor {
    StubRegistry.shared.stub(matcher, name: name, times: times, fileID: fileID, filePath: filePath, line: line, response: response)
}
