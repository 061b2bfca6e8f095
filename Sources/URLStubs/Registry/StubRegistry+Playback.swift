import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The registry's side of loading a request: resolving it to a response, calling the hooks
/// and writing the journal. ``StubURLProtocol`` and ``ResponsePlayer`` call these.
extension StubRegistry: PlaybackHost {
    var hasHooks: Bool { hooks.isAnySet }

    func afterHooks(on scheduler: any DeliveryScheduler, _ work: @escaping @Sendable () -> Void) {
        hooks.afterHooks(on: scheduler, work)
    }

    /// Matches on the loading context as long as no matcher met is user code, and answers at
    /// once when the stub's answer is a value.
    func prepareInline(_ request: StubRequest) -> InlinePreparation {
        let resolution = Self.firstMatch(for: request, in: snapshot().table, stoppingAtUserCode: true)
        switch resolution {
        case .deferred, .unmatched:
            // An unmatched request's report and a GraphQL batch run every matcher.
            return .offContext
        case .stub(let descriptor, let matched, let activation):
            if descriptor.answer.runsUserCode { return .respond(descriptor, matched, activation: activation) }
            return .ready(respond(with: descriptor, to: matched, activation: activation))
        case .invalid, .bodyUnknown:
            return .ready(item(for: resolution, of: request))
        }
    }

    /// Resolves `request` and builds its response, or the error the task must fail with.
    func prepare(_ request: StubRequest) -> PreparedItem {
        item(for: resolve(request), of: request)
    }

    /// Builds `descriptor`'s response for `matched`, records it and calls `onActivation`.
    func respond(with descriptor: StubDescriptor, to matched: StubRequest, activation: Int) -> PreparedItem {
        do {
            let response = try descriptor.response(to: matched, activation: activation)
            hooks.call(\.activation) { $0(matched, descriptor, response) }
            let entry = record(
                JournalEntry(
                    request: matched, stub: descriptor,
                    statusCode: response.action.error == nil && !response.action.passesThrough ? response.statusCode : nil,
                    errorDescription: response.action.error.map(describeError), date: Date()))
            return .success(PlaybackItem(descriptor: descriptor, request: matched, response: response, journalEntry: entry))
        } catch {
            record(JournalEntry(request: matched, stub: descriptor, statusCode: nil, errorDescription: describeError(error), date: Date()))
            let failure = SendableError(error: error)
            hooks.call(\.finish) { $0(matched, descriptor, nil, failure.error) }
            return .failure(failure)
        }
    }

    private func item(for resolution: Resolution, of request: StubRequest) -> PreparedItem {
        switch resolution {
        case .stub(let descriptor, let matched, let activation):
            return respond(with: descriptor, to: matched, activation: activation)
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
                return .success(PlaybackItem(descriptor: .network, request: request, response: .passthrough(), journalEntry: entry))
            }
            // A URLError, because that is what app code handles; the StubError rides along.
            let error = StubError.unmatchedRequest(report: nearMissReport(for: request)).asURLError(url: request.url)
            return .failure(SendableError(error: error))
        }
    }

    /// Records an unmatched request and calls the `onMissing` hook; returns the journal entry.
    @discardableResult
    func reportMissing(_ request: StubRequest) -> UInt64 {
        let entry = record(JournalEntry(request: request, stub: nil, statusCode: nil, errorDescription: nil, date: Date()))
        hooks.call(\.missing) { $0(request) }
        return entry
    }

    /// Calls `onRedirect` for a redirect a stub answered with, before the session's delegate
    /// is asked: the same moment on every platform (OHHTTPStubs' `onStubRedirect` moment).
    func announceRedirect(of item: PlaybackItem, to next: URLRequest) {
        hooks.call(\.redirect) { $0(item.request, next, item.descriptor, item.response) }
    }

    /// The next hop of a redirect chain followed inside one protocol instance (Linux): the
    /// previous hop is complete, the next is looked up like any request.
    func resolveRedirect(to next: URLRequest, from previous: PlaybackItem) -> PreparedItem {
        hooks.call(\.finish) { $0(previous.request, previous.descriptor, previous.response, nil) }
        exchangeCheckers.finished(previous, with: previous.response)
        let request = StubRequest(next, body: next.httpBody, pathParameters: [:], isBodyKnown: true)
        if !isEnabled {
            return .success(PlaybackItem(descriptor: .network, request: request, response: .passthrough()))
        }
        return prepare(request)
    }

    /// The journal records what was sent: a gate's release replaced the stub's response.
    func responseReplaced(in item: PlaybackItem) {
        guard item.journalEntry != 0 else { return }
        let response = item.response
        completeJournalEntry(item.journalEntry) { entry in
            entry.statusCode = response.action.error == nil ? response.statusCode : nil
            entry.errorDescription = response.action.error.map(describeError)
        }
    }

    /// Completes the journal and calls `afterFinish` once a hop ended; `item` is the hop
    /// that ended (the last one of a redirect chain).
    func playbackEnded(item: PlaybackItem, outcome: PlaybackOutcome) {
        if item.cameFromNetwork || item.response.action.passesThrough, item.journalEntry != 0 {
            completeJournalEntry(item.journalEntry) { entry in
                switch outcome {
                case .finished(let response): entry.statusCode = response.statusCode
                case .failed(let error, _): entry.errorDescription = describeError(error)
                case .cancelled: entry.errorDescription = describeError(URLError(.cancelled))
                }
            }
        }
        let (response, error): (StubResponse?, SendableError?)
        switch outcome {
        case .finished(let finished):
            (response, error) = (finished, nil)
            exchangeCheckers.finished(item, with: finished)
        case .failed(let failure, let failed): (response, error) = (failed, SendableError(error: failure))
        case .cancelled(let cancelled): (response, error) = (cancelled, SendableError(error: URLError(.cancelled)))
        }
        hooks.call(\.finish) { $0(item.request, item.descriptor, response, error?.error) }
    }
}

/// A short, readable description of an error for the journal.
func describeError(_ error: any Error) -> String {
    if let urlError = error as? URLError { return "URLError(\(urlError.code.rawValue))" }
    return "\(error)"
}
