import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsRecording
import URLStubsScenarios
import URLStubsStreaming

// URLStubs 0.1's spellings of responses, bodies, reports and recordings, each forwarding to
// the one spelling of its idea.

extension StubRegistry {
    /// The near-miss report for a request no stub matched.
    @available(*, deprecated, message: "verify() explains every unmatched request; a failed request carries the same report")
    public func unmatchedReport(for request: StubRequest) -> String { nearMissReport(for: request) }
}

extension StubResponse {
    /// A response read from an HTTP message file (`curl -is URL > users.response`).
    /// `init(fixture:statusCode:headers:)` reads a `.response` file the same way, and says a
    /// missing file with `FixtureError`, as this spelling does.
    @available(*, deprecated, renamed: "init(fixture:)", message: "StubResponse(fixture: url) reads a .response file by its extension")
    public init(httpMessageAt url: URL) throws { try self.init(httpMessageFileAt: url) }

    /// A `text/event-stream` response replayed from an `.sse` file with its `: delay` pauses.
    /// `init(fixture:statusCode:headers:)` reads an `.sse` file the same way, and says a
    /// missing file with `FixtureError`, as this spelling does.
    @available(*, deprecated, renamed: "init(fixture:statusCode:headers:)", message: "StubResponse(fixture: url) reads an .sse file by its extension")
    public init(eventStreamAt url: URL, statusCode: Int = 200, headers: [String: String] = [:]) throws {
        try self.init(eventStreamFileAt: url, statusCode: statusCode, headers: HeaderFields(headers))
    }

    /// Server-sent events one after the other, the first at once and each next one `interval`
    /// seconds later: `stream(script:statusCode:headers:)` says the same with
    /// `StreamStep/wait(_:)` steps between the events.
    @available(
        *, deprecated,
        message: "use .stream(script: [.event(a), .wait(interval), .event(b)], headers: [\"Content-Type\": \"text/event-stream\"])"
    )
    public static func eventStream(
        _ events: [ServerSentEvent], interval: TimeInterval, statusCode: Int = 200, headers: [String: String] = [:]
    ) -> StubResponse {
        var steps: [StreamStep] = []
        for (index, event) in events.enumerated() {
            if index > 0, interval > 0 { steps.append(.wait(interval)) }
            steps.append(.event(event))
        }
        return stream(script: steps, statusCode: statusCode, headers: eventStreamHeaders(HeaderFields(headers)))
    }
}

extension StubBody {
    /// Bytes held in memory: `StubResponse/init(data:statusCode:headers:)` says it.
    @available(*, deprecated, message: "use StubResponse(data:)")
    public static func data(_ data: Data) -> StubBody { StubResponse(data: data).body }

    /// A file read lazily: `StubResponse/init(fixture:statusCode:headers:)` says it.
    @available(*, deprecated, message: "use StubResponse(fixture:)")
    public static func file(_ url: URL) -> StubBody { StubResponse(bodyFileAt: url).body }

    /// A body the test writes while the request runs: `StubResponse/stream(_:statusCode:headers:)` says it.
    @available(*, deprecated, message: "use StubResponse.stream(_:)")
    public static func live(_ stream: LiveStream) -> StubBody { StubResponse.stream(stream).body }

    /// A body written step by step: `StubResponse/stream(script:statusCode:headers:)` says it.
    @available(*, deprecated, message: "use StubResponse.stream(script:)")
    public static func script(_ steps: [StreamStep]) -> StubBody { StubResponse.stream(script: steps).body }

    /// An empty body: `StubResponse/init(statusCode:headers:)` answers with none.
    @available(*, deprecated, message: "use StubResponse(statusCode:) or StubResponse(data: Data())")
    public static var empty: StubBody { StubResponse(data: Data()).body }

    /// A body read from an `InputStream` made afresh for each request: a file
    /// (`StubResponse/init(fixture:statusCode:headers:)`) or a live stream the test writes
    /// (`StubResponse/stream(_:statusCode:headers:)`) says it.
    @available(*, deprecated, message: "write the body to a file and use StubResponse(fixture:), or write it with .stream(liveStream)")
    public static func stream(length: Int?, _ open: @escaping @Sendable () throws -> InputStream) -> StubBody {
        StubResponse(streamLength: length, open: open).body
    }
}

