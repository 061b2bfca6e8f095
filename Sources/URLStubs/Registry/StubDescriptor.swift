import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One registered stub: a matcher, a way to build the response, and its usage.
///
/// ``StubRegistry/stub(_:name:times:fileID:filePath:line:response:)`` returns it; keep it to remove the stub
/// later or to check how often it answered.
///
/// ```swift
/// let users = registry.stub(isPath("/users"), name: "users list") { _ in StubResponse(data: body) }
/// // … run the code under test …
/// #expect(users.activationCount == 1)
/// registry.remove(users)
/// ```
public final class StubDescriptor: @unchecked Sendable, CustomStringConvertible {
    /// The name given when the stub was added, if any.
    public let name: String?
    /// Which requests the stub answers.
    public let matcher: RequestMatcher
    /// Where the stub was declared.
    public let location: StubLocation
    /// How many times the stub may answer; `nil` for no limit. A used-up stub stops matching.
    public let maxActivations: Int?
    /// Increases with every stub added to any registry: newer stubs win.
    let sequence: UInt64
    /// The rank a lookup walks candidates by, highest first: a lower priority number
    /// (``StubDeclaration/priority``) above all stubs of higher numbers, then newer above older.
    let precedence: UInt64
    /// The declaration the stub was registered from, if it was.
    let origin: StubDeclaration?
    /// The scenario step the stub takes when it answers, if its declaration has one.
    let scenarioStepper: ScenarioStepper?
    /// How the stub builds its response.
    let answer: StubAnswer
    /// The plan of a constant answer, made once, when the stub is added (without the stub's
    /// own gate, which may be set later: ``reserveActivation()`` gives it).
    let constantPlan: ExchangePlan?

    private let fields = Locked(Fields())

    /// What the stub's lock guards.
    private struct Fields {
        var activations = 0
        var expectedCount: ExpectedCount?
        weak var owner: StubRegistry?
        var heldBy: ResponseGate?
        var reportsWhenUnused = false
        var responseProblems: [String] = []
        /// The last head built for this stub's responses (``head(_:)``).
        var lastHead: KeptHead?
    }

    init(
        name: String?, matcher: RequestMatcher, location: StubLocation, maxActivations: Int?,
        sequence: UInt64, answer: StubAnswer, priority: Int = StubDeclaration.defaultPriority, origin: StubDeclaration? = nil,
        scenarioStepper: ScenarioStepper? = nil
    ) {
        self.scenarioStepper = scenarioStepper
        self.name = name
        self.matcher = matcher
        self.location = location
        self.maxActivations = maxActivations
        self.sequence = sequence
        self.answer = answer
        self.origin = origin
        // Priorities above 2^20 rank as 2^20; 2^44 sequence numbers outlast any process.
        let band = UInt64(1 << 20) - UInt64(min(max(priority, 1), 1 << 20))
        precedence = band << 44 | (sequence & ((1 << 44) - 1))
        if case .constant(let response) = answer {
            constantPlan = ExchangePlan(response, gate: response.gate, stubName: Self.describe(name, matcher, location))
        } else {
            constantPlan = nil
        }
    }

    /// The response for `request`, the stub's `activation`-th (0-based) answer.
    func response(to request: StubRequest, activation: Int) throws -> StubResponse {
        try answer.response(to: request, activation: activation)
    }

    /// How many requests this stub has answered.
    public var activationCount: Int {
        fields.withLock { $0.activations }
    }

    /// How often the stub is expected to answer (``expect(_:)``), checked by
    /// ``StubRegistry/verify(includePassedThrough:)``; `nil` when the stub is optional.
    package var expectedActivations: ExpectedCount? {
        fields.withLock { $0.expectedCount }
    }

    /// Declares how often this stub must answer; ``StubRegistry/verify(includePassedThrough:)`` reports a stub
    /// whose ``activationCount`` breaks it.
    ///
    /// ```swift
    /// registry.stub(isPath("/token"), name: "refresh") { _ in … }.expect(.once)
    /// ```
    @discardableResult
    public func expect(_ count: ExpectedCount) -> StubDescriptor {
        fields.withLock { $0.expectedCount = count }
        return self
    }

    /// `true` for a stub replaying a recorded request whose disuse ``StubRegistry/verify(includePassedThrough:)``
    /// reports (`HARReplayOptions.reportsUnusedEntries`, in `URLStubsRecording`): a recording that holds requests
    /// the test no longer makes has rotted.
    package var isRecordedEntryReportedWhenUnused: Bool {
        get { fields.withLock { $0.reportsWhenUnused } }
        set { fields.withLock { $0.reportsWhenUnused = newValue } }
    }

