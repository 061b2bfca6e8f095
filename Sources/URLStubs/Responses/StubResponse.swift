import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stub answers: a status, headers and a body (or an error), plus how slowly to send it.
///
/// Responses are values; the timing modifiers return a changed copy, so they chain:
///
/// ```swift
/// StubResponse(data: Data("Hello".utf8), statusCode: 200, headers: ["Content-Type": "text/plain"])
///     .requestTime(0.5, responseTime: 2.0)     // head after 0.5 s, body spread over 2 s
/// try StubResponse(fixture: videoURL).downloadSpeed(.threeG)
/// StubResponse(error: URLError(.notConnectedToInternet))
/// ```
///
/// Ten ways build one, one per kind of body: ``init(data:statusCode:headers:)`` (also a bare
/// status: `StubResponse(statusCode: 404)`), ``init(string:statusCode:headers:)``,
/// ``init(json:statusCode:headers:encoder:)``, ``init(fixture:statusCode:headers:)`` and
/// ``init(fixture:in:subdirectory:statusCode:headers:)`` for files, `stream(_:statusCode:headers:)`
/// and `stream(script:statusCode:headers:)` for bodies written over time (URLStubsStreaming),
/// ``init(error:)``, ``neverResponding()`` and ``passthrough(_:)``.
public struct StubResponse: Sendable {
    /// The HTTP status code (100...599; anything else fails the request with a clear error).
    public var statusCode: Int
    /// Response headers, in order; a name may repeat (several `Set-Cookie` fields).
    /// `Content-Length` is added from the body size when absent.
    public var headers: HeaderFields
    /// The body.
    public var body: StubBody
    /// The HTTP version reported in the response.
    public var httpVersion: String = "HTTP/1.1"

    /// What the response does: respond, fail, fail part-way, never respond or pass through.
    package var action = ResponseAction.respond(truncatedAfterBytes: nil)
    /// The wait before the head and the pace of the body.
    package var pacing = ResponsePacing.none
    /// Holds the response until the test releases it (``held(by:)``).
    var gate: ResponseGate?

    /// A response with a body from memory; without `data`, a response with no body.
    ///
    /// ```swift
    /// registry.stub(isPath("/avatar")) { _ in StubResponse(data: avatarPNG, headers: ["Content-Type": "image/png"]) }
    /// registry.stub(isPath("/users/999")) { _ in StubResponse(statusCode: 404) }
    /// ```
    public init(data: Data = Data(), statusCode: Int = 200, headers: HeaderFields = [:]) {
        self.init(bodySource: .data(data), statusCode: statusCode, headers: headers)
    }

    /// A response whose body is streamed from the file at `url`, unchecked until a request
    /// comes (``init(fixture:statusCode:headers:)`` checks the file when built); a missing file
    /// fails the request with a ``FixtureError`` naming the folder searched and the closest names.
    package init(bodyFileAt url: URL, statusCode: Int = 200, headers: HeaderFields = [:]) {
        self.init(bodySource: .file(url), statusCode: statusCode, headers: headers)
    }

    /// A response whose body is read from an `InputStream` opened afresh for each request;
    /// `length` is the number of bytes it yields (`nil` when unknown). URLStubsMigration's
    /// `stream(length:statusCode:headers:_:)` comes here.
    package init(
        streamLength length: Int?, statusCode: Int = 200, headers: HeaderFields = [:],
        open: @escaping @Sendable () throws -> InputStream
    ) {
        self.init(bodySource: .stream(length: length, open: open), statusCode: statusCode, headers: headers)
    }

