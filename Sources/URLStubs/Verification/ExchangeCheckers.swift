import Foundation

/// An add-on that checks what a registry served (URLStubsOpenAPI's contract check): it hears of
/// every exchange that finished, and adds what it found to ``StubRegistry/verify(includePassedThrough:)``.
///
/// ``exchangeFinished(_:)`` is called on the loading context, which the whole process shares:
/// it must only keep the exchange (checking a large body there would stall every request), and
/// do the work in ``verificationProblems()``.
package protocol ExchangeChecker: AnyObject, Sendable {
    /// A hop finished normally: its request, the stub that answered and the response sent.
    func exchangeFinished(_ exchange: FinishedExchange)
    /// What the checker found so far; called by `verify()`, off the loading context.
    func verificationProblems() -> [VerificationProblem]
}

/// One request and the response it got, as an ``ExchangeChecker`` hears of it.
package struct FinishedExchange: Sendable {
    /// The request as the stub saw it, body included.
    public let request: StubRequest
    /// The stub that answered; `nil` for a request no stub matched that went to the network.
    public let stub: StubDescriptor?
    /// The response sent: the stub's, or what the network answered (with its body in memory).
    public let response: StubResponse
    /// `true` when ``response`` came from the real network.
    public let cameFromNetwork: Bool
    /// `false` when the request's body could not be read (an upload task's, on Apple
    /// platforms): ``request`` then holds no body although one was sent.
    public let isRequestBodyKnown: Bool
}

/// Tells the checkers bound to a registry (its ``StubRegistry/State``) of finished exchanges.
enum ExchangeCheckers {
    /// Tells every checker that `exchange` delivered its response. On the loading context.
    static func tell(_ checkers: [any ExchangeChecker], that exchange: Exchange) {
        guard !checkers.isEmpty else { return }
        let isNetwork = exchange.stub === StubDescriptor.network
        let finished = FinishedExchange(
            request: exchange.request, stub: isNetwork ? nil : exchange.stub, response: exchange.response,
            cameFromNetwork: exchange.cameFromNetwork || isNetwork, isRequestBodyKnown: exchange.request.isBodyKnown)
        for checker in checkers { checker.exchangeFinished(finished) }
    }
}

extension StubRegistry {
    /// Binds `checker`: it hears of every exchange this registry finishes from now on, and its
    /// problems join `verify()`'s report.
    package func addExchangeChecker(_ checker: any ExchangeChecker) {
        change { $0.checkers.append(checker) }
    }

    /// The checkers bound with ``addExchangeChecker(_:)``.
    package var exchangeCheckerList: [any ExchangeChecker] { snapshot().checkers }

    /// The stubs whose every answer is known without a request (one-line stubs, sequences),
    /// with those answers; for checks that make no request.
    package var constantAnswers: [(stub: StubDescriptor, responses: [StubResponse])] {
        stubs.compactMap { stub in
            switch stub.answer {
            case .constant(let response): return (stub, [response])
            case .sequence(let responses): return (stub, responses)
            case .closure: return nil
            }
        }
    }
}

extension StubDescriptor {
    /// The method and the exact path every request this stub accepts has, when its matcher
    /// requires them (`isMethod(.get) && isPath("/pets")`); `nil` where it does not.
    package var requiredMethodAndPath: (method: String?, path: String?) {
        (matcher.keys.method, matcher.keys.path)
    }
}

extension StubBody {
    /// The file a ``file(_:)`` body reads, else `nil`.
    package var fileURL: URL? {
        if case .file(let url) = source { return url }
        return nil
    }
}

extension VerificationProblem {
    /// A problem an ``ExchangeChecker`` found (a ``Kind/contractViolation``), reported at the
    /// line of `stub` when there is one.
    package static func found(
        summary: String, details: String? = nil, stub: StubDescriptor?, count: Int = 1
    ) -> VerificationProblem {
        VerificationProblem(kind: .contractViolation, summary: summary, details: details, location: stub?.location, stub: stub, count: count)
    }
}

extension JSONValue {
    /// ``init(data:)`` through the library's one-pass reader where it takes the text (the
    /// common case), `JSONSerialization` otherwise: for add-ons reading large documents.
    package static func reading(_ data: Data) throws -> JSONValue {
        try JSONBytesReader.value(from: data) ?? JSONValue(data: data)
    }
}

extension StubResponse {
    /// `true` when the response sends a status, headers and a body (not an error, a
    /// passthrough or a response that never comes): what a check without requests can read.
    package var sendsHTTPResponse: Bool { action.sendsHead }

    /// How many body bytes are sent when the response stops early (``truncated(afterBytes:)``,
    /// ``failing(afterBytes:with:)``); `nil` when the whole body is.
    package var bodyBytesSent: Int? { action.byteLimit }
}
