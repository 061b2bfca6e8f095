import Foundation

/// Runs `work` on a thread of its own and returns its result (or throws its error).
///
/// For test code that is CPU-heavy or blocks (a big parse, a child process): Swift's cooperative
/// pool has one thread per core, and a test holding one for seconds stalls every other test's
/// `await` (under AddressSanitizer one such test once held both threads of a 2-core machine for
/// 85 s). Record expectations after it returns, in the test's own task.
func onItsOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 8 << 20  // a parser's recursion, as on a main thread
        thread.start()
    }
}
