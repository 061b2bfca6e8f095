import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsScenarios
import URLStubsTestRunnerLink

/// What a stub the test adds to the app answers (``AppBackend/stub(_:name:times:response:fileID:line:)``):
/// a spelling of the engine's `ResponseDefinition`, which is what crosses to the app. Its builders are `StubResponse`'s, with the same names and labels:
///
/// ```swift
/// RemoteResponse(json: ["items": []])
/// RemoteResponse(fixture: "cart.json")                    // resolved by the app
/// RemoteResponse(string: "sold out", statusCode: 409).requestTime(0.5)
/// RemoteResponse(statusCode: 204)
/// RemoteResponse(error: URLError(.timedOut))
/// RemoteResponse(definition)                              // any ResponseDefinition
/// ```
///
/// ``held(by:)`` holds it until the test releases it; ``stream(_:statusCode:headers:)`` answers
/// with a live stream the test writes.
public struct RemoteResponse: Codable, Sendable, Equatable {
    /// What crosses to the app.
    var definition: ResponseDefinition
    /// Why a value given to a builder cannot be sent (an object that is not JSON).
    private var conversionProblem: String?

    /// A response of `definition`, the engine's declarative form.
    public init(_ definition: ResponseDefinition) {
        self.definition = definition
    }

    /// A body of bytes (sent as base64); without `data`, a response with no body.
    public init(data: Data = Data(), statusCode: Int = 200, headers: HeaderFields = [:]) {
        self.init(ResponseDefinition(status: statusCode, headers: headers, body: data.isEmpty ? nil : .bytes(data)))
    }

    /// A UTF-8 text body, `text/plain; charset=utf-8` unless `headers` say otherwise.
    public init(string: String, statusCode: Int = 200, headers: HeaderFields = [:]) {
        var headers = headers
        if !headers.contains(name: "Content-Type") { headers["Content-Type"] = "text/plain; charset=utf-8" }
        self.init(ResponseDefinition(status: statusCode, headers: headers, body: .text(string)))
    }

    /// A JSON body, `application/json` unless `headers` say otherwise: JSON values (what
    /// `JSONSerialization` takes), else an `Encodable` value written by `encoder`, as
    /// `StubResponse(json:)` reads them. A value that is neither fails the `stub` or
    /// `release(with:)` call that sends it, naming its type.
    public init(json value: Any, statusCode: Int = 200, headers: HeaderFields = [:], encoder: JSONEncoder = JSONEncoder()) {
        self.init(ResponseDefinition(status: statusCode, headers: headers))
        do {
            definition.body = .json(try JSONValue(data: try StubResponse.jsonBody(value, encoder: encoder)))
        } catch {
            conversionProblem = "the JSON body is not JSON: \(error)"
        }
    }

    /// A fixture file the app finds where it said when it connected (its bundle by default, see
    /// `AppFixtures`), with a `Content-Type` from its extension; `.response` and `.sse` files
    /// are read as `StubResponse(fixture:in:subdirectory:statusCode:headers:)` reads them. A
    /// missing fixture fails the test's `stub` call with the closest names the app has.
    public init(fixture name: String, statusCode: Int = 200, headers: HeaderFields = [:]) {
        self.init(ResponseDefinition(status: statusCode, headers: headers, body: .fixture(name)))
    }

    /// The request fails with `error` (its code crosses to the app).
    public init(error: URLError) {
        self.init(ResponseDefinition(failure: .error(code: error.code.rawValue)))
    }

    /// Waits `requestTime` seconds before the head, then spreads the body over `responseTime`
    /// seconds, as `StubResponse.requestTime(_:responseTime:)` does.
    public func requestTime(_ requestTime: TimeInterval, responseTime: TimeInterval = 0) -> RemoteResponse {
        var copy = self
        copy.definition.requestTime = requestTime
        copy.definition.responseTime = responseTime
        return copy
    }

    /// Sends the body at `speed`.
    public func downloadSpeed(_ speed: DownloadSpeed) -> RemoteResponse {
        var copy = self
        copy.definition.downloadSpeed = speed.kilobytesPerSecond
        return copy
    }

    /// Applies `profile` (latency, jitter, failures, speed; seeded) to every answer, drawing as
    /// a scenario's profile does in process: it crosses as the link's `"networkProfile"`
    /// response transformer.
    public func networkProfile(_ profile: NetworkProfile) -> RemoteResponse {
        LinkNetworkProfile.register()
        var value: [String: JSONValue] = [
            "latency": .number(profile.latency), "jitter": .number(profile.jitter), "failureRate": .number(profile.failureRate),
            "failures": .array(profile.failures.map { .string($0.rawValue) }), "seed": .string(String(profile.seed)),
        ]
        if let speed = profile.downloadSpeed { value["downloadSpeed"] = .number(speed.kilobytesPerSecond) }
        var copy = self
        copy.definition.transformer = ResponseDefinition.Transformer(name: LinkNetworkProfile.transformerName, value: .object(value))
        return copy
    }

    /// Reads a response in the form the app receives: a declaration's `response` member.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            self.init(try DeclarationForms.response(from: json, source: "a RemoteResponse"))
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    /// Writes the response in the form the app receives: a declaration's `response` member.
    /// - Throws: `EncodingError.invalidValue` for a response that cannot be sent (a JSON body
    ///   that is not JSON).
    public func encode(to encoder: any Encoder) throws {
        try encodeForTheApp(DeclarationForms.json(of: definition), of: self, unlessRefusedBecause: conversionProblem, to: encoder)
    }

    /// What is wrong with this response; empty when nothing is.
    var problems: [String] {
        var problems = conversionProblem.map { [$0] } ?? []
        guard (100...599).contains(definition.status) else {
            return problems + ["status \(definition.status) is not an HTTP status (100...599)"]
        }
        do {
            try StubDeclaration(response: definition).validate()
        } catch let error as StubError {
            problems.append(error.description)
        } catch {
            problems.append("\(error)")
        }
        return problems
    }
}
