import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a stub was declared, shown in every error and report about it.
public struct StubLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` spells it (`MyTests/UsersTests.swift`).
    public let fileID: String
    /// The file's full path (`#filePath`), for test frameworks that point an editor at it.
    public let filePath: String
    /// The 1-based line.
    public let line: Int

    /// A location, usually from `#fileID`, `#filePath` and `#line` default arguments.
    public init(fileID: String, filePath: String, line: Int) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
    }

    /// `MyAppTests/File.swift:12`.
    public var description: String { "\(fileID):\(line)" }
}

/// A stub defined wrongly, or an answer it cannot give: a response, a live stream, a JSON value
/// or a selection of stubs (a record mode, a scenario name) that is not what the app can
/// receive. Delivered as the failing task's error, or thrown by the call that made it (a
/// `LiveStream` write, ``JSONValue/init(any:)``).
///
/// Each case says what was wrong, where, and what to do; `description` is the full sentence.
///
/// How it reaches a task:
/// - A stub's own mistake (a status, header, length or body the app cannot receive, a live
///   stream misused) fails the task with this value itself: `error as? StubError` reads it.
/// - A request that no stub matched (``StubError/unmatchedRequest(report:)``) fails with the `URLError`
///   app code already handles, `URLError(.resourceUnavailable)`: its `localizedDescription` is
///   the near-miss report, and this value is under `NSUnderlyingErrorKey`. `error as?
///   StubError` is `nil` for it; ``StubError/from(_:)`` reads both forms, so a test that
///   wants the case writes `if case .unmatchedRequest(let report)? = StubError.from(error)`.
/// - A request that made no progress within its timeout fails with `URLError(.timedOut)`, as a
///   real session's would, carrying no `StubError`.
/// - The error a stub answers with (`StubResponse(error:)`, `failing(afterBytes:with:)`) is
///   delivered as given. A file that could not be found or read (a body file, a fixture, a HAR
///   file) is a ``FixtureError``, itself. An app driven by a UI test whose link to the test is
///   gone fails its requests with `URLError(.cannotConnectToHost)` carrying the link's own error.
public enum StubError: Error, Sendable, Equatable {
    /// A stub answered with a status code outside 100...599.
    case invalidStatusCode(Int, stub: String)
    /// A header name or value cannot be sent (a newline, an empty name).
    case invalidHeader(name: String, value: String, stub: String)
    /// A stub's matcher could not be built (invalid regular expression, URL pattern error).
    case invalidMatcher(stub: String, problems: [String])
    /// A body stream failed while it was being read.
    case bodyStreamFailed(stub: String, bytesDelivered: Int, reason: String)
    /// The registry that a session was installed with no longer exists.
    case registryReleased(url: String)
    /// Download tasks cannot be stubbed on this platform.
    case downloadTasksUnsupported(url: String)
    /// A request matched no stub and the registry fails unmatched requests. The task fails
    /// with `URLError(.resourceUnavailable)` carrying this value: read it with ``from(_:)``.
    case unmatchedRequest(report: String)
    /// A redirect pointed to a URL that could not be resolved.
    case invalidRedirect(location: String, stub: String)
    /// A stub's matcher looks at the body of a request whose body the platform does not show
    /// to URL protocols (an upload task on Apple platforms).
    case requestBodyUnavailable(stub: String, url: String)
    /// A registry was installed into a background session's configuration, which never
    /// consults custom protocols.
    case backgroundSessionUnsupported(identifier: String)
    /// A body delivered a different number of bytes than its response head announced (a file
    /// that shrank while it was served, a stream that ended early, a `Content-Length` header
    /// that does not match the body). ``StubResponse/truncated(afterBytes:)`` is the way to
    /// send a short body on purpose.
    case bodyLengthMismatch(stub: String, declared: Int, delivered: Int)
    /// A `Content-Length` header that is not a whole number of bytes.
    case invalidContentLength(value: String, stub: String)
    /// A format's response could not be built from what a stub gave: `reason` names the format
    /// and says what is wrong (values the format cannot encode, or one part of a joined
    /// response that is not what the whole needs).
    case invalidResponse(reason: String)
    /// A second request reached a `LiveStream` (URLStubsStreaming) while another was connected to it.
    case liveStreamBusy(stream: String, stub: String)
    /// A request reached a `LiveStream` whose end an earlier request already received.
    case liveStreamEnded(stream: String, stub: String)
    /// A scripted stream (`StreamStep`s) holds a step that cannot be sent.
    case invalidStreamStep(stub: String, reason: String)
    /// The record mode in force is `RecordMode.none` and the recording does not exist;
    /// `command` records it.
    case recordingMissing(path: String, reason: String, command: String)
    /// `URLSTUBS_RECORD` holds something other than `once`, `none`, `newEpisodes` or `all`.
    case invalidRecordMode(value: String)
    /// Scenarios were asked for by names no scenario has (`URLSTUBS_SCENARIO`, a launcher, a
    /// UI test's `activate`); `known` lists the names there are.
    case unknownScenarios([String], known: [String])
    /// A recorder was asked to record into the cassette at `path` while another live recorder
    /// (in this process or another) records it: `heldBy` and `requestedBy` name the two tests
    /// and the lines that made the recorders. Two recorders of one file would each write over
    /// the other's exchanges.
    case cassetteInUse(path: String, heldBy: String, requestedBy: String)
    /// A stub's ``DownloadSpeed`` is not a positive, finite number of KB/s.
    case invalidDownloadSpeed(kilobytesPerSecond: Double, stub: String)
    /// A recording into the cassette at `path` was not saved: `failedExchanges` of its
    /// exchanges failed at the network (`firstFailure` is the first, scrubbed), and a cassette
    /// without them would fail every later run. `previousKept` says a cassette was there and
    /// was left as it was; `command` records it again.
    case recordingFailed(path: String, failedExchanges: Int, firstFailure: String, previousKept: Bool, command: String)
    /// A stub's response has a body although its status (`1xx`, 204, 304) never carries one
    /// in HTTP: no client would receive it.
    case bodyNotAllowed(statusCode: Int, bodyLength: Int?, stub: String)
    /// A ``StubDeclaration`` that cannot match or cannot be answered, found where it was made
    /// or read: `source` names the file (or the stub), `path` the JSON path of the part
    /// (`$.request.path.matches`), `problem` what was wrong and what was expected.
    case invalidDeclaration(source: String, path: String, problem: String)

