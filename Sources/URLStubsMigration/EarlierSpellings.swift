import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

// Spellings of URLStubs 0.1 that a second spelling of the same idea replaced. They compile, warn
// with the spelling to use (a fix-it where it is a rename), and behave as they did in 0.1, with
// one exception: `FixtureNotFoundError`, `HTTPMessageError` and `HARError` are names of
// `FixtureError`, so a `catch` for any of them catches every kind of `FixtureError`.

/// A method given as a `String` variable (a literal is a `StubRequest.Method`): use `isMethod(_:)` with a
/// `StubRequest.Method` (a string literal is one: `isMethod("POST")`).
@available(*, deprecated, message: "use isMethod(.post), isMethod(\"POST\") or isMethod(StubRequest.Method(rawValue: name))")
@_disfavoredOverload
public func isMethod<Name: StringProtocol>(_ method: Name) -> RequestMatcher {
    isMethod(StubRequest.Method(rawValue: String(method)))
}

/// A path pattern: `isPath(_:)` already reads `:name`, `*` and `**` as a pattern.
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
    /// When set, the request fails with this error after `requestTime` (no response head),
    /// or, with `failureAfterBytes`, after that many body bytes. `statusCode`, `headers`
    /// and `body` are then not sent (but for the bytes before a part-way failure).
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
    /// With `error`: how many body bytes are delivered before the failure. Set alone, the
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
    /// When set, the response comes from the real network (see `StubResponse.passthrough(_:)`).
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

/// What the deprecated `StubResponse/passthrough` property reads and sets: the transforms of
/// a response fetched from the real network, which are the ones given to
/// `StubResponse.passthrough(_:)`.
@available(*, deprecated, message: "a passthrough's transforms are the ones passed to StubResponse.passthrough(_:)")
public struct Passthrough: Sendable {
    /// Applied in order to the real response.
    public var transforms: [ResponseTransform]
}

extension UnmatchedRequestPolicy {
    /// `passThrough`, in two words: use `passthrough`, one word, as in
    /// `StubResponse.passthrough(_:)`.
    @available(*, deprecated, renamed: "passthrough")
    public static var passThrough: UnmatchedRequestPolicy { .passthrough }
}

extension VerificationReport {
    /// A stub whose activation count broke its expectation: read `VerificationProblem` with
    /// kind `VerificationProblem/Kind/unmetExpectation` instead.
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
            "\(stub) was expected \(expected), answered \(timesText(actual))"
        }
    }

    /// An `ExpectedUnmatchedRequest` whose requests came more or less often than declared:
    /// read `VerificationProblem` with kind `VerificationProblem/Kind/unmetUnmatchedExpectation`.
    @available(*, deprecated, message: "read report.problems: kind .unmetUnmatchedExpectation, count")
    public struct UnmetUnmatchedExpectation: Sendable, CustomStringConvertible {
        /// The declaration.
        public let expectation: ExpectedUnmatchedRequest
        /// How many unmatched requests it accepted.
        public let actual: Int

        /// One line: the declaration, where it was written, and the counts.
        public var description: String {
            "an \(expectation) was expected \(expectation.count), seen \(timesText(actual))"
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

/// A path pattern as a value: `isPath(_:)` reads the same patterns, and the response
/// closure receives the captures as `StubRequest/pathParameters`.
@available(*, deprecated, message: "use isPath(\"/users/:id\"); the response closure reads request.pathParameters")
public struct URLPattern: Sendable, Equatable, CustomStringConvertible {
    let pattern: PathPattern

    /// Parses a pattern; throws ``URLPatternError`` naming the column of a syntax error.
    public init(_ pattern: String) throws {
        do {
            self.pattern = try PathPattern(pattern)
        } catch let error as PathPatternError {
            throw URLPatternError(pattern: error.pattern, column: error.column, message: error.message, description: error.description)
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
    public let description: String

    /// Same as `description`.
    public var errorDescription: String? { description }
}

/// A count of times as the verification report says it: "once", "twice", "3 times".
private func timesText(_ count: Int) -> String {
    count == 1 ? "once" : count == 2 ? "twice" : "\(count) times"
}

extension HTTPURLResponse {
    /// A copy with another status code: in a passthrough, say `ResponseTransform/statusCode(_:)`.
    @available(*, deprecated, message: "in a passthrough, use the transform .statusCode(_:)")
    public func replacing(statusCode: Int) -> HTTPURLResponse { withStatusCode(statusCode) }

    /// A copy with headers set or removed: in a passthrough, say `ResponseTransform/headers(_:)`.
    @available(*, deprecated, message: "in a passthrough, use the transform .headers(_:)")
    public func replacingHeaders(_ changes: [String: String?]) -> HTTPURLResponse { withHeaders(changes) }
}

extension JSONValue {
    /// RFC 7396 JSON Merge Patch: say `ResponseTransform/jsonMergePatch(_:)` in a passthrough.
    @available(*, deprecated, message: "in a passthrough, use the transform .jsonMergePatch(_:)")
    public func mergePatched(with patch: JSONValue) -> JSONValue { mergePatch(patch) }

    /// The template patch: say `ResponseTransform/jsonTemplatePatch(_:)` in a passthrough.
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
    /// `true` when the body was cut at `StubRegistry/journalBodyLimit`.
    @available(*, deprecated, message: "read cutBodySize, the size before the cut (nil when whole)")
    public var isBodyCut: Bool { cutBodySize != nil }
}
