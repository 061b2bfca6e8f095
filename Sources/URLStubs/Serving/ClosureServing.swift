import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request claimed for user code, for a transport that may have to give up on it while that
/// code runs: a server that stops cannot wait for ever, yet must leave the journal complete
/// when it returns. The code is a stub's response closure, or the closure matchers a lookup
/// meets (the lookup runs here then, and so does the response closure of the stub it finds).
///
/// ``respond()`` builds the response as the registry does for any closure stub (the lookup,
/// the closure, `onActivation`, the journal entry of a response that takes time) and hands
/// back the answer to play. ``abandon()``, called while that code still runs, journals the
/// request now as cancelled (`URLError(-999)`, no status) and runs `afterFinish` as for a
/// cancel before the head; what the code returns later is then dropped: it is not played,
/// journaled again or shown to `onActivation`.
package final class ClosureServing: Sendable {
    /// The stub that answers and its activation, once known.
    private struct Found: Sendable {
        let descriptor: StubDescriptor
        let matched: StubRequest
        let activation: StubDescriptor.Activation
    }

    private enum Phase: Sendable {
        case waiting
        /// User code runs: the lookup (`found` is `nil` until it found a stub) or the response closure.
        case running(Found?)
        case answered, abandoned
    }

    private let registry: StubRegistry
    /// The request before its lookup (its stub not known yet), or `nil`.
    private let lookup: StubRequest?
    private let state: StubRegistry.State
    private let arrival = Date()
    private let phase: Locked<Phase>

    init(registry: StubRegistry, descriptor: StubDescriptor, matched: StubRequest, activation: StubDescriptor.Activation, state: StubRegistry.State) {
        self.registry = registry
        self.state = state
        lookup = nil
        phase = Locked(.waiting)
        found = Found(descriptor: descriptor, matched: matched, activation: activation)
    }

    /// A request whose lookup meets a closure matcher: the lookup runs in ``respond()``.
    init(registry: StubRegistry, lookingUp request: StubRequest, state: StubRegistry.State) {
        self.registry = registry
        self.state = state
        lookup = request
        phase = Locked(.waiting)
        found = nil
    }

    /// The stub known when the request was claimed (a response closure's).
    private let found: Found?

    /// Runs the user code (off the loading context) and returns what to play, or, when the
    /// request was abandoned meanwhile, a cancel the journal already holds.
    package func respond() -> ExchangeAnswer {
        guard move(to: .running(found), when: Self.isWaiting) else { return Self.cancelled }
        if let found { return build(found) }
        guard let request = lookup else { return Self.cancelled }
        let resolution = StubRegistry.resolve(request, in: state.table)
        if case .stub(let descriptor, let matched, let activation) = resolution, descriptor.answer.runsUserCode {
            let found = Found(descriptor: descriptor, matched: matched, activation: activation)
            guard move(to: .running(found), when: Self.isRunning) else {
                descriptor.releaseActivation()
                return Self.cancelled
            }
            return build(found)
        }
        guard move(to: .answered, when: Self.isRunning) else {
            // Journaled as cancelled, with no stub: the stub found takes no activation for it.
            if case .stub(let descriptor, _, _) = resolution { descriptor.releaseActivation() }
            return Self.cancelled
        }
        return registry.answer(for: resolution, of: request, state: state)
    }

    /// Builds `found`'s response with its closure.
    private func build(_ found: Found) -> ExchangeAnswer {
        let (descriptor, matched, activation) = (found.descriptor, found.matched, found.activation)
        let built = Result { try descriptor.response(to: matched, activation: activation.index) }
        guard move(to: .answered, when: Self.isRunning) else { return Self.cancelled }
        switch built {
        case .success(let response):
            let plan = ExchangePlan(response, gate: response.gate ?? activation.gate, stubName: descriptor.description)
            if let hook = state.hooks.activation { registry.hooks.run { [matched, descriptor] in hook(matched, descriptor, response) } }
            var sequence: UInt64 = 0
            if plan.recordsOnArrival {
                // A response that takes time is journaled as it starts (a test waiting sees it).
                var entry = JournalEntry(request: matched, stub: descriptor, statusCode: nil, errorDescription: nil, date: arrival)
                entry.wentToNetwork = response.action.passesThrough
                entry.isInFlight = true
                sequence = registry.record(entry, scrubbing: state.scrubbing)
            }
            return .exchange(
                Exchange(
                    request: matched, stub: descriptor, plan: plan, journalSequence: sequence, arrival: arrival, claim: state,
                    keptHead: activation.keptHead))
        case .failure(let error):
            registry.record(
                JournalEntry(request: matched, stub: descriptor, statusCode: nil, errorDescription: describeError(error), date: arrival),
                scrubbing: state.scrubbing)
            let failure = SendableError(error: error)
            if let hook = state.hooks.finish { registry.hooks.run { [matched, descriptor] in hook(matched, descriptor, nil, failure.error) } }
            return .failure(failure)
        }
    }

    /// Gives up on a response not built yet: journals the request as cancelled now and returns
    /// `true`; `false` once the user code returned (its exchange is then journaled as it ends).
    /// A request abandoned during its lookup is journaled with the stub found so far, if any
    /// (none while a matcher runs: the entry is then an unmatched one, and `afterFinish`,
    /// which names a stub, is not called).
    package func abandon() -> Bool {
        let gaveUp: (Bool, Found?) = phase.withLock { phase in
            switch phase {
            case .waiting:
                phase = .abandoned
                return (true, found)
            case .running(let found):
                phase = .abandoned
                return (true, found)
            case .answered, .abandoned:
                return (false, nil)
            }
        }
        guard gaveUp.0 else { return false }
        let error = URLError(.cancelled)
        let request = gaveUp.1?.matched ?? lookup
        guard let request else { return true }
        let descriptor = gaveUp.1?.descriptor
        registry.record(
            JournalEntry(request: request, stub: descriptor, statusCode: nil, errorDescription: describeError(error), date: arrival),
            scrubbing: state.scrubbing)
        if let descriptor, let hook = state.hooks.finish { registry.hooks.run { hook(request, descriptor, nil, error) } }
        return true
    }

    private static func isWaiting(_ phase: Phase) -> Bool {
        if case .waiting = phase { return true }
        return false
    }

    private static func isRunning(_ phase: Phase) -> Bool {
        if case .running = phase { return true }
        return false
    }

    /// Moves to `next` when the phase is one `when` accepts; `false` (and no move) otherwise.
    private func move(to next: Phase, when accepts: (Phase) -> Bool) -> Bool {
        phase.withLock { phase in
            guard accepts(phase) else { return false }
            phase = next
            return true
        }
    }

    /// What an abandoned request answers: its cancel is journaled already.
    private static var cancelled: ExchangeAnswer { .failure(SendableError(error: URLError(.cancelled))) }
}
