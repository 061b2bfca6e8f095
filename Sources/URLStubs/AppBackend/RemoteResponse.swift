import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stub the test adds to the app answers, as a value that crosses to the app: a status,
/// headers and a body (text, JSON, bytes, or a fixture file the app finds in its own bundle or
/// fixtures folder), or an error, with timing.
///
/// ```swift
/// RemoteResponse.json(["items": []])
/// RemoteResponse.fixture("cart.json")                    // resolved by the app
/// RemoteResponse.text("sold out", status: 409).requestTime(0.5)
/// RemoteResponse.error(.timedOut)
/// ```
public struct RemoteResponse: Codable, Sendable, Equatable {
    /// The HTTP status code.
    @_spi(TestRunnerLink) public var status: Int
    /// The response headers.
    @_spi(TestRunnerLink) public var headers: [String: String]
    /// A UTF-8 text body.
    @_spi(TestRunnerLink) public var text: String?
    /// A JSON body.
    @_spi(TestRunnerLink) public var json: WireJSON?
    /// A body of bytes (base64 on the wire).
    @_spi(TestRunnerLink) public var data: Data?
    /// A fixture file name the app resolves.
    @_spi(TestRunnerLink) public var fixture: String?
    /// A `URLError.Code` the request fails with.
    @_spi(TestRunnerLink) public var errorCode: Int?
    /// Seconds before the response head.
    @_spi(TestRunnerLink) public var requestTime: Double?
    /// Seconds over which the body is spread (negative: KB/s).
    @_spi(TestRunnerLink) public var responseTime: Double?
    /// KB/s.
    @_spi(TestRunnerLink) public var downloadSpeed: Double?
    /// Network conditions applied to each answer.
    @_spi(TestRunnerLink) public var networkProfile: WireNetworkProfile?
    /// The test's gate that holds this response.
    @_spi(TestRunnerLink) public var gateID: String?
    /// The test's live stream that is this response's body, and its framing.
    @_spi(TestRunnerLink) public var streamID: String?
    /// `eventStream` or `stream`.
    @_spi(TestRunnerLink) public var streamKind: String?
    /// Why a value given to a factory cannot be sent (an object that is not JSON).
    @_spi(TestRunnerLink) public var conversionProblem: String?

    private enum CodingKeys: String, CodingKey {
        case status, headers, text, json, data, fixture, errorCode, requestTime, responseTime, downloadSpeed, networkProfile
        case gateID, streamID, streamKind
    }

    /// A response with no body yet.
    @_spi(TestRunnerLink) public init(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = headers
    }

