import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Spellings of URLStubs 0.1 that a second spelling of the same idea replaced. They compile, warn
// with the spelling to use (a fix-it where it is a rename), and behave as they did in 0.1, with
// one exception: `FixtureNotFoundError`, `HTTPMessageError` and `HARError` are names of
// `FixtureError`, so a `catch` for any of them catches every kind of `FixtureError`.

/// A method given as a `String` variable (a literal is a ``StubRequest/Method``): use ``isMethod(_:)-(StubRequest.Method)`` with a ``StubRequest/Method``
/// (a string literal is one: `isMethod("POST")`).
@available(*, deprecated, message: "use isMethod(.post), isMethod(\"POST\") or isMethod(StubRequest.Method(rawValue: name))")
@_disfavoredOverload
public func isMethod<Name: StringProtocol>(_ method: Name) -> RequestMatcher {
    methodMatcher(String(method))
}

/// A path pattern: ``isPath(_:)`` already reads `:name`, `*` and `**` as a pattern.
@available(*, deprecated, renamed: "isPath(_:)", message: "isPath(_:) reads :name, * and ** as a pattern")
public func pathPattern(_ pattern: String) -> RequestMatcher {
    patternPathMatcher(pattern)
}

/// Settable fields whose meaning depended on the order they were read: each is said by the
/// initializer or modifier named in its deprecation message.
extension StubResponse {
    /// Seconds to wait before the response head is sent.
    @available(*, deprecated, message: "use .requestTime(seconds, responseTime: 0) to set it")
    public var requestTime: TimeInterval {
        get { pacing.requestTime }
        set { pacing.requestTime = newValue }
    }
    /// Seconds over which the body is spread; a negative value is a download speed in KB/s,
    /// as in OHHTTPStubs (`-400` is 3G). Zero sends the body as fast as it can be read.
    @available(*, deprecated, message: "use .requestTime(0, responseTime: seconds), or .downloadSpeed(_:) for a speed")
    public var responseTime: TimeInterval {
        get { pacing.responseTime }
        set { pacing.responseTime = newValue }
    }
    /// When set, the request fails with this error after ``requestTime`` (no response head),
    /// or, with ``failureAfterBytes``, after that many body bytes. ``statusCode``, ``headers``
    /// and ``body`` are then not sent (but for the bytes before a part-way failure).
    @available(*, deprecated, message: "use StubResponse(error:) for a failure, or .failing(afterBytes:with:) for one part-way")
    public var error: (any Error)? {
        get { action.error }
        set {
            guard let newValue else {
                if action.error != nil { action = .respond(truncatedAfterBytes: nil) }
                return
            }
            let failure = SendableError(error: newValue)
            if case .failAfterBytes(let bytes, _) = action {
                action = .failAfterBytes(bytes, failure)
            } else {
                action = .fail(failure)
            }
        }
    }
    /// With ``error``: how many body bytes are delivered before the failure. Set alone, the
    /// failure is a lost connection.
    @available(*, deprecated, message: "use .failing(afterBytes:with:)")
    public var failureAfterBytes: Int? {
        get {
            if case .failAfterBytes(let bytes, _) = action { return bytes }
            return nil
        }
        set {
            let failure = action.error.map(SendableError.init) ?? SendableError(error: URLError(.networkConnectionLost))
            if let newValue {
                action = .failAfterBytes(newValue, failure)
            } else if case .failAfterBytes = action {
                action = .fail(failure)
            }
        }
    }
    /// Sends only the first N bytes of the body and then finishes normally, while
    /// `Content-Length` still announces the full size: a truncated download.
    @available(*, deprecated, message: "use .truncated(afterBytes:)")
    public var truncatedAfterBytes: Int? {
        get {
            if case .respond(let truncated) = action { return truncated }
            return nil
        }
        set {
            if let newValue {
                action = .respond(truncatedAfterBytes: newValue)
            } else if case .respond = action {
                action = .respond(truncatedAfterBytes: nil)
            }
        }
    }
    /// The response never arrives; the request ends with `URLError(.timedOut)` when its
    /// timeout elapses (or `.cancelled` when the caller gives up).
    @available(*, deprecated, message: "use StubResponse.neverResponding()")
    public var neverResponds: Bool {
        get {
            if case .neverRespond = action { return true }
            return false
        }
        set {
            if newValue {
                action = .neverRespond
            } else if case .neverRespond = action {
                action = .respond(truncatedAfterBytes: nil)
            }
        }
    }
    /// When set, the response comes from the real network (see ``passthrough(_:)-(ResponseTransform...)``).
    @available(*, deprecated, message: "use StubResponse.passthrough(_:) to answer from the network")
    public var passthrough: Passthrough? {
        get {
            if case .passThrough(let transforms) = action { return Passthrough(transforms: transforms) }
            return nil
        }
        set {
            if let newValue {
                action = .passThrough(transforms: newValue.transforms)
            } else if case .passThrough = action {
                action = .respond(truncatedAfterBytes: nil)
            }
        }
    }
}

