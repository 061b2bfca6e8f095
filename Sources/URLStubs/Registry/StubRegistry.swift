import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a registry does with a request that no stub matches.
public enum UnmatchedRequestPolicy: Sendable, Equatable {
    /// The request goes on to the next protocol, usually the real network (OHHTTPStubs'
    /// behaviour, the default of ``StubRegistry/shared``).
    case passThrough
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
///     try StubResponse(jsonObject: ["users": []])
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

    private let lock = NSLock()
    private var table = StubTable()
    private var enabled = true
    private var policy: UnmatchedRequestPolicy
    private var hooks = Hooks()
    private var journalEntries: [JournalEntry] = []
    private var journalStart = 0
    private var journalSequence: UInt64 = 0
    private var unmatchedLedger = UnmatchedLedger()
    private var journalBodyLimitValue = 32 * 1024
    private let journalLimit = 10_000
    /// Tests waiting for requests (``waitForRequests(matching:count:timeout:)``).
    let journalWaiters = JournalWaiters()
    private var sharedCookies = false
    private var installedConfiguration: URLSessionConfiguration?
    /// Redirect counts and unmatched reports per task (Apple's loading system).
    let tasks = TaskLedger()
    /// Where hooks run, one at a time, in the order of the events they report: off the loading
    /// context, which the whole process shares, so a slow hook delays only other hooks.
    let hookQueue = DispatchQueue(label: "URLStubs.StubRegistry.hooks")

    private var scenarios: [(name: String, stubs: [StubDescriptor])] = []
    private var unmatchedExpectations: [ExpectedUnmatchedRequest] = []
    private let slotIndex: Int?

    nonisolated(unsafe) private static var nextSequence: UInt64 = 1
    private static let sequenceLock = NSLock()

    struct Hooks {
        var activation: (@Sendable (StubRequest, StubDescriptor, StubResponse) -> Void)?
        var redirect: (@Sendable (StubRequest, URLRequest, StubDescriptor, StubResponse) -> Void)?
        var finish: (@Sendable (StubRequest, StubDescriptor, StubResponse?, (any Error)?) -> Void)?
        var missing: (@Sendable (StubRequest) -> Void)?
    }

    /// A registry of its own, for one test or one component.
    /// - Parameter unmatchedRequests: What to do with a request no stub matches; by default
    ///   it fails with a near-miss report.
    public init(unmatchedRequests: UnmatchedRequestPolicy = .fail) {
        policy = unmatchedRequests
        let (protocolClass, index) = ProtocolClassPool.acquire()
        self.protocolClass = protocolClass
        self.slotIndex = index
        ProtocolClassPool.bind(index, to: self)
    }

    private init(shared: ()) {
        policy = .passThrough
        protocolClass = StubURLProtocol.self
        slotIndex = nil
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
        return add(matcher, name: name, times: limit, location: StubLocation(fileID: fileID, filePath: filePath, line: line)) { _, index in
            guard !responses.isEmpty else { return StubResponse(data: Data(), statusCode: 204) }
            return responses[min(index, responses.count - 1)]
        }
    }

    /// Adds a stub from its description (HAR replay and scenarios build these).
    func add(_ spec: StubSpec) -> StubDescriptor {
        add(spec.matcher, name: spec.name, times: spec.times, location: spec.location, responder: spec.responder)
    }

    func add(
        _ matcher: RequestMatcher, name: String?, times: Int?, location: StubLocation,
        responder: @escaping @Sendable (StubRequest, Int) throws -> StubResponse
    ) -> StubDescriptor {
        Self.sequenceLock.lock()
        let sequence = Self.nextSequence
        Self.nextSequence += 1
        Self.sequenceLock.unlock()
        let descriptor = StubDescriptor(
            name: name, matcher: matcher, location: location,
            maxActivations: times.map { max(0, $0) }, sequence: sequence, responder: responder)
        descriptor.registry = self
        lock.lock()
        table.add(descriptor)
        lock.unlock()
        if self === StubRegistry.shared { Self.registerSharedProtocolOnce() }
        return descriptor
    }