    /// No body.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> RemoteResponse {
        RemoteResponse(status: status, headers: headers)
    }

    /// A UTF-8 text body, `text/plain` unless `headers` say otherwise.
    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        var response = RemoteResponse(status: status, headers: headers)
        response.text = text
        return response
    }

    /// A JSON body from `JSONSerialization` values, `application/json` unless `headers` say otherwise.
    public static func json(_ object: Any, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        var response = RemoteResponse(status: status, headers: headers)
        do {
            response.json = WireJSON(try JSONValue(any: object))
        } catch {
            response.conversionProblem = "the JSON body is not JSON: \(error)"
        }
        return response
    }

    /// A body of bytes (sent as base64).
    public static func data(_ data: Data, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        var response = RemoteResponse(status: status, headers: headers)
        response.data = data
        return response
    }

    /// A fixture file the app finds where it said when it connected (its bundle by default),
    /// with a `Content-Type` from its extension; `.response` and `.sse` files are read as
    /// ``StubResponse/init(fixture:in:subdirectory:statusCode:headers:)`` reads them. A missing
    /// fixture fails the test's `stub` call with the closest names the app has.
    public static func fixture(_ name: String, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        var response = RemoteResponse(status: status, headers: headers)
        response.fixture = name
        return response
    }

    /// The request fails with `URLError(code)`.
    public static func error(_ code: URLError.Code) -> RemoteResponse {
        var response = RemoteResponse(status: 200, headers: [:])
        response.errorCode = code.rawValue
        return response
    }

    /// Waits `requestTime` seconds before the head, then spreads the body over `responseTime`
    /// seconds, as ``StubResponse/requestTime(_:responseTime:)``.
    public func requestTime(_ requestTime: TimeInterval, responseTime: TimeInterval = 0) -> RemoteResponse {
        var copy = self
        copy.requestTime = requestTime
        copy.responseTime = responseTime
        return copy
    }

    /// Sends the body at `speed`.
    public func downloadSpeed(_ speed: DownloadSpeed) -> RemoteResponse {
        var copy = self
        copy.downloadSpeed = speed.kilobytesPerSecond
        return copy
    }

    /// Applies `profile` (latency, jitter, failures, speed; seeded) to every answer.
    public func networkProfile(_ profile: NetworkProfile) -> RemoteResponse {
        var copy = self
        copy.networkProfile = WireNetworkProfile(profile)
        return copy
    }

    /// What is wrong with this response; empty when nothing is.
    @_spi(TestRunnerLink) public var problems: [String] {
        var problems = conversionProblem.map { [$0] } ?? []
        if !(100...599).contains(status) { problems.append("status \(status) is not an HTTP status (100...599)") }
        let bodies = [text != nil, json != nil, data != nil, fixture != nil, streamID != nil].filter { $0 }.count
        if bodies > 1 { problems.append("a response has one body: text, json, data, fixture or a live stream") }
        if let streamKind, !["eventStream", "stream"].contains(streamKind) {
            problems.append("streamKind \"\(streamKind)\" is neither \"eventStream\" nor \"stream\"")
        }
        return problems
    }

    /// The response the app answers with; the caller applies the gate and the stream.
    @_spi(TestRunnerLink) public func stubResponse(fixtures: AppFixtures) throws -> StubResponse {
        var response: StubResponse
        if let errorCode {
            response = StubResponse(error: URLError(urlErrorCode(errorCode)))
        } else if let text {
            var headers = self.headers
            if !headers.keys.contains(where: { $0.equalsIgnoringASCIICase("Content-Type") }) {
                headers["Content-Type"] = "text/plain; charset=utf-8"
            }
            response = StubResponse(data: Data(text.utf8), statusCode: status, headers: headers)
        } else if let json {
            var headers = self.headers
            if !headers.keys.contains(where: { $0.equalsIgnoringASCIICase("Content-Type") }) {
                headers["Content-Type"] = "application/json"
            }
            response = StubResponse(data: json.value.serialized(), statusCode: status, headers: headers)
        } else if let fixture {
            response = try fixtures.response(fixture, status: status, headers: headers)
        } else {
            response = StubResponse(data: data ?? Data(), statusCode: status, headers: headers)
        }
        if requestTime != nil || responseTime != nil {
            response = response.requestTime(requestTime ?? 0, responseTime: responseTime ?? 0)
        }
        if let downloadSpeed { response = response.downloadSpeed(.kilobytesPerSecond(downloadSpeed)) }
        return response
    }
}

/// A ``NetworkProfile`` on the wire (the seed as text: JSON numbers lose 64-bit precision).
@_spi(TestRunnerLink) public struct WireNetworkProfile: Codable, Sendable, Equatable {
    var downloadSpeed: Double?
    var latency: Double
    var jitter: Double
    var failureRate: Double
    var failures: [String]
    var seed: String

    init(_ profile: NetworkProfile) {
        downloadSpeed = profile.downloadSpeed?.kilobytesPerSecond
        latency = profile.latency
        jitter = profile.jitter
        failureRate = profile.failureRate
        failures = profile.failures.map(\.rawValue)
        seed = String(profile.seed)
    }

    /// The profile, or an error naming the field that is wrong.
    @_spi(TestRunnerLink) public func profile() throws -> NetworkProfile {
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

/// The `URLError.Code` of `rawValue` (`.unknown` for a number Foundation does not know here).
func urlErrorCode(_ rawValue: Int) -> URLError.Code {
    // Failable in corelibs, not in Apple's Foundation: the optional suits both.
    let code: URLError.Code? = URLError.Code(rawValue: rawValue)
    return code ?? .unknown
}
