import Foundation

/// Polls `condition` for up to `timeout` seconds; hooks run on other queues.
func waitUntil(timeout: Double = 10, _ condition: @Sendable () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition(), Date() < deadline {
        try await Task.sleep(nanoseconds: 5_000_000)
    }
}
