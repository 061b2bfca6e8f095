import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request claimed by a stub whose response is a closure, for a transport that may have to
/// give up on it while the closure runs: a server that stops cannot wait for ever, yet must
/// leave the journal complete when it returns.
///
/// ``respond()`` builds the response as the registry does for any closure stub (the closure,
/// `onActivation`, the journal entry of a response that takes time) and hands back the
/// answer to play. ``abandon()``, called while the closure still runs, journals the request
/// now as cancelled (`URLError(-999)`, no status) and runs `afterFinish` as for a cancel
/// before the head; the response the closure returns later is then dropped: it is not
/// played, journaled again or shown to `onActivation`.
package final class ClosureServing: Sendable {
    private enum Phase {
        case waiting, running, answered, abandoned
    }

    private let registry: StubRegistry
    private let descriptor: StubDescriptor
    private let matched: StubRequest
    private let activation: StubDescriptor.Activation
    private let state: StubRegistry.State
    private let arrival = Date()
    private let phase = Locked(Phase.waiting)

    init(registry: StubRegistry, descriptor: StubDescriptor, matched: StubRequest, activation: StubDescriptor.Activation, state: StubRegistry.State) {
        self.registry = registry
        self.descriptor = descriptor
        self.matched = matched
        self.activation = activation
        self.state = state
    }

    /// Runs the stub's closure (user code: off the loading context) and returns what to play,
    /// or, when the request was abandoned meanwhile, a cancel the journal already holds.
    package func respond() -> ExchangeAnswer {
        guard move(from: .waiting, to: .running) else { return Self.cancelled }
        let built = Result { try descriptor.response(to: matched, activation: activation.index) }
        guard move(from: .running, to: .answered) else { return Self.cancelled }
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
    /// `true`; `false` once the closure returned (its exchange is then journaled as it ends).
    package func abandon() -> Bool {
        let gaveUp = phase.withLock { phase in
            guard phase == .waiting || phase == .running else { return false }
            phase = .abandoned
            return true
        }
        guard gaveUp else { return false }
        let error = URLError(.cancelled)
        registry.record(
            JournalEntry(request: matched, stub: descriptor, statusCode: nil, errorDescription: describeError(error), date: arrival),
            scrubbing: state.scrubbing)
        if let hook = state.hooks.finish { registry.hooks.run { [matched, descriptor] in hook(matched, descriptor, nil, error) } }
        return true
    }

    private func move(from: Phase, to: Phase) -> Bool {
        phase.withLock { phase in
            guard phase == from else { return false }
            phase = to
            return true
        }
    }

    /// What an abandoned request answers: its cancel is journaled already.
    private static var cancelled: ExchangeAnswer { .failure(SendableError(error: URLError(.cancelled))) }
}
