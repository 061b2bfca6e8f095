import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsScenarios
@_spi(TestRunnerLink) import URLStubsTestRunnerLink

/// What a stub the test adds to the app answers (``AppBackend/stub(_:name:times:response:fileID:line:)``):
/// a status, headers and a body (text, JSON, bytes, or a fixture file the app finds in its own
/// bundle or fixtures folder), or an error, with timing.
///
/// ```swift
/// RemoteResponse.json(["items": []])
/// RemoteResponse.fixture("cart.json")                    // resolved by the app
/// RemoteResponse.text("sold out", status: 409).requestTime(0.5)
/// RemoteResponse.error(.timedOut)
/// ```
///
/// ``held(by:)`` holds it until the test releases it; ``eventStream(_:status:headers:)`` and
/// ``stream(_:status:headers:)`` answer with a live stream the test writes.
public struct RemoteResponse: Codable, Sendable, Equatable {
    /// What crosses to the app.
    var wire: WireResponse
    /// Why a value given to a factory cannot be sent (an object that is not JSON).
    private var conversionProblem: String?

    private init(status: Int, headers: [String: String]) {
        wire = WireResponse(status: status, headers: headers)
    }

    /// No body.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> RemoteResponse {
        RemoteResponse(status: status, headers: headers)
    }

    /// A UTF-8 text body, `text/plain` unless `headers` say otherwise.
    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        var response = RemoteResponse(status: status, headers: headers)
        response.wire.text = text
        return response
    }

    /// A JSON body from `JSONSerialization` values, `application/json` unless `headers` say otherwise.
    public static func json(_ object: Any, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        var response = RemoteResponse(status: status, headers: headers)
        do {
            response.wire.json = WireJSON(try JSONValue(any: object))
        } catch {
            response.conversionProblem = "the JSON body is not JSON: \(error)"
        }
        return response
    }

    /// A body of bytes (sent as base64).
    public static func data(_ data: Data, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        var response = RemoteResponse(status: status, headers: headers)
        response.wire.data = data
        return response
    }

    /// A fixture file the app finds where it said when it connected (its bundle by default, see
    /// `AppFixtures`), with a `Content-Type` from its extension; `.response` and `.sse` files
    /// are read as `StubResponse(fixture:in:subdirectory:statusCode:headers:)` reads them. A
    /// missing fixture fails the test's `stub` call with the closest names the app has.
    public static func fixture(_ name: String, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        var response = RemoteResponse(status: status, headers: headers)
        response.wire.fixture = name
        return response
    }

    /// The request fails with `URLError(code)`.
    public static func error(_ code: URLError.Code) -> RemoteResponse {
        var response = RemoteResponse(status: 200, headers: [:])
        response.wire.errorCode = code.rawValue
        return response
    }

    /// Waits `requestTime` seconds before the head, then spreads the body over `responseTime`
    /// seconds, as `StubResponse.requestTime(_:responseTime:)` does.
    public func requestTime(_ requestTime: TimeInterval, responseTime: TimeInterval = 0) -> RemoteResponse {
        var copy = self
        copy.wire.requestTime = requestTime
        copy.wire.responseTime = responseTime
        return copy
    }

    /// Sends the body at `speed`.
    public func downloadSpeed(_ speed: DownloadSpeed) -> RemoteResponse {
        var copy = self
        copy.wire.downloadSpeed = speed.kilobytesPerSecond
        return copy
    }

    /// Applies `profile` (latency, jitter, failures, speed; seeded) to every answer.
    public func networkProfile(_ profile: NetworkProfile) -> RemoteResponse {
        var copy = self
        copy.wire.networkProfile = WireNetworkProfile(profile)
        return copy
    }

    /// Reads a response in the form the app receives.
    public init(from decoder: any Decoder) throws {
        wire = try WireResponse(from: decoder)
    }

    /// Writes the response in the form the app receives.
    /// - Throws: `EncodingError.invalidValue` for a response that cannot be sent (a JSON body
    ///   that is not JSON).
    public func encode(to encoder: any Encoder) throws {
        try encodeForTheApp(wire, of: self, unlessRefusedBecause: conversionProblem, to: encoder)
    }

    /// What is wrong with this response; empty when nothing is.
    var problems: [String] {
        (conversionProblem.map { [$0] } ?? []) + wire.problems
    }
}