/// What the deprecated ``StubResponse/passthrough`` property reads and sets: the transforms of
/// a response fetched from the real network, which are the ones given to
/// ``StubResponse/passthrough(_:)-(ResponseTransform...)``.
@available(*, deprecated, message: "a passthrough's transforms are the ones passed to StubResponse.passthrough(_:)")
public struct Passthrough: Sendable {
    /// Applied in order to the real response.
    public var transforms: [ResponseTransform]
}

extension UnmatchedRequestPolicy {
    /// `passThrough`, in two words: use ``passthrough``, one word, as in
    /// ``StubResponse/passthrough(_:)-(ResponseTransform...)``.
    @available(*, deprecated, renamed: "passthrough")
    public static var passThrough: UnmatchedRequestPolicy { .passthrough }
}

extension VerificationReport {
    /// A stub whose activation count broke its expectation: read ``VerificationProblem`` with
    /// kind ``VerificationProblem/Kind/unmetExpectation`` instead.
    @available(*, deprecated, message: "read report.problems: kind .unmetExpectation, stub, count")
    public struct UnmetExpectation: Sendable, CustomStringConvertible {
        /// The stub.
        public let stub: StubDescriptor
        /// What was expected.
        public let expected: ExpectedCount
        /// How many times it answered.
        public let actual: Int

        /// One line: the stub, where it was declared, and the counts.
        public var description: String {
            "\(stub) was expected \(expected), answered \(ReportText.times(actual))"
        }
    }

    /// An ``ExpectedUnmatchedRequest`` whose requests came more or less often than declared:
    /// read ``VerificationProblem`` with kind ``VerificationProblem/Kind/unmetUnmatchedExpectation``.
    @available(*, deprecated, message: "read report.problems: kind .unmetUnmatchedExpectation, count")
    public struct UnmetUnmatchedExpectation: Sendable, CustomStringConvertible {
        /// The declaration.
        public let expectation: ExpectedUnmatchedRequest
        /// How many unmatched requests it accepted.
        public let actual: Int

        /// One line: the declaration, where it was written, and the counts.
        public var description: String {
            "an \(expectation) was expected \(expectation.count), seen \(ReportText.times(actual))"
        }
    }

    /// Each distinct unexpected request, in the order they first came.
    @available(*, deprecated, message: "read report.problems where kind == .unexpectedRequest (request, count)")
    public var unexpectedRequests: [JournalEntry] { unexpected }

    /// Unexpected requests beyond the distinct ones listed, counted only.
    @available(*, deprecated, message: "read report.problems where kind == .unexpectedRequest and request == nil (count)")
    public var uncountedUnexpectedRequests: Int { uncounted }

    /// Stubs used more or less often than declared.
    @available(*, deprecated, message: "read report.problems where kind == .unmetExpectation (stub, count)")
    public var unmetExpectations: [UnmetExpectation] {
        unmet.map { UnmetExpectation(stub: $0.stub, expected: $0.expected, actual: $0.actual) }
    }

    /// Stubs whose matcher could not be built.
    @available(*, deprecated, message: "read report.problems where kind == .invalidStub (stub)")
    public var invalidStubs: [StubDescriptor] { invalid }

    /// Declarations of expected unmatched requests whose count was broken.
    @available(*, deprecated, message: "read report.problems where kind == .unmetUnmatchedExpectation (count)")
    public var unmetUnmatchedExpectations: [UnmetUnmatchedExpectation] {
        unmetUnmatched.map { UnmetUnmatchedExpectation(expectation: $0.expectation, actual: $0.actual) }
    }

    /// Stubs replaying a recorded request the test never made.
    @available(*, deprecated, message: "read report.problems where kind == .unusedRecordedEntry (stub)")
    public var unusedRecordedEntries: [StubDescriptor] { unusedRecorded }