    /// A response with a body from `source`; every public initializer and factory comes here.
    init(bodySource source: StubBody.Source, statusCode: Int = 200, headers: HeaderFields = [:]) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = StubBody(source: source)
    }

    /// A JSON response: JSON values (what `JSONSerialization` takes: dictionaries, arrays,
    /// strings, numbers, `Bool`, `NSNull`) written with sorted keys, else an `Encodable` value
    /// written by `encoder`; `Content-Type: application/json` unless `headers` says otherwise.
    /// Every JSON builder (this one, the one-line `registry.stub(_:_:json:)`, a declaration's
    /// `.json` body) writes in this order, so one value gives the same bytes everywhere.
    ///
    /// ```swift
    /// registry.stub(isPath("/me")) { _ in try StubResponse(json: ["id": 1, "name": "Ada"]) }
    /// registry.stub(isPath("/users/1")) { _ in try StubResponse(json: User(id: 1, name: "Ada")) }
    /// ```
    /// - Throws: What `encoder` throws for an `Encodable` value; ``StubError/notJSON(type:)``
    ///   naming the type of a value that is neither `Encodable` nor made of JSON values.
    public init(json value: Any, statusCode: Int = 200, headers: HeaderFields = [:], encoder: JSONEncoder = JSONEncoder()) throws {
        self.init(data: try Self.jsonBody(value, encoder: encoder), statusCode: statusCode, headers: Self.addingJSONContentType(to: headers))
    }

    /// `value`'s JSON: as JSON values with sorted keys, else as an `Encodable` value by
    /// `encoder`, else the error naming its type.
    package static func jsonBody(_ value: Any, encoder: JSONEncoder = JSONEncoder()) throws -> Data {
        do {
            return try JSONValue(any: value).serialized()
        } catch {
            guard let encodable = value as? any Encodable else { throw error }
            return try encoder.encode(encodable)
        }
    }

    /// A request that fails with `error` (after the request time, ``requestTime(_:responseTime:)``), like a network failure.
    public init(error: any Error) {
        self.init(data: Data(), statusCode: 200)
        action = .fail(SendableError(error: error))
    }

    /// A response that never arrives: the request times out after its `timeoutInterval`,
    /// like a server that accepted the connection and went silent.
    public static func neverResponding() -> StubResponse {
        var response = StubResponse(data: Data())
        response.action = .neverRespond
        return response
    }

    private static func addingJSONContentType(to headers: HeaderFields) -> HeaderFields {
        var headers = headers
        if !headers.contains(name: "Content-Type") { headers["Content-Type"] = "application/json" }
        return headers
    }

    // MARK: Timing

    /// Waits `requestTime` seconds before the head, then spreads the body over `responseTime`
    /// seconds. For a speed rather than a time, use ``downloadSpeed(_:)`` (a negative
    /// `responseTime` is still read as KB/s, the OHHTTPStubs convention).
    public func requestTime(_ requestTime: TimeInterval, responseTime: TimeInterval) -> StubResponse {
        var copy = self
        copy.pacing.requestTime = max(0, requestTime)
        copy.pacing.responseTime = responseTime
        return copy
    }

    /// Sends the body at `speed`.
    public func downloadSpeed(_ speed: DownloadSpeed) -> StubResponse {
        var copy = self
        copy.pacing.body = .speed(bytesPerSecond: speed.kilobytesPerSecond * 1000)
        return copy
    }

    /// Delivers `bytes` body bytes, then fails with `error` (default: the connection was lost).
    public func failing(afterBytes bytes: Int, with error: any Error = URLError(.networkConnectionLost)) -> StubResponse {
        var copy = self
        copy.action = .failAfterBytes(max(0, bytes), SendableError(error: error))
        return copy
    }

    /// Delivers only the first `bytes` body bytes and then finishes as if complete, while
    /// `Content-Length` still announces the whole body.
    public func truncated(afterBytes bytes: Int) -> StubResponse {
        var copy = self
        copy.action = .respond(truncatedAfterBytes: max(0, bytes))
        return copy
    }

    // MARK: Derived values

    /// Every `Set-Cookie` line this response sends.
    var cookieLines: [String] { headers.values(for: "Set-Cookie") }

    /// `true` when the response is likely played in the step that starts it: a whole body in
    /// memory, at once, and no redirect. The journal records such a request when it ends
    /// instead of when it arrives, which no one could tell apart.
    var playsAtOnce: Bool {
        guard case .respond(nil) = action, pacing == .none, gate == nil, body.data != nil else { return false }
        return redirectLocation == nil
    }

    /// The `Location` of a redirect this response is (``RedirectHop/isRedirect(statusCode:)``
    /// with a `Location`), `nil` for any other response.
    var redirectLocation: String? {
        guard RedirectHop.isRedirect(statusCode: statusCode) else { return nil }
        return headers["Location"]
    }

    /// Checks what `HTTPURLResponse` cannot represent, so the caller gets a sentence instead
    /// of a crash or a silently altered response.
    func validate(stubName: @autoclosure () -> String) throws {
        guard (100...599).contains(statusCode) else {
            throw StubError.invalidStatusCode(statusCode, stub: stubName())
        }
        for (name, value) in headers where !Self.isValidHeader(name: name, value: value) {
            throw StubError.invalidHeader(name: name, value: value, stub: stubName())
        }
        if let length = headers["Content-Length"], Int(length.trimmingCharacters(in: .whitespaces)).map({ $0 < 0 }) ?? true {
            throw StubError.invalidContentLength(value: length, stub: stubName())
        }
        if case .speed(let bytesPerSecond) = pacing.body, !(bytesPerSecond > 0 && bytesPerSecond.isFinite) {
            throw StubError.invalidDownloadSpeed(kilobytesPerSecond: bytesPerSecond / 1000, stub: stubName())
        }
        if Self.forbidsBody(statusCode), body.isStreamed || body.knownLength.map({ $0 > 0 }) ?? true {
            throw StubError.bodyNotAllowed(statusCode: statusCode, bodyLength: body.knownLength, stub: stubName())
        }
    }

    /// The `Content-Length` the stub's own headers give, if any.
    var declaredContentLength: Int? {
        headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// `1xx`, 204 and 304 responses carry no body in HTTP (RFC 9110, 6.4.1).
    static func forbidsBody(_ statusCode: Int) -> Bool {
        (100...199).contains(statusCode) || statusCode == 204 || statusCode == 304
    }

    /// Checked on UTF-8 bytes, not Characters: this runs for every header of every response,
    /// and every forbidden character is a single ASCII byte (a CRLF grapheme holds a CR).
    static func isValidHeader(name: String, value: String) -> Bool {
        isHeaderToken(name) && isHeaderValue(value)
    }

    /// A field name: one or more of RFC 9110's token characters (letters, digits and
    /// `!#$%&'*+-.^_`|~`); a space, a colon or a non-ASCII letter is none.
    static func isHeaderToken(_ name: String) -> Bool {
        if name.isEmpty { return false }
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
                UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// A field value: anything but CR, LF and NUL.
    static func isHeaderValue(_ value: String) -> Bool {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0: return false
            default: continue
            }
        }
        return true
    }

    /// The response head as the caller receives it, for a body of `bodyLength` bytes (`nil`
    /// when unknown); `nil` when `HTTPURLResponse` refuses the status.
    func head(for url: URL, bodyLength: Int?) -> HTTPURLResponse? {
        HTTPURLResponse(
            url: url, statusCode: statusCode, httpVersion: httpVersion,
            headerFields: headerFields(bodyLength: bodyLength))
    }

    /// The header fields as `HTTPURLResponse` holds them: repeated fields joined, and
    /// `Content-Length` filled in.
    func headerFields(bodyLength: Int?) -> [String: String] {
        if headers.isEmpty {
            // The commonest response (`StubResponse(data:)`): one field, no copy to grow.
            return bodyLength.map { ["Content-Length": String($0)] } ?? [:]
        }
        var fields = headers.joinedByName
        if let bodyLength, !headers.contains(name: "Content-Length"), !headers.contains(name: "Transfer-Encoding") {
            fields["Content-Length"] = String(bodyLength)
        }
        return fields
    }
}

extension String {
    /// Header-name equality: ASCII letters compared without case, no Foundation bridging
    /// (this runs for every header of every response).
    package func equalsIgnoringASCIICase(_ other: String) -> Bool {
        let left = utf8, right = other.utf8
        guard left.count == right.count else { return false }
        for (a, b) in zip(left, right) where a != b {
            let foldedA = (a >= 65 && a <= 90) ? a + 32 : a
            let foldedB = (b >= 65 && b <= 90) ? b + 32 : b
            if foldedA != foldedB { return false }
        }
        return true
    }
}
