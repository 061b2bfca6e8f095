import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which stub answers a request: newest first, through the stub table's index.
extension StubRegistry {
    enum Resolution {
        case stub(StubDescriptor, StubRequest, activation: StubDescriptor.Activation)
        case invalid(StubDescriptor)
        /// The newest candidate matches only if the body (which cannot be read) does.
        case bodyUnknown(StubDescriptor)
        case unmatched
        /// A candidate's matcher is user code, which must not run here (see
        /// ``firstMatch(for:in:stoppingAtUserCode:)``).
        case deferred
    }

    /// Whether the registry, in `state`, takes `request` (no side effects: `canInit` may ask
    /// repeatedly).
    static func claims(_ request: StubRequest, in state: State) -> Bool {
        guard state.enabled else { return false }
        if state.policy == .fail { return true }
        let table = state.table
        if hasCandidate(for: request, in: table) { return true }
        // A request a strategy splits (a batch) is answered part by part.
        guard let split = split(request) else { return false }
        return split.parts.allSatisfy { hasCandidate(for: $0.request, in: table) }
    }

    /// The first registered strategy's split of `request`, if any strategy splits it.
    static func split(_ request: StubRequest) -> RequestSplit? {
        for strategy in RequestStrategies.registered {
            if let split = strategy.split(request) { return split }
        }
        return nil
    }

    private static func hasCandidate(for request: StubRequest, in table: StubTable) -> Bool {
        var found = false
        table.forEachCandidate(for: request) { descriptor, request in
            if !descriptor.matcher.problems.isEmpty { found = true; return true }
            if !descriptor.isUsedUp, descriptor.matcher.matches(request) { found = true; return true }
            return false
        }
        return found
    }

    /// Finds the stub of `table` that answers `request` and takes one of its activations.
    static func resolve(_ request: StubRequest, in table: StubTable) -> Resolution {
        let resolution = Self.firstMatch(for: request, in: table)
        if case .unmatched = resolution, let split = split(request) {
            return resolve(split, of: request, in: table)
        }
        return resolution
    }

    /// One stub per part of `split`, each activation taken, joined into a stub for the whole
    /// `request`. When a part finds no stub (or an invalid one, or needs the unknown body) the
    /// whole request resolves so, and no part keeps its activation.
    private static func resolve(_ split: RequestSplit, of request: StubRequest, in table: StubTable) -> Resolution {
        var answers: [AnsweredPart] = []
        func giveBack() { answers.forEach { $0.stub.releaseActivation() } }
        for part in split.parts {
            switch firstMatch(for: part.request, in: table) {
            case .stub(let descriptor, let matched, let activation):
                answers.append(AnsweredPart(part: part, stub: descriptor, request: matched, activation: activation.index))
            case .invalid(let descriptor):
                giveBack()
                return .invalid(descriptor)
            case .bodyUnknown(let descriptor):
                giveBack()
                return .bodyUnknown(descriptor)
            case .unmatched, .deferred:
                giveBack()
                return .unmatched
            }
        }
        guard let first = answers.first else { return .unmatched }
        let found = answers
        let join = split.join
        let descriptor = StubDescriptor(
            name: split.wholeName + " of " + found.map { $0.stub.name ?? $0.stub.matcher.description }.joined(separator: ", "),
            matcher: RequestMatcher(description: split.wholeName) { _ in .matched },
            location: first.stub.location, maxActivations: nil, sequence: 0,
            answer: .closure { _, _ in try join(found) })
        return .stub(descriptor, request, activation: StubDescriptor.Activation(index: 0, gate: nil, keptHead: nil))
    }

    /// The newest stub that accepts `request`, with one of its activations taken.
    ///
    /// With `stoppingAtUserCode`, a candidate whose matcher is user code (a closure) stops the
    /// search with ``Resolution/deferred`` before it runs: the loading context asks this way, and
    /// leaves such requests to the registry's user-code lane.
    static func firstMatch(for request: StubRequest, in table: StubTable, stoppingAtUserCode: Bool = false) -> Resolution {
        var resolution = Resolution.unmatched
        table.forEachCandidate(for: request) { descriptor, request in
            if stoppingAtUserCode, descriptor.matcher.runsUserCode {
                resolution = .deferred
                return true
            }
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
            if let stepper = descriptor.scenarioStepper, !stepper.advance() {
                // Another request moved the scenario on since the matcher read it.
                descriptor.releaseActivation()
                return false
            }
            var matched = request
            matched.pathParameters = result.captures
            resolution = .stub(descriptor, matched, activation: activation)
            return true
        }
        return resolution
    }

    /// The near-miss report for a request no stub matched.
    package func nearMissReport(for request: StubRequest) -> String {
        let state = snapshot()
        var report = UnmatchedReport(request: request, stubs: state.table.all, scrubbing: state.scrubbing)
        report.showsDeclarations = state.showsDeclarations
        return addingReportNotes(to: report.text)
    }

    /// `report` with the libraries' notes (``setReportNote(_:for:)``) under its headline: a
    /// request a replayed cassette lacks, say, is fixed by recording, not by a stub.
    func addingReportNotes(to report: String) -> String {
        let notes = reportNotes
        guard !notes.isEmpty else { return report }
        let note = notes.joined(separator: "\n")
        guard let headlineEnd = report.firstIndex(of: "\n") else { return report + "\n" + note }
        return report[..<headlineEnd] + "\n" + note + report[headlineEnd...]
    }
}