    /// How many times the unexpected request `entry` came.
    @available(*, deprecated, message: "read the count of the report.problems entry whose request is this one")
    public func count(of entry: JournalEntry) -> Int { occurrences(of: entry) }
}

/// A path pattern as a value: ``isPath(_:)`` reads the same patterns, and the response
/// closure receives the captures as ``StubRequest/pathParameters``.
@available(*, deprecated, message: "use isPath(\"/users/:id\"); the response closure reads request.pathParameters")
public struct URLPattern: Sendable, Equatable, CustomStringConvertible {
    let pattern: PathPattern

    /// Parses a pattern; throws ``URLPatternError`` naming the column of a syntax error.
    public init(_ pattern: String) throws {
        do {
            self.pattern = try PathPattern(pattern)
        } catch let error as PathPatternError {
            throw URLPatternError(pattern: error.pattern, column: error.column, message: error.message)
        }
    }

    /// The pattern as written.
    public var description: String { pattern.description }

    /// The captured parameters when `path` fits the pattern, else `nil`.
    public func match(_ path: String) -> [String: String]? { pattern.match(path) }
}

/// A syntax error in a ``URLPattern``.
@available(*, deprecated, message: "isPath(_:) reports a pattern's syntax error as StubError.invalidMatcher")
public struct URLPatternError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The pattern as written.
    public let pattern: String
    /// The 1-based column where the problem starts.
    public let column: Int
    /// What was expected.
    public let message: String

    /// The whole sentence: pattern, column and what was expected.
    public var description: String { PathPatternError(pattern: pattern, column: column, message: message).description }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

extension HTTPURLResponse {
    /// A copy with another status code: in a passthrough, say ``ResponseTransform/statusCode(_:)``.
    @available(*, deprecated, message: "in a passthrough, use the transform .statusCode(_:)")
    public func replacing(statusCode: Int) -> HTTPURLResponse { withStatusCode(statusCode) }

    /// A copy with headers set or removed: in a passthrough, say ``ResponseTransform/headers(_:)``.
    @available(*, deprecated, message: "in a passthrough, use the transform .headers(_:)")
    public func replacingHeaders(_ changes: [String: String?]) -> HTTPURLResponse { withHeaders(changes) }
}

extension JSONValue {
    /// RFC 7396 JSON Merge Patch: say ``ResponseTransform/jsonMergePatch(_:)`` in a passthrough.
    @available(*, deprecated, message: "in a passthrough, use the transform .jsonMergePatch(_:)")
    public func mergePatched(with patch: JSONValue) -> JSONValue { mergePatch(patch) }

    /// The template patch: say ``ResponseTransform/jsonTemplatePatch(_:)`` in a passthrough.
    @available(*, deprecated, message: "in a passthrough, use the transform .jsonTemplatePatch(_:)")
    public func templatePatched(with patch: JSONValue) -> JSONValue { templatePatch(patch) }
}

extension Fixture {
    /// The `Content-Type` a fixture file gets from its extension.
    @available(*, deprecated, message: "StubResponse(fixture:) sets the Content-Type from the extension")
    public static func contentType(forExtension ext: String) -> String { mediaType(forExtension: ext) }
}

extension DownloadSpeed {
    /// The speed in bytes per second.
    @available(*, deprecated, message: "read kilobytesPerSecond (1 KB = 1,000 bytes)")
    public var bytesPerSecond: Double { kilobytesPerSecond * 1000 }
}

extension JournalEntry {
    /// `true` when the body was cut at ``StubRegistry/journalBodyLimit``.
    @available(*, deprecated, message: "read cutBodySize, the size before the cut (nil when whole)")
    public var isBodyCut: Bool { cutBodySize != nil }
}

extension StubRegistry {
    /// The near-miss report for a request no stub matched.
    @available(*, deprecated, message: "verify() explains every unmatched request; a failed request carries the same report")
    public func unmatchedReport(for request: StubRequest) -> String { nearMissReport(for: request) }
}

extension StubResponse {
    /// A response read from an HTTP message file (`curl -is URL > users.response`).
    /// ``init(fixture:statusCode:headers:)`` reads a `.response` file the same way, and says a
    /// missing file with ``FixtureError``; this spelling throws
    /// ``StubError/fileNotFound(path:)``.
    @available(*, deprecated, renamed: "init(fixture:)", message: "StubResponse(fixture: url) reads a .response file by its extension")
    public init(httpMessageAt url: URL) throws { try self.init(httpMessageFileAt: url) }

