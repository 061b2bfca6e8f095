import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a transport that writes answers itself (the loopback server) takes over from the
/// player: a stub's constant answer, written straight into bytes, or its response closure,
/// which the transport may give up on.
package enum ServingClaim: Sendable {
    /// A constant response in memory, played at once: the transport writes it.
    case constant(ConstantServing)
    /// A response closure, or a lookup that meets a closure matcher: the transport's player
    /// runs it through ``ClosureServing/respond()``.
    case closure(ClosureServing)
}

extension StubRegistry {
    /// Claims `request` (a request with its body known) for a transport when the stub a
    /// lookup takes for it (every candidate met before it having a built-in matcher) answers
    /// with a constant response that plays at once (no gate, pacing, redirect, failure or
    /// stream; a body of at most `largestBody` bytes whose length the head announces) or with
    /// a closure, and claims the lookup itself when a candidate met first has a closure matcher
    /// (``ClosureServing`` runs it, so the transport may give up on it). The stub's activation is taken (so `times:` holds between simultaneous
    /// requests) and, for a constant, `onActivation` runs. `nil` for any other request: then
    /// nothing was taken, and the request goes to an ``ExchangePlayer`` as usual.
    ///
    /// `validated` is a stub whose constant response this transport saw claimed before: a
    /// constant response never changes, so it is not validated again.
    package func claimForServing(_ request: StubRequest, largestBody: Int, validated: StubDescriptor? = nil) -> ServingClaim? {
        let state = snapshot()
        guard state.enabled else { return nil }
        let (descriptor, matched): (StubDescriptor, StubRequest)
        switch Self.firstStubWithoutUserCode(for: request, in: state.table) {
        case .stub(let found, let request): (descriptor, matched) = (found, request)
        case .userCodeMatcher: return .closure(ClosureServing(registry: self, lookingUp: request, state: state))
        case .none: return nil
        }
        switch descriptor.answer {
        case .closure:
            guard let activation = descriptor.reserveActivation() else { return nil }
            return .closure(ClosureServing(registry: self, descriptor: descriptor, matched: matched, activation: activation, state: state))
        case .constant(let response):
            guard descriptor.gate == nil, response.playsAtOnce, let data = response.body.data, data.count <= largestBody,
                descriptor === validated || (try? response.validate(stubName: descriptor.description)) != nil
            else { return nil }
            let isHEAD = matched.method == "HEAD"
            let plan = descriptor.constantPlan ?? ExchangePlan(response, gate: nil, stubName: descriptor.description)
            let exchange = Exchange(request: matched, stub: descriptor, plan: plan, journalSequence: 0, arrival: Date(), claim: state)
            var head = ResponseHead(url: exchange.url, response: response, bodyLength: data.count)
            head.reusingHeadsOf = descriptor
            // A Content-Length that contradicts the body: the player's transfer reports it.
            if let announced = head.announcedLength, announced != data.count, !isHEAD { return nil }
            // Taken last: a stub used up since the lookup leaves the request to the player.
            guard let activation = descriptor.reserveActivation() else { return nil }
            // A gate set on the stub since the check above: the player holds the request.
            if activation.gate != nil {
                descriptor.releaseActivation()
                return nil
            }
            if let hook = state.hooks.activation { hooks.run { hook(matched, descriptor, response) } }
            return .constant(ConstantServing(head: head, body: isHEAD ? Data() : data, exchange: exchange, registry: self))
        case .sequence:
            return nil
        }
    }

    /// What a lookup found without running user code or taking a stub.
    enum LookupWithoutUserCode {
        /// The stub a lookup would take, and the request as it matched.
        case stub(StubDescriptor, StubRequest)
        /// A candidate met first has a closure matcher.
        case userCodeMatcher
        /// No candidate matches, or one met first has an invalid matcher, a scenario step or a
        /// need for the unknown body (the player's lookup decides those).
        case none
    }

    /// The stub a lookup would take for `request`, found without taking it.
    static func firstStubWithoutUserCode(for request: StubRequest, in table: StubTable) -> LookupWithoutUserCode {
        var found = LookupWithoutUserCode.none
        table.forEachCandidate(for: request) { descriptor, candidate in
            if descriptor.matcher.runsUserCode {
                found = .userCodeMatcher
                return true
            }
            if !descriptor.matcher.problems.isEmpty || descriptor.scenarioStepper != nil { return true }
            let result = descriptor.matcher.evaluate(candidate)
            guard result.isMatch else { return false }
            if result.dependsOnUnknownBody { return true }
            if descriptor.isUsedUp { return false }
            var matched = candidate
            matched.pathParameters = result.captures
            found = .stub(descriptor, matched)
            return true
        }
        return found
    }
}
