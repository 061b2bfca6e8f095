import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The registry's side of an exchange: which stub answers, the hooks, the journal and the
/// exchange checkers. An ``ExchangePlayer`` plays what this answers and reports here how it
/// ended, once, from the ``Exchange`` itself, through the registry's ``RegistryExchangeHost``.
extension StubRegistry {
    func runUserCode(_ work: @escaping @Sendable () -> Void, watch: UserCodeWatch? = nil) {
        UserCodeRunner.shared.run(in: userCode, watch: watch, work)
    }

    /// ``answer(_:state:)`` with the registry's state now.
    func answer(_ request: StubRequest) -> ExchangeAnswer { answer(request, state: snapshot()) }

    /// Matches on the loading context as long as no matcher met is user code, and answers at
    /// once when the stub's answer is a value; the rest is handed back to run off it. `state` is
    /// the registry's state read when the request was claimed: every later step of the request
    /// reads that one (the exchange carries it), not the registry again.
    func answer(_ request: StubRequest, state: State) -> ExchangeAnswer {
        guard state.enabled else {
            // A redirect hop of a registry disabled meanwhile goes where unclaimed requests go.
            return .exchange(networkExchange(for: request, entry: 0, state: state))
        }
        let resolution = Self.firstMatch(for: request, in: state.table, stoppingAtUserCode: true)
        switch resolution {
        case .deferred, .unmatched:
            // A closure matcher, an unmatched request's report and a split request run every
            // matcher: off the loading context.
            return .needsUserCode { [self] in answer(for: Self.resolve(request, in: state.table), of: request, state: state) }
        case .stub(let descriptor, let matched, let activation) where descriptor.answer.runsUserCode:
            return .needsUserCode { [self] in respond(with: descriptor, to: matched, activation: activation, state: state) }
        case .stub, .invalid, .bodyUnknown:
            return answer(for: resolution, of: request, state: state)
        }
    }

    /// Builds `descriptor`'s response for `matched` and calls `onActivation`. The journal
    /// records the request now when its answer takes time (a test waiting for it sees it
    /// arrive); a response played at once is recorded whole when it ends, a few calls later.
    private func respond(
        with descriptor: StubDescriptor, to matched: StubRequest, activation: StubDescriptor.Activation, state: State
    ) -> ExchangeAnswer {
        let arrival = Date()
        do {
            let plan: ExchangePlan
            if let constant = descriptor.constantPlan {
                // Planned when the stub was added; only the stub's own gate may have come since.
                if constant.gate == nil, let gate = activation.gate { plan = constant.held(by: gate) } else { plan = constant }
            } else {
                let response = try descriptor.response(to: matched, activation: activation.index)
                plan = ExchangePlan(response, gate: response.gate ?? activation.gate, stubName: descriptor.description)
            }
            if let hook = state.hooks.activation { hooks.run { [response = plan.response] in hook(matched, descriptor, response) } }
            var sequence: UInt64 = 0
            if plan.recordsOnArrival {
                var entry = JournalEntry(request: matched, stub: descriptor, statusCode: nil, errorDescription: nil, date: arrival)
                entry.wentToNetwork = plan.response.action.passesThrough
                entry.isInFlight = true
                sequence = record(entry, scrubbing: state.scrubbing)
            }
            return .exchange(
                Exchange(
                    request: matched, stub: descriptor, plan: plan, journalSequence: sequence, arrival: arrival, claim: state,
                    keptHead: activation.keptHead))
        } catch {
            record(
                JournalEntry(request: matched, stub: descriptor, statusCode: nil, errorDescription: describeError(error), date: arrival),
                scrubbing: state.scrubbing)
            let failure = SendableError(error: error)
            if let hook = state.hooks.finish { hooks.run { hook(matched, descriptor, nil, failure.error) } }
            return .failure(failure)
        }
    }

    /// The answer for a lookup's `resolution`: the stub's response, or the request's failure,
    /// journaled (an unmatched request's report runs every matcher: off the loading context).
    func answer(for resolution: Resolution, of request: StubRequest, state: State) -> ExchangeAnswer {
        switch resolution {
        case .stub(let descriptor, let matched, let activation):
            return respond(with: descriptor, to: matched, activation: activation, state: state)
        case .invalid(let descriptor):
            let error = StubError.invalidMatcher(stub: descriptor.description, problems: descriptor.matcher.problems)
            record(
                JournalEntry(request: request, stub: descriptor, statusCode: nil, errorDescription: "\(error)", date: Date()),
                scrubbing: state.scrubbing)
            return .failure(SendableError(error: error))
        case .bodyUnknown(let descriptor):
            let error = StubError.requestBodyUnavailable(stub: descriptor.description, url: request.url?.absoluteString ?? "<no URL>")
            record(
                JournalEntry(request: request, stub: descriptor, statusCode: nil, errorDescription: "\(error)", date: Date()),
                scrubbing: state.scrubbing)
            if let hook = state.hooks.finish { hooks.run { hook(request, descriptor, nil, error) } }
            return .failure(SendableError(error: error))
        case .unmatched, .deferred:
            let entry = reportMissing(request, state: state)
            if state.policy == .passthrough {
                return .exchange(networkExchange(for: request, entry: entry, state: state))
            }
            // A URLError, because that is what app code handles; the StubError rides along.
            let error = StubError.unmatchedRequest(report: nearMissReport(for: request)).asURLError(url: request.url)
            return .failure(SendableError(error: error))
        }
    }

    /// An exchange with the real network, for a request no stub answers.
    private func networkExchange(for request: StubRequest, entry: UInt64, state: State) -> Exchange {
        Exchange(request: request, stub: .network, plan: .network, journalSequence: entry, arrival: Date(), claim: state)
    }