    /// A `text/event-stream` response replayed from an `.sse` file with its `: delay` pauses.
    /// ``init(fixture:statusCode:headers:)`` reads an `.sse` file the same way, and says a
    /// missing file with ``FixtureError``; this spelling throws
    /// ``StubError/fileNotFound(path:)``.
    @available(*, deprecated, renamed: "init(fixture:statusCode:headers:)", message: "StubResponse(fixture: url) reads an .sse file by its extension")
    public init(eventStreamAt url: URL, statusCode: Int = 200, headers: [String: String] = [:]) throws {
        try self.init(eventStreamFileAt: url, statusCode: statusCode, headers: headers)
    }

    /// Server-sent events one after the other, the first at once and each next one `interval`
    /// seconds later: ``eventStream(script:statusCode:headers:)`` says the same with
    /// ``StreamStep/wait(_:)`` steps between the events.
    @available(*, deprecated, message: "use .eventStream(script: [.event(a), .wait(interval), .event(b)])")
    public static func eventStream(
        _ events: [ServerSentEvent], interval: TimeInterval, statusCode: Int = 200, headers: [String: String] = [:]
    ) -> StubResponse {
        var steps: [StreamStep] = []
        for (index, event) in events.enumerated() {
            if index > 0, interval > 0 { steps.append(.wait(interval)) }
            steps.append(.event(event))
        }
        return eventStream(script: steps, statusCode: statusCode, headers: headers)
    }
}

extension StubBody {
    /// Bytes held in memory: ``StubResponse/init(data:statusCode:headers:)`` says it.
    @available(*, deprecated, message: "use StubResponse(data:)")
    public static func data(_ data: Data) -> StubBody { StubBody(source: .data(data)) }

    /// A file read lazily: ``StubResponse/init(fileAt:statusCode:headers:)`` says it.
    @available(*, deprecated, message: "use StubResponse(fileAt:)")
    public static func file(_ url: URL) -> StubBody { StubBody(source: .file(url)) }

    /// A body the test writes while the request runs: ``StubResponse/stream(_:statusCode:headers:)`` says it.
    @available(*, deprecated, message: "use StubResponse.stream(_:) or .eventStream(_:)")
    public static func live(_ stream: LiveStream) -> StubBody { StubBody(source: .live(stream)) }

    /// A body written step by step: ``StubResponse/stream(script:statusCode:headers:)`` says it.
    @available(*, deprecated, message: "use StubResponse.stream(script:) or .eventStream(script:)")
    public static func script(_ steps: [StreamStep]) -> StubBody { StubBody(source: .script(steps)) }

    /// An empty body: ``StubResponse/init(statusCode:headers:)`` answers with none.
    @available(*, deprecated, message: "use StubResponse(statusCode:) or StubResponse(data: Data())")
    public static var empty: StubBody { StubBody(source: .data(Data())) }

    /// A body read from an `InputStream` made afresh for each request:
    /// ``StubResponse/stream(length:statusCode:headers:_:)`` says it.
    @available(*, deprecated, message: "use StubResponse.stream(length:statusCode:headers:_:)")
    public static func stream(length: Int?, _ open: @escaping @Sendable () throws -> InputStream) -> StubBody {
        StubBody(source: .stream(length: length, open: open))
    }
}

extension StubResponse {
    /// A response with a ``StubBody``: the initializers and factories that say the body
    /// (`data:`, `fileAt:`, ``stream(length:statusCode:headers:_:)``); to give another
    /// response's body a new status or headers, copy that response and set them.
    @available(
        *, deprecated,
        message: "use StubResponse(data:), StubResponse(fileAt:) or StubResponse.stream(length:) { … }; or copy a response and set statusCode/headers"
    )
    public init(body: StubBody, statusCode: Int = 200, headers: [String: String] = [:]) {
        self.init(bodySource: body.source, statusCode: statusCode, headers: headers)
    }
}

// The three error types of 0.1 are names of `FixtureError`: a `catch` for any of them catches
// every kind of `FixtureError` (read `kind` to tell them apart).

/// A fixture that could not be found: a ``FixtureError`` of kind ``FixtureError/Kind/notFound``
/// (or ``FixtureError/Kind/ambiguous``).
@available(*, deprecated, renamed: "FixtureError", message: "one error for a file that cannot be used; read its kind")
public typealias FixtureNotFoundError = FixtureError

