import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Network conditions a UI test puts on one stub of the app (`RemoteResponse.networkProfile(_:)`
/// in URLStubsTesting), as data the declaration carries: the response transformer
/// `"networkProfile"`, whose value is
///
/// ```json
/// {"latency": 0.3, "jitter": 0.1, "failureRate": 0.2, "failures": ["offline", "serverError"],
///  "downloadSpeed": 64, "seed": "42"}
/// ```
///
/// The link owns this value so that it imports no scenario library; it draws exactly as
/// URLStubsScenarios' `NetworkProfile` does (the N-th request to an endpoint, method and path,
/// draws from a generator seeded with the seed, the endpoint and N), so a seed replays the
/// same latencies and failures in process and over the link. The seed is text: JSON numbers
/// lose 64-bit precision.
package struct LinkNetworkProfile: ResponseTransformer {
    /// The transformer's name in declarations.
    package static let transformerName = "networkProfile"
    /// The failures a profile draws from, as named in the value.
    package static let failureNames = ["timeout", "offline", "serverError"]

    package let name = LinkNetworkProfile.transformerName

    /// Registers the transformer in this process (the app's side does at connection; the
    /// test's side before checking what it sends); later calls are free.
    package static func register() { _ = registered }

    private static let registered: Void = ResponseTransformers.register(LinkNetworkProfile())

    package init() {}

    package func responder(for value: JSONValue, base: ResponseDefinition) throws -> @Sendable (StubRequest) throws -> StubResponse {
        let profile = try Values(value)
        var plain = base
        plain.transformer = nil
        let response = plain.makeResponse(relativeTo: profile.folder.map { URL(fileURLWithPath: $0, isDirectory: true) })
        let counter = EndpointCounter()
        return { request in
            let endpoint = "\(request.method) \(request.urlPath ?? "/")"
            return profile.apply(to: response, endpoint: endpoint, index: counter.next(for: endpoint))
        }
    }

    /// The value, read strictly.
    struct Values: Sendable, Equatable {
        var latency = 0.0, jitter = 0.0, failureRate = 0.0
        var failures: [String] = LinkNetworkProfile.failureNames
        var downloadSpeed: Double?
        var seed: UInt64 = 0
        /// Where a fixture body is found: the app's link adds it, since a transformer is not
        /// given the folder its declaration is registered relative to.
        var folder: String?

        init(_ value: JSONValue) throws {
            guard case .object(let members) = value else { throw Self.problem("expected an object") }
            let known = ["latency", "jitter", "failureRate", "failures", "downloadSpeed", "seed", "folder"]
            if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
                throw Self.problem("unknown member \"\(unknown)\"; expected one of \(known.joined(separator: ", "))")
            }
            func number(_ name: String) throws -> Double? {
                switch members[name] {
                case nil: return nil
                case .integer(let value)?: return Double(value)
                case .number(let value)?: return value
                default: throw Self.problem("\"\(name)\" must be a number")
                }
            }
            latency = max(0, try number("latency") ?? 0)
            jitter = max(0, try number("jitter") ?? 0)
            failureRate = min(1, max(0, try number("failureRate") ?? 0))
            downloadSpeed = try number("downloadSpeed")
            if let listed = members["failures"] {
                guard case .array(let names) = listed else { throw Self.problem("\"failures\" must be an array of names") }
                failures = try names.map { name in
                    guard case .string(let text) = name, LinkNetworkProfile.failureNames.contains(text) else {
                        throw Self.problem("\"failures\" holds \(name) (known: \(LinkNetworkProfile.failureNames.joined(separator: ", ")))")
                    }
                    return text
                }
                if failures.isEmpty { failures = LinkNetworkProfile.failureNames }
            }
            if let path = members["folder"] {
                guard case .string(let path) = path else { throw Self.problem("\"folder\" must be a path") }
                folder = path
            }
            if let text = members["seed"] {
                guard case .string(let digits) = text, let seed = UInt64(digits) else {
                    throw Self.problem("\"seed\" must be a whole number written as text, such as \"42\"")
                }
                self.seed = seed
            }
        }

        func apply(to response: StubResponse, endpoint: String, index: UInt64) -> StubResponse {
            NetworkDraw(
                seed: seed, latency: latency, jitter: jitter, failureRate: failureRate, failures: failures,
                downloadSpeed: downloadSpeed.map { .kilobytesPerSecond($0) }
            ).apply(to: response, endpoint: endpoint, index: index)
        }

        private static func problem(_ text: String) -> WireProtocolError {
            WireProtocolError("the network profile (transformer \"\(LinkNetworkProfile.transformerName)\"): \(text)")
        }
    }
}

/// Counts one stub's requests per endpoint, for its network profile's generator.
final class EndpointCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: UInt64] = [:]

    /// The index of this request to `endpoint` (`0` for the first), counting it.
    func next(for endpoint: String) -> UInt64 {
        lock.lock(); defer { lock.unlock() }
        let index = counts[endpoint, default: 0]
        counts[endpoint] = index + 1
        return index
    }
}
