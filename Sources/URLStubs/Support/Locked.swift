import Foundation

/// A value that one lock guards: the engine's only lock.
///
/// Every piece of shared mutable state in the engine lives in one of these, and is read or
/// changed only inside ``withLock(_:)``, so a lock can never be left taken on an early return or
/// a throw, and no field can be touched without it. A type that guards several fields with one
/// lock keeps them in one state struct held here.
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }
/// ```
///
/// Contract: `body` runs with the lock held and must be short. It never calls user code, a hook,
/// a matcher or a client callback, and never takes another `Locked` that could be waiting for this
/// one. The lock is not recursive.
///
/// Why `NSLock`: it is a bare `pthread_mutex_t` on Linux and an unfair-lock-class mutex on Apple
/// platforms, and the engine's lock takes measured the same through this wrapper as through
/// hand-written pairs (callgrind, `Tests/Bench/bench.sh profile`). `Mutex`, from the Synchronization
/// module, would hold the value inline without a second object, but it needs macOS 15 and iOS 18
/// and this package supports macOS 12 and iOS 15; `os_unfair_lock` exists only on Apple platforms.
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    // Every access is inside withLock, under the lock: the runtime's exclusivity check would
    // only repeat what the lock guarantees, at about 370 instructions a request.
    @exclusivity(unchecked) @usableFromInline var value: Value

    /// A lock guarding `value`.
    @inlinable package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held and the value to read or change; returns what it returns.
    @inlinable package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
