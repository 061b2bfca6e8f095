import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The registry's side of an exchange: which stub answers, the hooks, the journal and the
/// exchange checkers. An ``ExchangePlayer`` plays what this answers and reports here how it
/// ended, once, from the ``Exchange`` itself.
extension StubRegistry: ExchangeHost {
    package func runUserCode(_ work: @escaping @Sendable () -> Void) {
        UserCodeRunner.shared.run(in: userCode, work)
    }

    /// Matches on the loading context as long as no matcher met is user code, and answers at
    /// once when the stub's answer is a value; the rest is handed back to run off it.
    package func answer(_ request: StubRequest) -> ExchangeAnswer {
        let state = snapshot()
        guard state.enabled else {
            // A redirect hop of a registry disabled meanwhile goes where unclaimed requests go.
            return .exchange(networkExchange(for: request, entry: 0, scrubbing: state.scrubbing))
        }
        let resolution = Self.firstMatch(for: request, in: state.table, stoppingAtUserCode: true)
        switch resolution {
        case .deferred, .unmatched:
            // A closure matcher, an unmatched request's report and a GraphQL batch run every
            // matcher: off the loading context.
            return .needsUserCode { [self] in answer(for: resolve(request), of: request) }
        case .stub(let descriptor, let matched, let activation) where descriptor.answer.runsUserCode:
            return .needsUserCode { [self] in respond(with: descriptor, to: matched, activation: activation, scrubbing: state.scrubbing) }
        case .stub, .invalid, .bodyUnknown:
            return answer(for: resolution, of: request)
        }
    }

    /// Builds `descriptor`'s response for `matched`, calls `onActivation` and opens the
    /// journal entry the exchange completes when it ends.
    private func respond(with descriptor: StubDescriptor, to matched: StubRequest, activation: Int, scrubbing: Scrubbing)
        -> ExchangeAnswer
    {
        do {
            let response = try descriptor.response(to: matched, activation: activation)
            hooks.call(\.activation) { $0(matched, descriptor, response) }
            var entry = JournalEntry(request: matched, stub: descriptor, statusCode: nil, errorDescription: nil, date: Date())
            entry.wentToNetwork = response.action.passesThrough
            entry.isInFlight = true
            let sequence = record(entry)
            return .exchange(Exchange(request: matched, stub: descriptor, response: response, journalSequence: sequence, scrubbing: scrubbing))
        } catch {
            record(JournalEntry(request: matched, stub: descriptor, statusCode: nil, errorDescription: describeError(error), date: Date()))
            let failure = SendableError(error: error)
            hooks.call(\.finish) { $0(matched, descriptor, nil, failure.error) }
            return .failure(failure)
        }
    }

    private func answer(for resolution: Resolution, of request: StubRequest) -> ExchangeAnswer {
        switch resolution {
        case .stub(let descriptor, let matched, let activation):
            return respond(with: descriptor, to: matched, activation: activation, scrubbing: scrubbing)
        case .invalid(let descriptor):
            let error = StubError.invalidMatcher(stub: descriptor.description, problems: descriptor.matcher.problems)
            record(JournalEntry(request: request, stub: descriptor, statusCode: nil, errorDescription: "\(error)", date: Date()))
            return .failure(SendableError(error: error))
        case .bodyUnknown(let descriptor):
            let error = StubError.requestBodyUnavailable(stub: descriptor.description, url: request.url?.absoluteString ?? "<no URL>")
            record(JournalEntry(request: request, stub: descriptor, statusCode: nil, errorDescription: "\(error)", date: Date()))
            hooks.call(\.finish) { $0(request, descriptor, nil, error) }
            return .failure(SendableError(error: error))
        case .unmatched, .deferred:
            let entry = reportMissing(request)
            if unmatchedRequestPolicy == .passthrough {
                return .exchange(networkExchange(for: request, entry: entry, scrubbing: scrubbing))
            }
            // A URLError, because that is what app code handles; the StubError rides along.
            let error = StubError.unmatchedRequest(report: nearMissReport(for: request)).asURLError(url: request.url)
            return .failure(SendableError(error: error))
        }
    }

    /// An exchange with the real network, for a request no stub answers.
    private func networkExchange(for request: StubRequest, entry: UInt64, scrubbing: Scrubbing) -> Exchange {
        Exchange(request: request, stub: .network, response: .passthrough(), journalSequence: entry, scrubbing: scrubbing)
    }

    /// Records an unmatched request and calls the `onMissing` hook; returns the journal entry.
    @discardableResult
    func reportMissing(_ request: StubRequest) -> UInt64 {
        var entry = JournalEntry(request: request, stub: nil, statusCode: nil, errorDescription: nil, date: Date())
        entry.wentToNetwork = unmatchedGoesToNetwork
        let sequence = record(entry)
        hooks.call(\.missing) { $0(request) }
        return sequence
    }

    package func exchange(
        _ exchange: Exchange?, reached event: ExchangeEvent, on scheduler: any DeliveryScheduler, then: (@Sendable () -> Void)?
    ) {
        if let exchange {
            switch event {
            case .redirecting(let next):
                // `onRedirect`, before the session's delegate is asked: the same moment on every
                // platform (OHHTTPStubs' `onStubRedirect` moment).
                hooks.call(\.redirect) { $0(exchange.request, next, exchange.stub, exchange.response) }
            case .ended:
                ended(exchange)
            }
        }
        if let then { hooks.afterHooks(on: scheduler, then) }
    }

    /// Completes the journal entry with what the client saw, tells the exchange checkers of a
    /// response that was delivered, and calls `afterFinish`.
    private func ended(_ exchange: Exchange) {
        let error = exchange.error
        if exchange.journalSequence != 0 {
            let status = exchange.deliveredStatus, bytes = exchange.deliveredBytes
            let errorText = error.map(describeError)
            completeJournalEntry(exchange.journalSequence) { entry in
                entry.statusCode = status
                entry.errorDescription = errorText
                entry.bodyBytesDelivered = bytes
                entry.isInFlight = false
            }
        }
        var response: StubResponse? = exchange.response
        switch exchange.ending {
        case .finished, .redirected:
            exchangeCheckers.finished(exchange)
        case .cancelled:
            if exchange.deliveredStatus == nil { response = nil }
        case .failed, nil:
            break
        }
        hooks.call(\.finish) { [response] in $0(exchange.request, exchange.stub, response, error) }
    }
}

/// A short, readable description of an error for the journal.
func describeError(_ error: any Error) -> String {
    if let urlError = error as? URLError { return "URLError(\(urlError.code.rawValue))" }
    return "\(error)"
}