    /// Removes a stub; returns `false` when it was not in this registry. A request it is
    /// already answering completes normally.
    @discardableResult
    public func remove(_ descriptor: StubDescriptor) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return table.remove(descriptor)
    }

    /// Removes every stub (hooks and the journal stay).
    public func removeAll() {
        lock.lock(); defer { lock.unlock() }
        table.removeAll()
    }

    /// Every stub, in the order they were added.
    public var stubs: [StubDescriptor] {
        lock.lock(); defer { lock.unlock() }
        return table.all
    }

    /// When `false`, the registry claims no request: they go to the next protocol (usually
    /// the network) as if the registry were not installed.
    public var isEnabled: Bool {
        get { lock.lock(); defer { lock.unlock() }; return enabled }
        set { lock.lock(); enabled = newValue; lock.unlock() }
    }

    /// What happens to a request that no stub matches.
    public var unmatchedRequestPolicy: UnmatchedRequestPolicy {
        get { lock.lock(); defer { lock.unlock() }; return policy }
        set { lock.lock(); policy = newValue; lock.unlock() }
    }

    /// Lets stubs read and write `HTTPCookieStorage.shared`, on every platform.
    ///
    /// Off by default: the shared store is the test process's real cookie jar (on Linux a file
    /// under `~/.local/share`), and parallel tests would see each other's cookies through it.
    /// Sessions made by ``makeSession(configuration:delegate:delegateQueue:)`` have a cookie
    /// store of their own and need nothing. A `.default` configuration and `URLSession.shared`
    /// use the shared store: turn this on to keep cookies working there.
    public var storesCookiesInSharedStorage: Bool {
        get { lock.lock(); defer { lock.unlock() }; return sharedCookies }
        set { lock.lock(); sharedCookies = newValue; lock.unlock() }
    }

    /// Names of the active scenarios, the one with precedence last.
    public var activeScenarios: [String] {
        lock.lock(); defer { lock.unlock() }
        return scenarios.map(\.name)
    }

    /// Replaces the stubs recorded for a scenario; returns the previous ones.
    @discardableResult
    func setScenarioStubs(_ stubs: [StubDescriptor]?, for name: String) -> [StubDescriptor]? {
        lock.lock(); defer { lock.unlock() }
        let previous = scenarios.first { $0.name == name }?.stubs
        scenarios.removeAll { $0.name == name }
        if let stubs { scenarios.append((name, stubs)) }
        return previous
    }

    // MARK: Hooks

    /// Called when a stub is about to answer a request. `nil` removes the hook.
    public func onActivation(_ hook: (@Sendable (_ request: StubRequest, _ stub: StubDescriptor, _ response: StubResponse) -> Void)?) {
        lock.lock(); hooks.activation = hook; lock.unlock()
    }

    /// Called for each redirect a stub answers with, before the redirected request is
    /// looked up. `nil` removes the hook.
    public func onRedirect(
        _ hook: (@Sendable (_ request: StubRequest, _ redirectRequest: URLRequest, _ stub: StubDescriptor, _ response: StubResponse) -> Void)?
    ) {
        lock.lock(); hooks.redirect = hook; lock.unlock()
    }

    /// Called once a stubbed request ended: `error` is `nil` on success, the failure
    /// otherwise (`URLError(.cancelled)` when the caller cancelled). `nil` removes the hook.
    public func afterFinish(
        _ hook: (@Sendable (_ request: StubRequest, _ stub: StubDescriptor, _ response: StubResponse?, _ error: (any Error)?) -> Void)?
    ) {
        lock.lock(); hooks.finish = hook; lock.unlock()
    }

    /// Called for each request no stub matches, before the unmatched policy applies. `nil`
    /// removes the hook.
    public func onMissing(_ hook: (@Sendable (_ request: StubRequest) -> Void)?) {
        lock.lock(); hooks.missing = hook; lock.unlock()
    }

    /// One hook, read under the lock (copying all four would retain four closures).
    func hook<Hook>(_ read: (Hooks) -> Hook) -> Hook {
        lock.lock(); defer { lock.unlock() }
        return read(hooks)
    }

    /// Runs a hook (user code) on ``hookQueue``, never on the loading context: `call` receives
    /// the hook when one is set.
    func callHook<Hook: Sendable>(_ which: KeyPath<Hooks, Hook?>, _ call: @escaping @Sendable (Hook) -> Void) {
        guard let hook = hook({ $0[keyPath: which] }) else { return }
        hookQueue.async { call(hook) }
    }

    /// Runs `work` on `scheduler` once every hook called so far has run; at once when no
    /// hook is set.
    func afterHooks(on scheduler: any DeliveryScheduler, _ work: @escaping @Sendable () -> Void) {
        lock.lock()
        let anyHook = hooks.activation != nil || hooks.redirect != nil || hooks.finish != nil || hooks.missing != nil
        lock.unlock()
        guard anyHook else {
            work()
            return
        }
        hookQueue.async { scheduler.async(work) }
    }

    // MARK: Matching

    enum Resolution {
        case stub(StubDescriptor, StubRequest, activation: Int)
        case invalid(StubDescriptor)
        /// The newest candidate matches only if the body (which cannot be read) does.
        case bodyUnknown(StubDescriptor)
        case unmatched
    }

    private func snapshot() -> (StubTable, Bool, UnmatchedRequestPolicy) {
        lock.lock(); defer { lock.unlock() }
        return (table, enabled, policy)
    }

    /// `true` when the registry takes every request without looking at it: it is enabled and
    /// an unmatched request fails with a report instead of going to the network.
    var claimsEveryRequest: Bool {
        lock.lock(); defer { lock.unlock() }
        return enabled && policy == .fail
    }

    /// Whether the registry takes `request` (no side effects: `canInit` may ask repeatedly).
    func claims(_ request: StubRequest) -> Bool {
        let (table, enabled, policy) = snapshot()
        guard enabled else { return false }
        if policy == .fail { return true }
        if Self.hasCandidate(for: request, in: table) { return true }
        // A GraphQL batch is answered operation by operation.
        guard case .batch(let operations) = GraphQLRequest.read(request) else { return false }
        return operations.allSatisfy { Self.hasCandidate(for: request.answering($0), in: table) }
    }

    private static func hasCandidate(for request: StubRequest, in table: StubTable) -> Bool {
        var found = false
        table.forEachCandidate(for: request) { descriptor, request in
            if !descriptor.matcher.problems.isEmpty { found = true; return true }
            if !descriptor.isExhausted, descriptor.matcher.matches(request) { found = true; return true }
            return false
        }
        return found
    }

    /// Finds the stub that answers `request` and takes one of its activations.
    func resolve(_ request: StubRequest) -> Resolution {
        let table = snapshot().0
        let resolution = Self.firstMatch(for: request, in: table)
        if case .unmatched = resolution, let batch = resolveGraphQLBatch(request, in: table) {
            return batch
        }
        return resolution
    }

    /// The newest stub that accepts `request`, with one of its activations taken.
    static func firstMatch(for request: StubRequest, in table: StubTable) -> Resolution {
        var resolution = Resolution.unmatched
        table.forEachCandidate(for: request) { descriptor, request in
            if !descriptor.matcher.problems.isEmpty {
                resolution = .invalid(descriptor)
                return true
            }
            let result = descriptor.matcher.evaluate(request)
            guard result.isMatch else { return false }
            if result.dependsOnUnknownBody {
                resolution = .bodyUnknown(descriptor)
                return true
            }
            guard let activation = descriptor.reserveActivation() else { return false }
            var matched = request
            matched.pathParameters = result.captures
            resolution = .stub(descriptor, matched, activation: activation)
            return true
        }
        return resolution
    }

    /// The near-miss report for a request no stub matched.
    public func unmatchedReport(for request: StubRequest) -> String {
        UnmatchedReport(request: request, stubs: stubs).text
    }

    // MARK: Journal

    /// Every request this registry saw, matched or not, oldest first (the newest 10,000).
    ///
    /// Entries keep request bodies up to ``journalBodyLimit`` bytes (``JournalEntry/isBodyCut``
    /// says when one was cut). Verification does not read this ring: unexpected requests are
    /// counted apart from it, so none is forgotten however many requests follow.
    public var journal: [JournalEntry] {
        lock.lock(); defer { lock.unlock() }
        guard journalStart > 0 else { return journalEntries }
        return Array(journalEntries[journalStart...]) + journalEntries[..<journalStart]
    }

    /// Empties the journal: ``verify(includePassedThrough:)`` then judges only the requests
    /// made after this call (stubs keep their activation counts).
    ///
    /// ```swift
    /// _ = try? await session.data(from: URL(string: "https://api.example.com/missing")!)  // on purpose
    /// registry.resetJournal()   // that unmatched request is no longer reported
    /// ```
    public func resetJournal() {
        lock.lock()
        journalEntries.removeAll()
        journalStart = 0
        unmatchedLedger.removeAll()
        lock.unlock()
    }

    /// How many bytes of each request body the journal keeps (32 KiB by default): 10,000
    /// uploads of a megabyte must not hold 10 GB. Matchers, response closures and hooks always
    /// see the whole body; the first time each unexpected request came is also kept whole, for
    /// ``verify(includePassedThrough:)``'s analysis.
    public var journalBodyLimit: Int {
        get { lock.lock(); defer { lock.unlock() }; return journalBodyLimitValue }
        set { lock.lock(); journalBodyLimitValue = max(0, newValue); lock.unlock() }
    }

    /// Unmatched requests since the journal was last reset, each distinct one once.
    var unmatchedRequestGroups: (groups: [UnmatchedLedger.Group], overflow: Int) {
        lock.lock(); defer { lock.unlock() }
        return (unmatchedLedger.groups, unmatchedLedger.overflow)
    }

    /// Adds `entry` to the journal; returns its number, for ``completeJournalEntry(_:_:)``.
    @discardableResult
    func record(_ entry: JournalEntry) -> UInt64 {
        lock.lock(); defer { lock.unlock() }
        journalSequence += 1
        var entry = entry
        entry.sequence = journalSequence
        // Which requests go to the network, known only now: an unmatched one of a passThrough
        // registry (the policy is applied right after this call), or a stub's answer with
        // neither a status nor an error, which only a passthrough response records.
        if entry.stub == nil ? (enabled && policy == .passThrough) : (entry.statusCode == nil && entry.errorDescription == nil) {
            entry.wentToNetwork = true
        }
        if entry.isUnmatched { unmatchedLedger.add(entry) }
        entry.limitBody(to: journalBodyLimitValue)
        // A ring once full: dropping the oldest must not move 10,000 entries per request.
        if journalEntries.count < journalLimit {
            journalEntries.append(entry)
        } else {
            journalEntries[journalStart] = entry
            journalStart = (journalStart + 1) % journalLimit
        }
        journalWaiters.recorded(entry)
        return journalSequence
    }

    /// Changes the entry numbered `sequence`, if still in the journal (a passed-through request
    /// learns its status when the server answers). Searches from the newest entry: the one
    /// wanted is recent.
    func completeJournalEntry(_ sequence: UInt64, _ change: (inout JournalEntry) -> Void) {
        lock.lock(); defer { lock.unlock() }
        let count = journalEntries.count
        for offset in 0..<count {
            let index = (journalStart + count - 1 - offset) % count
            if journalEntries[index].sequence == sequence {
                change(&journalEntries[index])
                return
            }
            if journalEntries[index].sequence < sequence { return }
        }
    }

    /// Declarations of ``expectUnmatched(_:_:fileID:filePath:line:)``, oldest first.
    var expectedUnmatchedRequests: [ExpectedUnmatchedRequest] {
        lock.lock(); defer { lock.unlock() }
        return unmatchedExpectations
    }

    func addExpectedUnmatchedRequest(_ expectation: ExpectedUnmatchedRequest) {
        lock.lock(); unmatchedExpectations.append(expectation); lock.unlock()
    }

    // MARK: Sessions

    /// Puts this registry's protocol class first in `configuration.protocolClasses`, so
    /// sessions made from it are answered by this registry (and no other).
    ///
    /// Code under test that builds its own session can be stubbed in one line:
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// registry.install(into: configuration)
    /// let client = APIClient(configuration: configuration)
    /// ```
    ///
    /// The registry remembers this configuration: on Apple platforms a protocol cannot see its
    /// session, so the cookie store and `timeoutIntervalForRequest` of the configuration last
    /// installed into are the ones stubs use there (on Linux, each session's own are used).
    /// Install a registry into one configuration, or into several that share those settings.
    ///
    /// - Precondition: `configuration` is not a background configuration
    ///   (`URLSessionConfiguration.background(withIdentifier:)`): background sessions never
    ///   consult custom protocols, so a stubbed test would silently reach the network. This
    ///   stops with ``StubError/backgroundSessionUnsupported(identifier:)``'s message.
    public func install(into configuration: URLSessionConfiguration) {
        if let problem = Self.installationProblem(backgroundIdentifier: configuration.identifier) {
            preconditionFailure(problem.description)
        }
        var classes = (configuration.protocolClasses ?? []).filter { !($0 is StubURLProtocol.Type) }
        classes.insert(protocolClass, at: 0)
        configuration.protocolClasses = classes
        lock.lock(); installedConfiguration = configuration; lock.unlock()
    }

    /// Why a configuration cannot be stubbed, if it cannot: only a background configuration
    /// (one with an identifier; they exist on Apple platforms only) is refused.
    static func installationProblem(backgroundIdentifier: String?) -> StubError? {
        backgroundIdentifier.map { StubError.backgroundSessionUnsupported(identifier: $0) }
    }

    /// The configuration this registry was last installed into.
    var lastInstalledConfiguration: URLSessionConfiguration? {
        lock.lock(); defer { lock.unlock() }
        return installedConfiguration
    }

    /// Removes this registry's protocol class from `configuration`.
    public func uninstall(from configuration: URLSessionConfiguration) {
        configuration.protocolClasses = configuration.protocolClasses?.filter { $0 != protocolClass }
    }

    /// A session answered by this registry: an ephemeral configuration (its own cookie
    /// store) without a URL cache, with the registry installed. Stubbed responses are never
    /// cached, and corelibs' cache lookup costs a queue round trip per request (about 40 µs).
    public func makeSession(
        configuration: URLSessionConfiguration? = nil,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        let configuration =
            configuration
            ?? {
                let ephemeral = URLSessionConfiguration.ephemeral
                ephemeral.urlCache = nil
                return ephemeral
            }()
        install(into: configuration)
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
    }

    // MARK: Shared session

    nonisolated(unsafe) private static var sharedProtocolRegistered = false

    /// Registers ``StubURLProtocol`` with `URLProtocol.registerClass`, once, so
    /// `URLSession.shared` is answered by ``shared``. Adding a stub to ``shared`` calls this.
    ///
    /// On Linux `URLSession.shared` copies the registered classes the first time it is used:
    /// call this (or add a shared stub) before anything touches `URLSession.shared`, for
    /// example at the start of the test run or app launch. On Apple platforms it applies at
    /// any time.
    public static func activateForSharedSession() {
        registerSharedProtocolOnce()
    }

    private static let registrationLock = NSLock()

    private static func registerSharedProtocolOnce() {
        // Held through registerClass so no caller touches URLSession.shared in between.
        registrationLock.lock(); defer { registrationLock.unlock() }
        guard !sharedProtocolRegistered else { return }
        sharedProtocolRegistered = true
        _ = URLProtocol.registerClass(StubURLProtocol.self)
        #if !URLSTUBS_APPLE_LOADING
        // corelibs consults registered classes oldest first, and registers its own HTTP protocol
        // as soon as any session exists: move those behind ours so ours is asked first.
        for builtIn in URLSessionConfiguration.default.protocolClasses ?? [] where builtIn != StubURLProtocol.self {
            URLProtocol.unregisterClass(builtIn)
            _ = URLProtocol.registerClass(builtIn)
        }
        #endif
    }
}

/// A stub not yet added to a registry.
struct StubSpec: Sendable {
    var matcher: RequestMatcher
    var name: String?
    var times: Int?
    var location: StubLocation
    var responder: @Sendable (StubRequest, Int) throws -> StubResponse
}

/// Adds a stub to ``StubRegistry/shared``: the OHHTTPStubs-style global spelling.
///
/// ```swift
/// stub(isMethodPOST() && pathStartsWith("/upload")) { _ in
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