    // JSON that is not: thrown by the call given it, or failing the request it was for.

    /// A value of `type` given as JSON (``JSONValue/init(any:)``, `StubResponse(json:)`, the
    /// JSON matchers) that is neither `JSONSerialization` objects nor, where taken, `Encodable`.
    case notJSON(type: String)
    /// A passthrough's JSON patch was asked for a response whose body is not JSON (it is never
    /// silently skipped).
    case bodyIsNotJSON(url: String, contentType: String?, preview: String)
    /// A passthrough's JSON patch is itself not a JSON value.
    case patchIsNotJSON(String)

    // A `LiveStream` misused, thrown by the call that made it.

    /// A write after `LiveStream.finish()` or `LiveStream.fail(_:)`; `ended` says which, and
    /// where.
    case writeAfterEnd(stream: String, ended: String)
    /// `LiveStream.finish()` or `LiveStream.fail(_:)` on a stream that had already ended.
    case endedTwice(stream: String, ended: String)
    /// A server-sent event with a field that cannot be framed: the event as Swift spells it
    /// (`ServerSentEvent(event: "a\nb", data: "x")`), and what is wrong.
    case invalidEvent(String, reason: String)
    /// An NDJSON line that is not one line of JSON.
    case invalidJSONLine(stream: String, reason: String)
    /// A write that would leave more than the stream's `bufferLimit` bytes unsent.
    case bufferFull(stream: String, limit: Int, unsent: Int)
    /// A write after the connected request went away (`reason`), before another connected.
    case notConnected(stream: String, reason: String)

