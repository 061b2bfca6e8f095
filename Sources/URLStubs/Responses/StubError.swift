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

/// A stub defined wrongly, or an answer it cannot give: a response or a JSON value that is not
/// what the app can receive, or a failure of a library built on the engine (``library(_:)``: a
/// live stream misused, a record mode, a scenario name). Delivered as the failing task's error,
/// or thrown by the call that made it (a `LiveStream` write, ``JSONValue/init(any:)``).
///
/// Each case says what was wrong, where, and what to do; `description` is the full sentence.
///
/// How it reaches a task:
/// - A stub's own mistake (a status, header, length or body the app cannot receive, a live
///   stream that already serves a request) fails the task with this value itself:
///   `error as? StubError` reads it.
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
public enum StubError: Error, Sendable {
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
    /// A stub's ``DownloadSpeed`` is not a positive, finite number of KB/s.
    case invalidDownloadSpeed(kilobytesPerSecond: Double, stub: String)
    /// A stub's response has a body although its status (`1xx`, 204, 304) never carries one
    /// in HTTP: no client would receive it.
    case bodyNotAllowed(statusCode: Int, bodyLength: Int?, stub: String)
    /// A ``StubDeclaration`` that cannot match or cannot be answered, found where it was made
    /// or read: `source` names the file (or the stub), `path` the JSON path of the part
    /// (`$.request.path.matches`), `problem` what was wrong and what was expected.
    case invalidDeclaration(source: String, path: String, problem: String)
    /// A failure of a library built on the engine (a live stream misused, a recording that
    /// cannot be made, an unknown scenario): the library's own value, which a pattern matches
    /// by its type's case, `StubError.library(StreamFailure.bufferFull(_, _, _))`.
    case library(any LibraryFailure)

    // JSON that is not: thrown by the call given it, or failing the request it was for.

    /// A value of `type` given as JSON (``JSONValue/init(any:)``, `StubResponse(json:)`, the
    /// JSON matchers) that is neither `JSONSerialization` objects nor, where taken, `Encodable`.
    case notJSON(type: String)
    /// A passthrough's JSON patch was asked for a response whose body is not JSON (it is never
    /// silently skipped).
    case bodyIsNotJSON(url: String, contentType: String?, preview: String)
    /// A passthrough's JSON patch is itself not a JSON value.
    case patchIsNotJSON(String)

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
        case .backgroundSessionUnsupported(let identifier):
            return "URLStubs: cannot install into the background configuration \(identifier.debugDescription): "
                + "background sessions never consult custom URL protocols, so every request would reach the network. "
                + "Install into a .default or .ephemeral configuration in tests."
        case .invalidResponse(let reason):
            return "URLStubs: invalid \(reason)."
        case .invalidDownloadSpeed(let speed, let stub):
            return "URLStubs: \(Self.theStub(stub)) has a download speed of \(speed) KB/s; a speed must be a positive number of KB/s. "
                + "Use .downloadSpeed(.threeG) (400 KB/s; .gprs 7, .edge 16, .threeGPlus 900, .wifi 1500) or "
                + ".downloadSpeed(.kilobytesPerSecond(400)); OHHTTPStubs' .responseTime(-400) is .downloadSpeed(.threeG). "
                + "A response that never comes is .neverResponding()."
        case .notJSON(let type):
            return "a value of type \(type) cannot be represented as JSON"
        case .invalidDeclaration(let source, let path, let problem):
            return "URLStubs: \(source), at \(path): \(problem)"
        case .bodyIsNotJSON(let url, let contentType, let preview):
            return "URLStubs: a JSON patch was asked for the response of \(url), but its body is not JSON "
                + "(Content-Type: \(contentType ?? "none"); starts with \(preview))."
        case .patchIsNotJSON(let detail):
            return "URLStubs: the patch is not a JSON value: \(detail)"
        case .library(let failure):
            return failure.description
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
    /// another case (1, 2 and 19 are retired; 16-18, 20-22, 24 and 26-31 are the libraries'
    /// streaming and recording failures, 35 the scenarios', each keeping its number).
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
        case .invalidDownloadSpeed: return 23
        case .bodyNotAllowed: return 25
        case .notJSON: return 32
        case .bodyIsNotJSON: return 33
        case .patchIsNotJSON: return 34
        case .invalidDeclaration: return 36
        case .library(let failure): return failure.code
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
