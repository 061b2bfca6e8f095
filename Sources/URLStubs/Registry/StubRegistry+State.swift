import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// Everything answering a request reads of a registry: its stubs, settings, hooks and
    /// checkers. A snapshot is never changed: a change to a snapshot someone still holds
    /// copies it first (``change(_:)``), so a request reads one consistent state with one
    /// lock and one retain.
    final class State: @unchecked Sendable {
        // @unchecked: changed only under the registry's lock while uniquely referenced.
        var table = StubTable()
        var enabled = true
        var policy: UnmatchedRequestPolicy
        var scrubbing = Scrubbing.default
        var sharedCookies = false
        var showsDeclarations = false
        var installedConfiguration: URLSessionConfiguration?
        /// Tests only: the Linux edge treats corelibs' private layout as unrecognised, and takes
        /// its safe fallback (``CorelibsTaskState``).
        var refusesCorelibsLayouts = false
        var hooks = HookSet()
        /// Add-ons that check every finished exchange (``ExchangeChecker``).
        var checkers: [any ExchangeChecker] = []

        init(policy: UnmatchedRequestPolicy) { self.policy = policy }

        /// A copy to change while others read this one.
        func copy() -> State {
            let copy = State(policy: policy)
            copy.table = table
            copy.enabled = enabled
            copy.scrubbing = scrubbing
            copy.sharedCookies = sharedCookies
            copy.showsDeclarations = showsDeclarations
            copy.installedConfiguration = installedConfiguration
            copy.refusesCorelibsLayouts = refusesCorelibsLayouts
            copy.hooks = hooks
            copy.checkers = checkers
            return copy
        }

        /// Whether the registry takes every request without looking at it.
        var claimsEverything: Bool { enabled && policy == .fail }

        /// Whether an unmatched request goes to the network.
        var unmatchedGoesToNetwork: Bool { enabled && policy == .passthrough }
    }
}