    /// `true` for a mistake in the stub's response itself (a status, header, length or speed
    /// no client can receive): ``StubRegistry/verify(includePassedThrough:)`` reports its stub.
    var isInvalidResponse: Bool {
        switch self {
        case .invalidStatusCode, .invalidHeader, .invalidContentLength, .invalidDownloadSpeed, .bodyNotAllowed: return true
        default: return false
        }
    }

    /// `stub "users list" (File.swift:3)`, or `stub where path is "/a" (File.swift:3)` for an
    /// unnamed stub, whose description already starts with the word: a stub as a message says
    /// it, "stub" once.
    package static func theStub(_ description: String) -> String {
        description.hasPrefix("stub ") ? description : "stub \(description)"
    }

    var message: String {
        switch self {
        case .bodyNotAllowed(let code, let length, let stub):
            let body = length.map { "a body of \($0) bytes" } ?? "a body"
            return
                "URLStubs: \(Self.theStub(stub)) answers \(code) with \(body); a \(code) response carries no body in HTTP. Remove the body, or answer another status."
        case .invalidStatusCode(let code, let stub):
            return "URLStubs: \(Self.theStub(stub)) answered with status code \(code); HTTP status codes are 100...599."
        case .invalidHeader(let name, let value, let stub):
            return
                "URLStubs: \(Self.theStub(stub)) has a header that cannot be sent: \(name.debugDescription): \(value.debugDescription). Names must be non-empty tokens and values must not hold CR or LF."
        case .invalidMatcher(let stub, let problems):
            return "URLStubs: \(Self.theStub(stub)) has an invalid matcher: " + problems.joined(separator: "; ")
        case .bodyStreamFailed(let stub, let bytes, let reason):
            return "URLStubs: the body stream of \(Self.theStub(stub)) failed after \(bytes) bytes: \(reason)."
        case .registryReleased(let url):
            return
                "URLStubs: the StubRegistry this session was installed with has been released, so \(url) cannot be answered. Keep the registry alive as long as its sessions."
        case .downloadTasksUnsupported(let url):
            return
                "URLStubs: download tasks cannot be stubbed on Linux (swift-corelibs-foundation crashes on a custom protocol's download); \(url) was failed instead. Use a data task and write the data to a file."
        case .unmatchedRequest(let report):
            return report
        case .invalidRedirect(let location, let stub):
            return "URLStubs: \(Self.theStub(stub)) redirects to \(location.debugDescription), which is not a valid URL."
        case .requestBodyUnavailable(let stub, let url):
            return "URLStubs: \(Self.theStub(stub)) matches on the request body, but the body of \(url) cannot be read: "
                + "upload tasks (upload(for:from:), uploadTask(with:fromFile:)) do not show their body to URL protocols on Apple platforms. "
                + "Send the body as the request's httpBody with a data task, or match this request without a body matcher."
        case .bodyLengthMismatch(let stub, let declared, let delivered):
            let shape = delivered < declared ? "ended after \(delivered) bytes" : "went on past them (\(delivered) bytes so far)"
            return "URLStubs: \(Self.theStub(stub)) announced a body of \(declared) bytes (Content-Length) but it \(shape). "
                + "Fix or remove the Content-Length header, keep the file from changing while it is served, "
                + "or use .truncated(afterBytes:) to send a short body on purpose."
        case .invalidContentLength(let value, let stub):
            return "URLStubs: \(Self.theStub(stub)) has Content-Length \(value.debugDescription), which is not a whole number of bytes. "
                + "Remove the header (URLStubs sets it from the body) or give the body's size."
        case .liveStreamBusy(let stream, let stub):
            return "URLStubs: \(Self.theStub(stub)) answered with the \(stream), but another request is connected to it; "
                + "a live stream serves one request at a time. Give each connection its own LiveStream "
                + "(registry.stub(matcher, responses: [.stream(first), .stream(second)]))."
        case .liveStreamEnded(let stream, let stub):
            return "URLStubs: \(Self.theStub(stub)) answered with the \(stream), which has ended and was already played to a request. "
                + "Give each connection its own LiveStream (registry.stub(matcher, responses: [.stream(first), .stream(second)]))."
        case .invalidStreamStep(let stub, let reason):
            return "URLStubs: the scripted stream of \(Self.theStub(stub)) cannot be sent: \(reason)."
        case .backgroundSessionUnsupported(let identifier):
            return "URLStubs: cannot install into the background configuration \(identifier.debugDescription): "
                + "background sessions never consult custom URL protocols, so every request would reach the network. "
                + "Install into a .default or .ephemeral configuration in tests."
        case .invalidResponse(let reason):
            return "URLStubs: invalid \(reason)."
        case .recordingMissing(let path, let reason, let command):
            return "URLStubs: the recording \(path) does not exist, and the record mode is none (\(reason)), "
                + "so the test would have to reach the network. Record it with:\n    \(command)\nand commit the file."
        case .invalidRecordMode(let value):
            return "URLStubs: URLSTUBS_RECORD=\(value) is not a record mode; use once, none, newEpisodes or all."
        case .unknownScenarios(let names, let known):
            return "URLStubs: unknown scenario\(names.count == 1 ? "" : "s") "
                + names.map { "\"\($0)\"" }.joined(separator: ", ")
                + ". Known scenarios: " + (known.isEmpty ? "none" : known.map { "\"\($0)\"" }.joined(separator: ", ")) + "."
        case .cassetteInUse(let path, let holder, let requester):
            return "URLStubs: \(requester) cannot record into the cassette \(path): \(holder) is recording it right now, "
                + "and two recorders of one file would each write over the other's exchanges. "
                + "Give each test its own cassette (pass a name or a folder), or record them one after the other."
        case .invalidDownloadSpeed(let speed, let stub):
            return "URLStubs: \(Self.theStub(stub)) has a download speed of \(speed) KB/s; a speed must be a positive number of KB/s. "
                + "Use .downloadSpeed(.threeG) (400 KB/s; .gprs 7, .edge 16, .threeGPlus 900, .wifi 1500) or "
                + ".downloadSpeed(.kilobytesPerSecond(400)); OHHTTPStubs' .responseTime(-400) is .downloadSpeed(.threeG). "
                + "A response that never comes is .neverResponding()."
        case .recordingFailed(let path, let count, let first, let previousKept, let command):
            let exchanges = count == 1 ? "1 exchange" : "\(count) exchanges"
            let kept =
                previousKept
                ? "The previous cassette was kept as it was; nothing of this run was written."
                : "No cassette was written."
            return "URLStubs: the recording \(path) was not saved: \(exchanges) failed at the network, "
                + "and a cassette without \(count == 1 ? "it" : "them") would fail later runs. The first: \(first). \(kept) "
                + "Once the server can be reached, record again with:\n    \(command)"
        case .notJSON(let type):
            return "a value of type \(type) cannot be represented as JSON"
        case .invalidDeclaration(let source, let path, let problem):
            return "URLStubs: \(source), at \(path): \(problem)"
        case .bodyIsNotJSON(let url, let contentType, let preview):
            return "URLStubs: a JSON patch was asked for the response of \(url), but its body is not JSON "
                + "(Content-Type: \(contentType ?? "none"); starts with \(preview))."
        case .patchIsNotJSON(let detail):
            return "URLStubs: the patch is not a JSON value: \(detail)"
        case .writeAfterEnd(let stream, let ended):
            return "URLStubs: cannot write to the \(stream): it was \(ended), and nothing more reaches the app. "
                + "Write everything before finish(), or answer with a new LiveStream for a new connection."
        case .endedTwice(let stream, let ended):
            return "URLStubs: the \(stream) was already \(ended); a stream ends once (finish() or fail(_:))."
        case .invalidEvent(_, let reason):
            return "URLStubs: this server-sent event cannot be framed for text/event-stream: \(reason)."
        case .invalidJSONLine(let stream, let reason):
            return "URLStubs: cannot send an NDJSON line to the \(stream): \(reason)."
        case .bufferFull(let stream, let limit, let unsent):
            return "URLStubs: the \(stream) already holds \(unsent) bytes the app has not read (its bufferLimit is \(limit)). "
                + "Call `try await stream.waitForRoom()` before writing more, or make the stream with a larger bufferLimit."
        case .notConnected(let stream, let reason):
            return "URLStubs: nothing reads the \(stream) now: \(reason), and what it had not received was dropped. "
                + "Wait for the next request with `try await stream.waitForConnection()` before writing again."
        }
    }
}

