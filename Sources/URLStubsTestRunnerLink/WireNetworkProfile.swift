import Foundation
import URLStubs
import URLStubsScenarios

/// A ``NetworkProfile`` on the wire (the seed as text: JSON numbers lose 64-bit precision).
package struct WireNetworkProfile: Codable, Sendable, Equatable {
    var downloadSpeed: Double?
    var latency: Double
    var jitter: Double
    var failureRate: Double
    var failures: [String]
    var seed: String

    /// The wire form of `profile`.
    package init(_ profile: NetworkProfile) {
        downloadSpeed = profile.downloadSpeed?.kilobytesPerSecond
        latency = profile.latency
        jitter = profile.jitter
        failureRate = profile.failureRate
        failures = profile.failures.map(\.rawValue)
        seed = String(profile.seed)
    }

    /// The profile, or an error naming the field that is wrong.
    package func profile() throws -> NetworkProfile {
        let known = try failures.map { name in
            guard let failure = NetworkProfile.Failure(rawValue: name) else {
                throw WireProtocolError(
                    "networkProfile.failures holds \"\(name)\" (known: \(NetworkProfile.Failure.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return failure
        }
        guard let seed = UInt64(seed) else { throw WireProtocolError("networkProfile.seed \"\(self.seed)\" is not a whole number") }
        return NetworkProfile(
            downloadSpeed: downloadSpeed.map { .kilobytesPerSecond($0) }, latency: latency, jitter: jitter,
            failureRate: failureRate, failures: known, seed: seed)
    }
}
