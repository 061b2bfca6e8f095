import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A registry's four hooks, and where they run: one at a time, in the order of the events they
/// report, on a serial lane of the ``UserCodeRunner`` (never on the loading context, which the
/// whole process shares, so a slow hook delays only other hooks of its registry).
final class StubHooks: @unchecked Sendable {
    typealias Activation = @Sendable (StubRequest, StubDescriptor, StubResponse) -> Void
    typealias Redirect = @Sendable (StubRequest, URLRequest, StubDescriptor, StubResponse) -> Void
    typealias Finish = @Sendable (StubRequest, StubDescriptor, StubResponse?, (any Error)?) -> Void
    typealias Missing = @Sendable (StubRequest) -> Void

    private let lock = NSLock()
    private var activationHook: Activation?
    private var redirectHook: Redirect?
    private var finishHook: Finish?
    private var missingHook: Missing?
    /// Set while any hook is: with none, a request's last callback need not wait for the lane.
    private var anySet = false
    private let lane = UserCodeRunner.Lane(limit: 1)

    /// Read by ``call(_:_:)`` under the lock.
    var activation: Activation? {
        get { activationHook }
        set { write { $0.activationHook = newValue } }
    }
    var redirect: Redirect? {
        get { redirectHook }
        set { write { $0.redirectHook = newValue } }
    }
    var finish: Finish? {
        get { finishHook }
        set { write { $0.finishHook = newValue } }
    }
    var missing: Missing? {
        get { missingHook }
        set { write { $0.missingHook = newValue } }
    }

    /// `true` when at least one hook is set.
    var isAnySet: Bool { read { $0.anySet } }

    private func read<Value>(_ body: (StubHooks) -> Value) -> Value {
        lock.lock(); defer { lock.unlock() }
        return body(self)
    }

    private func write(_ body: (StubHooks) -> Void) {
        lock.lock()
        body(self)
        anySet = activationHook != nil || redirectHook != nil || finishHook != nil || missingHook != nil
        lock.unlock()
    }

    /// Calls the hook `which` reads (`\.finish`: the hook itself), on the lane, if it is set.
    func call<Hook: Sendable>(_ which: (StubHooks) -> Hook?, _ call: @escaping @Sendable (Hook) -> Void) {
        lock.lock()
        let hook = anySet ? which(self) : nil
        lock.unlock()
        guard let hook else { return }
        UserCodeRunner.shared.run(in: lane) { call(hook) }
    }

    /// Runs `work` on `scheduler` once every hook called so far has run; at once when no hook
    /// is set.
    func afterHooks(on scheduler: any DeliveryScheduler, _ work: @escaping @Sendable () -> Void) {
        guard isAnySet else {
            work()
            return
        }
        UserCodeRunner.shared.run(in: lane) { scheduler.async(work) }
    }
}