extension StubError: CustomStringConvertible, LocalizedError, CustomNSError {
    /// The full explanation: what was wrong, where, and what to do (each line at most
    /// 1,024 bytes: a quoted header, URL or body is cut, saying how much was left out).
    public var description: String { ReportText.boundingLines(message) }
    /// Same as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
    /// `URLStubs.StubError`, when bridged to `NSError`.
    public static var errorDomain: String { "URLStubs.StubError" }
    /// A stable number per case, when bridged to `NSError`; a number is never given to
    /// another case (1, 2 and 19 are retired).
    public var errorCode: Int {
        switch self {
        case .invalidStatusCode: return 3
        case .invalidHeader: return 4
        case .invalidMatcher: return 5
        case .bodyStreamFailed: return 6
        case .registryReleased: return 7
        case .downloadTasksUnsupported: return 8
        case .unmatchedRequest: return 9
        case .invalidRedirect: return 10
        case .requestBodyUnavailable: return 11
        case .backgroundSessionUnsupported: return 12
        case .bodyLengthMismatch: return 13
        case .invalidContentLength: return 14
        case .invalidResponse: return 15
        case .liveStreamBusy: return 16
        case .liveStreamEnded: return 17
        case .invalidStreamStep: return 18
        case .recordingMissing: return 20
        case .invalidRecordMode: return 21
        case .cassetteInUse: return 22
        case .invalidDownloadSpeed: return 23
        case .recordingFailed: return 24
        case .bodyNotAllowed: return 25
        case .writeAfterEnd: return 26
        case .endedTwice: return 27
        case .invalidEvent: return 28
        case .invalidJSONLine: return 29
        case .bufferFull: return 30
        case .notConnected: return 31
        case .notJSON: return 32
        case .bodyIsNotJSON: return 33
        case .patchIsNotJSON: return 34
        case .unknownScenarios: return 35
        case .invalidDeclaration: return 36
        }
    }
    /// The description under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}

extension StubError {
    /// The ``StubError`` behind `error`: the error itself, or the one a `URLError` carries
    /// under `NSUnderlyingErrorKey` (an unmatched request fails with such a `URLError`);
    /// `nil` for any other error, a timeout's `URLError(.timedOut)` included.
    ///
    /// ```swift
    /// if case .unmatchedRequest(let report)? = StubError.from(error) { print(report) }
    /// ```
    public static func from(_ error: any Error) -> StubError? {
        if let stubError = error as? StubError { return stubError }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey]
        if let stubError = underlying as? StubError { return stubError }
        if let wrapped = (error as? URLError)?.errorUserInfo[NSUnderlyingErrorKey] as? StubError { return wrapped }
        return nil
    }

    /// This error as the `URLError` an app expects from a failed load: `.resourceUnavailable`,
    /// the message as its localized description, and `self` as the underlying error. Printed,
    /// it shows the message once (see `ReportingNSError`), not Foundation's dump of the
    /// user info, which would repeat it.
    func asURLError(url: URL?) -> URLError {
        ReportingNSError.urlError(.resourceUnavailable, named: ".resourceUnavailable", report: description, underlying: self, url: url)
    }
}

/// Carries any error across threads. Errors handed to a stub are treated as immutable values.
package struct SendableError: Error, @unchecked Sendable {
    /// The error carried.
    package let error: any Error

    /// Carries `error`.
    package init(error: any Error) { self.error = error }
}