/// A malformed `.response` file: a ``FixtureError`` of kind ``FixtureError/Kind/malformed``
/// with its ``FixtureError/line``.
@available(*, deprecated, renamed: "FixtureError", message: "one error for a file that cannot be used; read its kind")
public typealias HTTPMessageError = FixtureError

/// An invalid HAR file: a ``FixtureError`` of kind ``FixtureError/Kind/malformed`` (or
/// ``FixtureError/Kind/unreadable``) with its ``FixtureError/jsonPath``.
@available(*, deprecated, renamed: "FixtureError", message: "one error for a file that cannot be used; read its kind")
public typealias HARError = FixtureError

/// What ``StubRegistry/verifyOrThrow(includePassedThrough:)`` threw in 0.1: it now throws the
/// ``VerificationReport`` itself, so a `catch` by this name still catches it.
@available(*, deprecated, renamed: "VerificationReport", message: "verifyOrThrow() throws the VerificationReport itself")
public typealias VerificationFailure = VerificationReport

extension VerificationReport {
    /// The report a ``VerificationFailure`` carried: the thrown report is the report.
    @available(*, deprecated, message: "the thrown VerificationReport is the report: drop .report")
    public var report: VerificationReport { self }
}

extension FixtureError {
    /// The name asked for: ``source``.
    @available(*, deprecated, renamed: "source")
    public var name: String { source }

    /// Where in a HAR document: ``jsonPath``.
    @available(*, deprecated, renamed: "jsonPath")
    public var path: String { jsonPath }
}

extension StubResponse {
    /// A fixture in a folder: ``init(fixture:statusCode:headers:)`` with the file's URL says
    /// the same.
    @available(*, deprecated, message: "use StubResponse(fixture: directory.appendingPathComponent(name))")
    public init(fixture name: String, inDirectory directory: URL, statusCode: Int = 200, headers: [String: String] = [:]) throws {
        try self.init(fixtureAt: try Fixture.url(name, inDirectory: directory), statusCode: statusCode, headers: headers)
    }
}

extension HARRecorder {
    /// The file recorded to or replayed from: the URL given to
    /// ``StubRegistry/record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)``.
    @available(*, deprecated, message: "the URL you passed to record(to:)")
    public var file: URL { cassette }

    /// What is scrubbed: the rules passed to
    /// ``StubRegistry/record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)``.
    @available(*, deprecated, message: "what you passed to record(to:scrubbing:)")
    public var scrubbing: Scrubbing { scrubbingRules }
}

extension JSONValue {
    /// The value as `JSONSerialization` objects. URLStubs' APIs take JSON as `Any` and turn it
    /// into a ``JSONValue`` themselves.
    @available(
        *, deprecated,
        message:
            "URLStubs' APIs take JSON as Any; try JSONSerialization.jsonObject(with: value.serialized(), options: .fragmentsAllowed) gives it back"
    )
    public var anyValue: Any { foundationObject }
}

extension JSONValue {
    /// The numeric value of a ``number(_:)`` or an ``integer(_:)``: read the case itself.
    @available(*, deprecated, message: "switch over the value: case .integer(let n) is Double(n), case .number(let x) is x")
    public var doubleValue: Double? { numericValue }

    /// The differences from `actual` as JSON path lines: compare with `==`; the JSON matchers
    /// (``hasJSONBody(_:)``) print these lines in near-miss reports and `verify()`.
    @available(*, deprecated, message: "compare with ==; hasJSONBody(_:) reports the differences by JSON path in near-miss reports")
    public func differences(from actual: JSONValue, path: String = "$") -> [String] {
        differenceLines(from: actual, path: path)
    }
}

extension Scenario {
    /// The number of stubs the scenario adds: activate it and count the registry's stubs.
    @available(*, deprecated, message: "activate the scenario in a StubRegistry() and read registry.stubs.count")
    public var stubCount: Int { specs.count }
}

extension ExpectedCount {
    /// Whether `count` activations satisfy the expectation: ``StubRegistry/verify(includePassedThrough:)``
    /// checks every stub's, and lists each broken one in ``VerificationReport/problems``.
    @available(*, deprecated, message: "verify() checks each stub's expectation and lists a broken one in report.problems")
    public func isSatisfied(by count: Int) -> Bool { accepts(count) }
}

extension StubDescriptor {
    /// How often the stub is expected to answer: the count you passed to ``expect(_:)``, which
    /// ``StubRegistry/verify(includePassedThrough:)`` checks.
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
