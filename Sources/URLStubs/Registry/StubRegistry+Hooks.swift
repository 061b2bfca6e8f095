import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The hooks a test sets on a registry: each is kept in the registry's state, so a request
// reads the hooks of the moment it was claimed.

extension StubRegistry {
    /// Called when a stub is about to answer a request. `nil` removes the hook.
    public func onActivation(_ hook: (@Sendable (_ request: StubRequest, _ stub: StubDescriptor, _ response: StubResponse) -> Void)?) {
        change { $0.hooks.activation = hook }
    }

    /// Called for each redirect a stub answers with, before the redirected request is
    /// looked up. `nil` removes the hook.
    public func onRedirect(
        _ hook: (@Sendable (_ request: StubRequest, _ redirectRequest: URLRequest, _ stub: StubDescriptor, _ response: StubResponse) -> Void)?
    ) {
        change { $0.hooks.redirect = hook }
    }

    /// Called once a stubbed request ended: `error` is `nil` on success, the failure
    /// otherwise (`URLError(.cancelled)` when the caller cancelled). `nil` removes the hook.
    public func afterFinish(
        _ hook: (@Sendable (_ request: StubRequest, _ stub: StubDescriptor, _ response: StubResponse?, _ error: (any Error)?) -> Void)?
    ) {
        change { $0.hooks.finish = hook }
    }

    /// Called for each request no stub matches, before the unmatched policy applies. `nil`
    /// removes the hook.
    public func onMissing(_ hook: (@Sendable (_ request: StubRequest) -> Void)?) {
        change { $0.hooks.missing = hook }
    }
}