    /// Records an unmatched request and calls the `onMissing` hook; returns the journal entry.
    @discardableResult
    func reportMissing(_ request: StubRequest, state: State? = nil) -> UInt64 {
        let state = state ?? snapshot()
        var entry = JournalEntry(request: request, stub: nil, statusCode: nil, errorDescription: nil, date: Date())
        entry.wentToNetwork = state.unmatchedGoesToNetwork
        let sequence = record(entry, scrubbing: state.scrubbing)
        if let hook = state.hooks.missing { hooks.run { hook(request) } }
        return sequence
    }

    func exchange(
        _ exchange: Exchange?, reached event: ExchangeEvent, on scheduler: any DeliveryScheduler, then: (@Sendable () -> Void)?
    ) {
        // The state the request was claimed with; a request that failed before any exchange
        // (rare: no stub, a closure that threw) reads the registry's.
        let state = exchange?.claim ?? snapshot()
        if let exchange {
            switch event {
            case .redirecting(let next):
                // `onRedirect`, before the session's delegate is asked: the same moment on every
                // platform (OHHTTPStubs' `onStubRedirect` moment).
                if let hook = state.hooks.redirect {
                    // Read now, on the delivery context: the plan may change once the hook is
                    // queued (a redirect the delegate declines is delivered as the final response).
                    let (request, stub, response) = (exchange.request, exchange.stub, exchange.response)
                    hooks.run { hook(request, next, stub, response) }
                }
            case .ended:
                ended(exchange, state: state)
            }
        }
        guard let then else { return }
        if state.hooks.isEmpty { then() } else { hooks.afterHooks(on: scheduler, then) }
    }

    /// Writes what the client saw into the journal, tells the exchange checkers of a response
    /// that was delivered, and calls `afterFinish`.
    private func ended(_ exchange: Exchange, state: State) {
        let error = exchange.error
        let status = exchange.deliveredStatus, bytes = exchange.deliveredBytes
        let errorText = error.map(describeError)
        if exchange.journalSequence != 0 {
            completeJournalEntry(exchange.journalSequence) { entry in
                entry.statusCode = status
                entry.errorDescription = errorText
                entry.bodyBytesDelivered = bytes
                entry.isInFlight = false
            }
        } else if exchange.stub !== StubDescriptor.network {
            var entry = JournalEntry(
                request: exchange.request, stub: exchange.stub, statusCode: status, errorDescription: errorText, date: exchange.arrival)
            entry.bodyBytesDelivered = bytes
            entry.wentToNetwork = exchange.wentToNetwork
            exchange.journaled(as: record(entry, scrubbing: state.scrubbing))
        }
        if let stubError = error as? StubError, stubError.isInvalidResponse {
            exchange.stub.noteInvalidResponse(Self.withoutPrefix(stubError))
        }
        switch exchange.ending {
        case .finished, .redirected:
            ExchangeCheckers.tell(state.checkers, that: exchange)
        case .cancelled, .failed, nil:
            break
        }
        if let hook = state.hooks.finish {
            var response: StubResponse? = exchange.response
            if case .cancelled = exchange.ending, exchange.deliveredStatus == nil { response = nil }
            hooks.run { [response] in hook(exchange.request, exchange.stub, response, error) }
        }
    }
}

extension StubRegistry {
    /// An error's description without the library's `URLStubs: ` prefix, for a report line.
    static func withoutPrefix(_ error: any Error) -> String { ReportText.withoutLibraryPrefix("\(error)") }
}

/// A short, readable description of an error for the journal.
func describeError(_ error: any Error) -> String {
    if let urlError = error as? URLError { return "URLError(\(urlError.code.rawValue))" }
    return "\(error)"
}

/// A registry as an ``ExchangeHost``. A class of its own, made once per registry, because a
/// public type cannot conform to a protocol that is SPI; it holds its registry weakly, so a
/// session never keeps a registry alive (a released registry fails its requests clearly).
final class RegistryExchangeHost: ExchangeHost, @unchecked Sendable {
    // @unchecked: `registry` is set once, before the registry is used.
    weak var registry: StubRegistry?

    func answer(_ request: StubRequest) -> ExchangeAnswer {
        answer(request, claim: nil)
    }

    func answer(_ request: StubRequest, claim: RegistryClaim?) -> ExchangeAnswer {
        guard let registry else {
            return .failure(SendableError(error: StubError.registryReleased(url: request.url?.absoluteString ?? "<no URL>")))
        }
        return registry.answer(request, state: claim?.state ?? registry.snapshot())
    }

    func endWaitsForHooks(_ exchange: Exchange) -> Bool {
        // The state the exchange was claimed with is the one its end reads.
        !exchange.claim.hooks.isEmpty
    }

    func runUserCode(_ work: @escaping @Sendable () -> Void, watch: UserCodeWatch?) {
        if let registry {
            registry.runUserCode(work, watch: watch)
        } else {
            UserCodeRunner.shared.run(in: Self.orphans, watch: watch, work)
        }
    }

    func exchange(
        _ exchange: Exchange?, reached event: ExchangeEvent, on scheduler: any DeliveryScheduler, then: (@Sendable () -> Void)?
    ) {
        guard let registry else {
            then?()
            return
        }
        registry.exchange(exchange, reached: event, on: scheduler, then: then)
    }

    /// Where work of a registry released meanwhile runs (a body being read, say).
    private static let orphans = UserCodeRunner.Lane(limit: 4)
}

extension StubRegistry {
    /// The registry as the engine's transports talk to it: a transport of another target (the
    /// loopback server) starts its players with this.
    package var exchangeHost: any ExchangeHost { exchanges }
}