    /// Why the stub's response cannot reach a client (a status outside 100...599, a header
    /// that cannot be sent, a body on a 204), each once: found when the stub was added (a
    /// constant answer) or when a request got such a response. Reported by
    /// ``StubRegistry/verify(includePassedThrough:)``.
    var invalidResponses: [String] {
        fields.withLock { $0.responseProblems }
    }

    func noteInvalidResponse(_ problem: String) {
        fields.withLock { fields in
            if !fields.responseProblems.contains(problem), fields.responseProblems.count < 8 { fields.responseProblems.append(problem) }
        }
    }

    /// The registry the stub was added to (set once, when it is added).
    var registry: StubRegistry? {
        get { fields.withLock { $0.owner } }
        set { fields.withLock { $0.owner = newValue } }
    }

    /// The gate that holds this stub's responses (``held(by:)``).
    var gate: ResponseGate? {
        get { fields.withLock { $0.heldBy } }
        set { fields.withLock { $0.heldBy = newValue } }
    }

    /// The stub's gate, made on first use: URLStubsMigration's `held()`.
    package func makeGate() -> ResponseGate {
        fields.withLock { fields in
            if let heldBy = fields.heldBy { return heldBy }
            let gate = ResponseGate()
            gate.bind(to: self)
            fields.heldBy = gate
            return gate
        }
    }

    /// `true` when the stub has a limit (``maxActivations``) and has reached it: it no longer
    /// matches.
    package var isUsedUp: Bool {
        guard let maxActivations else { return false }
        return activationCount >= maxActivations
    }

    /// One use of the stub, with what answering it needs of the stub's changing state, read
    /// in the same lock take.
    struct Activation {
        /// 0-based: how many requests the stub answered before this one.
        let index: Int
        /// The stub's gate (``held(by:)``) at that moment.
        let gate: ResponseGate?
        /// The head built for the stub's previous response (``head(_:)``).
        let keptHead: KeptHead?
    }

    /// A head built into an `HTTPURLResponse`, and what makes another head the same. A class:
    /// handed along with a request's activation, it costs one retain.
    final class KeptHead: @unchecked Sendable {
        // @unchecked: both fields are immutable; an HTTPURLResponse never changes once made.
        let key: ResponseHead.Key
        let response: HTTPURLResponse

        init(key: ResponseHead.Key, response: HTTPURLResponse) {
            self.key = key
            self.response = response
        }
    }

    /// Takes one use of the stub, atomically, so a `times(1)` stub answers only one of two
    /// simultaneous requests; `nil` when used up.
    func reserveActivation() -> Activation? {
        fields.withLock { fields in
            if let maxActivations, fields.activations >= maxActivations { return nil }
            fields.activations += 1
            return Activation(index: fields.activations - 1, gate: fields.heldBy, keptHead: fields.lastHead)
        }
    }

    /// Gives back an activation taken by ``reserveActivation()`` that was not used (a part of a
    /// split request whose other parts found no stub).
    func releaseActivation() {
        fields.withLock { fields in
            if fields.activations > 0 { fields.activations -= 1 }
        }
    }

    /// `head` as an `HTTPURLResponse`: the one built for this stub's previous response when
    /// the two heads are equal (URL, status, version, header fields, body length), else a new
    /// one, kept for the next. Building one costs Foundation about 18,000 instructions (it
    /// capitalizes every field name), most of what a stubbed request costs; an
    /// `HTTPURLResponse` cannot change once made, so a client cannot tell a shared one from a
    /// new one but by identity. `nil` when `HTTPURLResponse` refuses the status. `kept` is the
    /// head read with the request's activation: when it fits, no lock is taken.
    func head(_ head: ResponseHead, kept: KeptHead?) -> HTTPURLResponse? {
        let key = head.key
        if let kept, kept.key == key { return kept.response }
        let stored = fields.withLock { fields -> HTTPURLResponse? in
            guard let lastHead = fields.lastHead, lastHead.key == key else { return nil }
            return lastHead.response
        }
        if let stored { return stored }
        guard let made = head.response.head(for: head.url, bodyLength: head.bodyLength) else { return nil }
        fields.withLock { $0.lastHead = KeptHead(key: key, response: made) }
        return made
    }

    /// `"users list" (MyAppTests/UsersTests.swift:12)`, or, when the stub has no name, its matcher:
    /// `stub where path is "/me" (MyAppTests/ProfileTests.swift:9)`.
    public var description: String { Self.describe(name, matcher, location) }

    private static func describe(_ name: String?, _ matcher: RequestMatcher, _ location: StubLocation) -> String {
        if let name { return "\"\(name)\" (\(location))" }
        return "stub where \(matcher.description) (\(location))"
    }
}