extension StubResponse {
    /// A response with a `StubBody`: the initializers and factories that say the body
    /// (`data:`, `fixture:`, `stream(_:statusCode:headers:)`); to give another
    /// response's body a new status or headers, copy that response and set them.
    @available(
        *, deprecated,
        message: "use StubResponse(data:), StubResponse(fixture:) or StubResponse.stream(_:); or copy a response and set statusCode/headers"
    )
    public init(body: StubBody, statusCode: Int = 200, headers: [String: String] = [:]) {
        self.init(data: Data(), statusCode: statusCode, headers: HeaderFields(headers))
        self.body = body
    }
}

// The three error types of 0.1 are names of `FixtureError`: a `catch` for any of them catches
// every kind of `FixtureError` (read `kind` to tell them apart).

/// A fixture that could not be found: a `FixtureError` of kind `FixtureError/Kind/notFound`
/// (or `FixtureError/Kind/ambiguous`).
@available(*, deprecated, renamed: "FixtureError", message: "one error for a file that cannot be used; read its kind")
public typealias FixtureNotFoundError = FixtureError

/// A malformed `.response` file: a `FixtureError` of kind `FixtureError/Kind/malformed`
/// with its `FixtureError/line`.
@available(*, deprecated, renamed: "FixtureError", message: "one error for a file that cannot be used; read its kind")
public typealias HTTPMessageError = FixtureError

/// An invalid HAR file: a `FixtureError` of kind `FixtureError/Kind/malformed` (or
/// `FixtureError/Kind/unreadable`) with its `FixtureError/jsonPath`.
@available(*, deprecated, renamed: "FixtureError", message: "one error for a file that cannot be used; read its kind")
public typealias HARError = FixtureError

/// What `StubRegistry/verifyOrThrow(includePassedThrough:)` threw in 0.1: it now throws the
/// `VerificationReport` itself, so a `catch` by this name still catches it.
@available(*, deprecated, renamed: "VerificationReport", message: "verifyOrThrow() throws the VerificationReport itself")
public typealias VerificationFailure = VerificationReport

extension VerificationReport {
    /// The report a `VerificationFailure` carried: the thrown report is the report.
    @available(*, deprecated, message: "the thrown VerificationReport is the report: drop .report")
    public var report: VerificationReport { self }
}

extension FixtureError {
    /// The name asked for: `source`.
    @available(*, deprecated, renamed: "source")
    public var name: String { source }

    /// What 0.1's two errors called `path`: where in a HAR document (`HARError`), which is
    /// `jsonPath`, and, for a file that could not be written (`CassetteWriteError`), its path,
    /// which is `source`.
    @available(*, deprecated, message: "read jsonPath (where in a HAR document) or source (the file)")
    public var path: String { kind == .unwritable ? source : jsonPath }
}

extension StubResponse {
    /// A fixture in a folder: `init(fixture:statusCode:headers:)` with the file's URL says
    /// the same.
    @available(*, deprecated, message: "use StubResponse(fixture: directory.appendingPathComponent(name))")
    public init(fixture name: String, inDirectory directory: URL, statusCode: Int = 200, headers: [String: String] = [:]) throws {
        try self.init(fixture: try Fixture.url(name, inDirectory: directory), statusCode: statusCode, headers: HeaderFields(headers))
    }
}

extension HARRecorder {
    /// The file recorded to or replayed from: the URL given to
    /// `StubRegistry/record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`.
    @available(*, deprecated, message: "the URL you passed to record(to:)")
    public var file: URL { cassette }

    /// What is scrubbed: the rules passed to
    /// `StubRegistry/record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`.
    @available(*, deprecated, message: "what you passed to record(to:scrubbing:)")
    public var scrubbing: Scrubbing { scrubbingRules }
}

extension JSONValue {
    /// The value as `JSONSerialization` objects. URLStubs' APIs take JSON as `Any` and turn it
    /// into a `JSONValue` themselves.
    @available(
        *, deprecated,
        message:
            "URLStubs' APIs take JSON as Any; try JSONSerialization.jsonObject(with: value.serialized(), options: .fragmentsAllowed) gives it back"
    )
    public var anyValue: Any {
        // A serialized JSON value is always valid JSON, so reading it back cannot fail.
        (try? JSONSerialization.jsonObject(with: serialized(), options: .fragmentsAllowed)) ?? NSNull()
    }
}

extension JSONValue {
    /// The numeric value of a `number(_:)` or an `integer(_:)`: read the case itself.
    @available(*, deprecated, message: "switch over the value: case .integer(let n) is Double(n), case .number(let x) is x")
    public var doubleValue: Double? { numericValue }

