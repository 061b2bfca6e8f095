import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Network conditions applied to every stub of a scenario: a download speed, added latency
/// with jitter, and a failure rate, all driven by a seeded generator so a failing run can be
/// replayed exactly.
///
/// The N-th request to an endpoint (method and path) draws from a generator seeded with the
/// seed, the endpoint and N: the same seed gives the same latency and the same failure to the
/// N-th `GET /api/users` in every run, however the app's requests to *other* endpoints
/// interleave with it (an app usually fires several at launch, in an order that varies).
///
/// ```swift
/// let flaky = NetworkProfile(downloadSpeed: .edge, latency: 0.3, jitter: 0.1,
///                            failureRate: 0.2, failures: [.offline, .serverError], seed: 42)
/// ```
public struct NetworkProfile: Sendable, Equatable {
    /// A simulated failure.
    public enum Failure: String, Sendable, CaseIterable {
        /// `URLError(.timedOut)` after the latency.
        case timeout
        /// `URLError(.notConnectedToInternet)`.
        case offline
        /// An HTTP 503 with an empty body.
        case serverError
    }

    /// The speed bodies are sent at, `nil` for the stubs' own timing.
    public var downloadSpeed: DownloadSpeed?
    /// Seconds added before every response head.
    public var latency: TimeInterval
    /// Up to this many seconds more or less than `latency`, drawn per request.
    public var jitter: TimeInterval
    /// The share of requests that fail, 0...1.
    public var failureRate: Double
    /// The failures drawn from, uniformly.
    public var failures: [Failure]
    /// The generator's seed (`URLSTUBS_SEED` in the environment overrides it at launch).
    public var seed: UInt64

    /// A profile; the defaults change nothing.
    public init(
        downloadSpeed: DownloadSpeed? = nil, latency: TimeInterval = 0, jitter: TimeInterval = 0,
        failureRate: Double = 0, failures: [Failure] = Failure.allCases, seed: UInt64 = 0
    ) {
        self.downloadSpeed = downloadSpeed
        self.latency = max(0, latency)
        self.jitter = max(0, jitter)
        self.failureRate = min(1, max(0, failureRate))
        self.failures = failures.isEmpty ? Failure.allCases : failures
        self.seed = seed
    }

    /// What the profile does to the `index`-th response (0-based) of `endpoint`.
    package func apply(to response: StubResponse, endpoint: String, index: UInt64) -> StubResponse {
        NetworkDraw(
            seed: seed, latency: latency, jitter: jitter, failureRate: failureRate, failures: failures.map(\.rawValue),
            downloadSpeed: downloadSpeed
        ).apply(to: response, endpoint: endpoint, index: index)
    }
}
