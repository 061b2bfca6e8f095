import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request's draw from a seeded set of network conditions (a scenario's network profile, and
/// the same profile sent over the UI-test link): the same seed, endpoint and index draw the same
/// latency and failure in every process, so a profile behaves alike in a test and in an app.
package struct NetworkDraw: Sendable {
    package var seed: UInt64
    package var latency: TimeInterval
    package var jitter: TimeInterval
    package var failureRate: Double
    /// The failures drawn among: `"timeout"`, `"offline"`, `"serverError"`.
    package var failures: [String]
    package var downloadSpeed: DownloadSpeed?

    package init(
        seed: UInt64, latency: TimeInterval, jitter: TimeInterval, failureRate: Double, failures: [String], downloadSpeed: DownloadSpeed?
    ) {
        self.seed = seed
        self.latency = latency
        self.jitter = jitter
        self.failureRate = failureRate
        self.failures = failures
        self.downloadSpeed = downloadSpeed
    }

    /// What the conditions do to the `index`-th response (0-based) of `endpoint`.
    package func apply(to response: StubResponse, endpoint: String, index: UInt64) -> StubResponse {
        var random = SplitMix64(seed: (seed ^ Self.stableHash(endpoint)) &+ index &* 0x9E37_79B9_7F4A_7C15)
        let offset = jitter > 0 ? (random.nextUnit() * 2 - 1) * jitter : 0
        let delay = max(0, latency + offset)
        var result = response
        if random.nextUnit() < failureRate, !failures.isEmpty {
            switch failures[Int(random.next() % UInt64(failures.count))] {
            case "timeout": result = StubResponse(error: URLError(.timedOut))
            case "offline": result = StubResponse(error: URLError(.notConnectedToInternet))
            default: result = StubResponse(data: Data(), statusCode: 503, headers: ["Retry-After": "1"])
            }
        } else if let downloadSpeed {
            result = result.downloadSpeed(downloadSpeed)
        }
        result.requestDelay = response.requestDelay + delay
        return result
    }

    /// FNV-1a: the same in every process (Swift's `Hasher` is seeded per process).
    package static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
