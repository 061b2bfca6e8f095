import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A registry's four hooks, as its ``StubRegistry/State`` holds them.
struct HookSet: Sendable {
    typealias Activation = @Sendable (StubRequest, StubDescriptor, StubResponse) -> Void
    typealias Redirect = @Sendable (StubRequest, URLRequest, StubDescriptor, StubResponse) -> Void
    typealias Finish = @Sendable (StubRequest, StubDescriptor, StubResponse?, (any Error)?) -> Void
    typealias Missing = @Sendable (StubRequest) -> Void

    var activation: Activation?
    var redirect: Redirect?
    var finish: Finish?
    var missing: Missing?

    /// `true` when no hook is set: a request's last callback need not wait for the lane.
    var isEmpty: Bool { activation == nil && redirect == nil && finish == nil && missing == nil }
}

/// Where a registry's hooks run: one at a time, in the order of the events they report, on a
/// serial lane of the ``UserCodeRunner`` (never on the loading context, which the whole process
/// shares, so a slow hook delays only other hooks of its registry).
final class StubHooks: Sendable {
    private let lane = UserCodeRunner.Lane(limit: 1)

    /// Runs `hook` (a call of one of the hooks of a ``HookSet``) on the lane.
    func run(_ hook: @escaping @Sendable () -> Void) {
        UserCodeRunner.shared.run(in: lane, hook)
    }

    /// Runs `work` on `scheduler` once every hook handed to ``run(_:)`` so far has run.
    func afterHooks(on scheduler: any DeliveryScheduler, _ work: @escaping @Sendable () -> Void) {
        UserCodeRunner.shared.run(in: lane) { scheduler.async(work) }
    }
}
