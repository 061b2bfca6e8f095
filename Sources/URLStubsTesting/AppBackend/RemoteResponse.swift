import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsScenarios
import URLStubsTestRunnerLink

/// What a stub the test adds to the app answers (``AppBackend/stub(_:name:times:response:fileID:line:)``):
/// a status, headers and a body (text, JSON, bytes, or a fixture file the app finds in its own
/// bundle or fixtures folder), or an error, with timing. Its builders are `StubResponse`'s, with
/// the same names and labels:
///
/// ```swift
/// RemoteResponse(json: ["items": []])
/// RemoteResponse(fixture: "cart.json")                    // resolved by the app
/// RemoteResponse(string: "sold out", statusCode: 409).requestTime(0.5)
/// RemoteResponse(statusCode: 204)
/// RemoteResponse(error: URLError(.timedOut))
/// ```
///
/// ``held(by:)`` holds it until the test releases it; ``stream(_:statusCode:headers:)`` answers
/// with a live stream the test writes.
public struct RemoteResponse: Codable, Sendable, Equatable {
    /// What crosses to the app.
    var wire: WireResponse
    /// Why a value given to a builder cannot be sent (an object that is not JSON, a header
    /// name given twice).
    private var conversionProblem: String?

    init(statusCode: Int, wireHeaders headers: [String: String]) {
        wire = WireResponse(status: statusCode, headers: headers)
    }

    /// `headers` as the link carries them: one value per name (protocol version 2). A name
    /// given twice is refused when the response is sent rather than joined, since joined
    /// `Set-Cookie` lines would be one broken cookie.
    private init(statusCode: Int, fields headers: HeaderFields) {
        var fields: [String: String] = [:]
        var repeated: [String] = []
        for (name, value) in headers {
            if let key = fields.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                if !repeated.contains(key) { repeated.append(key) }
                continue
            }
            fields[name] = value
        }
        self.init(statusCode: statusCode, wireHeaders: fields)
        if !repeated.isEmpty {
            conversionProblem =
                "the UI-test link carries one value per header name, and \(repeated.map { "\"\($0)\"" }.joined(separator: ", ")) "
                + "is given more than once: join the values with \", \" or set one cookie per response"
        }
    }

    /// A body of bytes (sent as base64); without `data`, a response with no body.
    public init(data: Data = Data(), statusCode: Int = 200, headers: HeaderFields = [:]) {
        self.init(statusCode: statusCode, fields: headers)
        if !data.isEmpty { wire.data = data }
    }

    /// A UTF-8 text body, `text/plain; charset=utf-8` unless `headers` say otherwise.
    public init(string: String, statusCode: Int = 200, headers: HeaderFields = [:]) {
        self.init(statusCode: statusCode, fields: headers)
        wire.text = string
    }

    /// A JSON body, `application/json` unless `headers` say otherwise: an `Encodable` value
    /// written by `encoder`, or `JSONSerialization` objects. A value that is neither fails the
    /// `stub` or `release(with:)` call that sends it, naming its type.
    public init(json value: Any, statusCode: Int = 200, headers: HeaderFields = [:], encoder: JSONEncoder = JSONEncoder()) {
        self.init(statusCode: statusCode, fields: headers)
        do {
            if let encodable = value as? any Encodable {
                wire.json = WireJSON(try JSONValue(data: try encoder.encode(encodable)))
            } else {
                wire.json = WireJSON(try JSONValue(any: value))
            }
        } catch {
            conversionProblem = (conversionProblem.map { $0 + "; " } ?? "") + "the JSON body is not JSON: \(error)"
        }
    }

    /// A fixture file the app finds where it said when it connected (its bundle by default, see
    /// `AppFixtures`), with a `Content-Type` from its extension; `.response` and `.sse` files
    /// are read as `StubResponse(fixture:in:subdirectory:statusCode:headers:)` reads them. A
    /// missing fixture fails the test's `stub` call with the closest names the app has.
    public init(fixture name: String, statusCode: Int = 200, headers: HeaderFields = [:]) {
        self.init(statusCode: statusCode, fields: headers)
        wire.fixture = name
    }

    /// The request fails with `error` (its code crosses to the app).
    public init(error: URLError) {
        self.init(statusCode: 200, wireHeaders: [:])
        wire.errorCode = error.code.rawValue
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
