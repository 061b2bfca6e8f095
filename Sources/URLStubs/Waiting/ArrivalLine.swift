/// Arrivals (requests reaching a gate, requests connecting to a stream) handed to `wait` calls
/// in order: the first call gets the first arrival, the second the second, at once when that
/// arrival came before the call.
///
/// A value type with no lock of its own: its owner keeps it under the lock that guards the
/// state the arrivals belong to, so an arrival and that state change together.
struct ArrivalLine<Value: Sendable> {
    /// Every arrival, oldest first.
    private(set) var arrivals: [Value] = []
    /// How many of `arrivals` went to a wait.
    private var handedOut = 0
    private var waiters: [PendingWait<Value>] = []

    /// Records `value` and hands it to the oldest waiting call, if any.
    mutating func arrive(_ value: Value) {
        arrivals.append(value)
        while handedOut < arrivals.count, !waiters.isEmpty {
            if waiters.removeFirst().resolve(.success(arrivals[handedOut])) { handedOut += 1 }
        }
    }

    /// A new wait: resolved at once with the next arrival not handed out yet, else queued.
    mutating func register(_ wait: PendingWait<Value>) {
        guard handedOut < arrivals.count else {
            waiters.append(wait)
            return
        }
        if wait.resolve(.success(arrivals[handedOut])) { handedOut += 1 }
    }

    /// A wait that ended on its own (timed out, cancelled).
    mutating func unregister(_ wait: PendingWait<Value>) {
        waiters.removeAll { $0 === wait }
    }
}