    /// The differences from `actual` as JSON path lines: compare with `==`; the JSON matchers
    /// (`hasJSONBody(_:)`) print these lines in near-miss reports and `verify()`.
    @available(*, deprecated, message: "compare with ==; hasJSONBody(_:) reports the differences by JSON path in near-miss reports")
    public func differences(from actual: JSONValue, path: String = "$") -> [String] {
        differenceLines(from: actual, path: path)
    }
}

extension Scenario {
    /// The number of stubs the scenario adds: activate it and count the registry's stubs.
    @available(*, deprecated, message: "activate the scenario in a StubRegistry() and read registry.stubs.count")
    public var stubCount: Int {
        let registry = StubRegistry()
        registry.activate(self)
        return registry.stubs.count
    }
}

extension ExpectedCount {
    /// Whether `count` activations satisfy the expectation: `StubRegistry/verify(includePassedThrough:)`
    /// checks every stub's, and lists each broken one in `VerificationReport/problems`.
    @available(*, deprecated, message: "verify() checks each stub's expectation and lists a broken one in report.problems")
    public func isSatisfied(by count: Int) -> Bool { accepts(count) }
}

extension StubDescriptor {
    /// How often the stub is expected to answer: the count you passed to `expect(_:)`, which
    /// `StubRegistry/verify(includePassedThrough:)` checks.
    @available(*, deprecated, message: "the count you passed to expect(_:); verify() reports a stub that breaks it")
    public var expectation: ExpectedCount? { expectedActivations }

    /// `true` when the stub has a limit and has reached it.
    @available(*, deprecated, message: "compare activationCount with maxActivations: a used-up stub no longer matches")
    public var isExhausted: Bool { isUsedUp }
}

extension HAREntry {
    /// An entry from a request (its `httpBody`, or `body`) and a response: the entry's own
    /// initializer takes the same fields, and recording makes entries from real exchanges.
    @available(
        *, deprecated,
        message:
            "use HAREntry(method:url:requestHeaders:requestBody:status:responseHeaders:responseBody:…), or registry.record(to:) to record real exchanges"
    )
    public init(
        request: URLRequest, body: Data? = nil, response: HTTPURLResponse, responseBody: Data,
        startedDateTime: Date = Date(), time: Double = 0
    ) {
        self.init(exchange: request, body: body, response: response, responseBody: responseBody, startedDateTime: startedDateTime, time: time)
    }
}

extension StubDescriptor {
    /// Holds every response of this stub and returns the gate that does (the same gate on
    /// every call): `held(by:)` with a `ResponseGate` of your own says the same.
    @available(*, deprecated, message: "let gate = ResponseGate(); registry.stub(…).held(by: gate)")
    public func held() -> ResponseGate { makeGate() }
}

/// A live stream misused: `StubError`, whose `library` case holds the streaming library's
/// `StreamFailure` (`writeAfterEnd`, `endedTwice`, `invalidEvent`, `invalidJSONLine`,
/// `bufferFull`, `notConnected`), so `catch LiveStreamError.library(StreamFailure.bufferFull)`
/// matches; a `catch` by this name catches every `StubError`.
@available(*, deprecated, renamed: "StubError", message: "one error for a stub, a response or a live stream misused")
public typealias LiveStreamError = StubError

/// A JSON patch that could not apply: `StubError`, which holds its cases (`bodyIsNotJSON`,
/// `patchIsNotJSON`) under the same names; a `catch` by this name catches every `StubError`.
@available(*, deprecated, renamed: "StubError", message: "one error for a stub, a response or a JSON value misused")
public typealias JSONPatchError = StubError

/// A value that is not JSON: `StubError.notJSON(type:)`, with the same message; a `catch` by
/// this name catches every `StubError`.
@available(*, deprecated, renamed: "StubError", message: "one error for a stub, a response or a JSON value misused")
public typealias JSONValueError = StubError

extension StubError {
    /// A value of `type` that is not JSON: `StubError.notJSON(type:)`.
    @available(*, deprecated, message: "use StubError.notJSON(type:)")
    public static func unsupported(_ type: String) -> StubError { .notJSON(type: type) }
}

extension StubResponse {
    /// A header value, looked up case-insensitively: `headers[name]`, which joins several fields
    /// of one name with `", "` as this did.
    @available(*, deprecated, message: "read headers[name]")
    public func value(forHeader name: String) -> String? { headers[name] }
}
