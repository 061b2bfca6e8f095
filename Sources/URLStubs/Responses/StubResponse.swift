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
/// StubResponse(fileAt: videoURL).downloadSpeed(.threeG)
/// StubResponse(error: URLError(.notConnectedToInternet))
/// ```
public struct StubResponse: Sendable {
    /// The HTTP status code (100...599; anything else fails the request with a clear error).
    public var statusCode: Int
    /// Response headers. `Content-Length` is added from the body size when absent.
    /// Several cookies: see ``setCookieHeaders``.
    public var headers: [String: String]
    /// Each `Set-Cookie` header line, for responses that set several cookies. When empty, a
    /// `Set-Cookie` entry in ``headers`` is used.
    public var setCookieHeaders: [String]
    /// The body.
    public var body: StubBody
    /// The HTTP version reported in the response.
    public var httpVersion: String = "HTTP/1.1"

    /// What the response does: respond, fail, fail part-way, never respond or pass through.
    var action = ResponseAction.respond(truncatedAfterBytes: nil)
    /// The wait before the head and the pace of the body.
    var pacing = ResponsePacing.none
    /// Holds the response until the test releases it (``held(by:)``).
    var gate: ResponseGate?

    /// A response with a body from memory.
    public init(data: Data, statusCode: Int = 200, headers: [String: String] = [:]) {
        self.init(body: StubBody(source: .data(data)), statusCode: statusCode, headers: headers)
    }

    /// A response whose body is streamed from a file; `Content-Length` is the file's size
    /// unless `headers` gives one. A missing file fails the request with
    /// ``StubError/fileNotFound(path:)`` naming the path.
    public init(fileAt url: URL, statusCode: Int = 200, headers: [String: String] = [:]) {
        self.init(body: StubBody(source: .file(url)), statusCode: statusCode, headers: headers)
    }

    /// A response with any ``StubBody``.
    public init(body: StubBody, statusCode: Int = 200, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.headers = headers
        self.setCookieHeaders = []
        self.body = body
    }

    /// A JSON response from `JSONSerialization` objects; `Content-Type: application/json`
    /// unless `headers` says otherwise.
    public init(jsonObject: Any, statusCode: Int = 200, headers: [String: String] = [:]) throws {
        let data = try JSONSerialization.data(withJSONObject: jsonObject, options: [.sortedKeys, .fragmentsAllowed])
        self.init(data: data, statusCode: statusCode, headers: Self.addingJSONContentType(to: headers))
    }

    /// A JSON response from an `Encodable` value; `Content-Type: application/json` unless
    /// `headers` says otherwise.
    public init<Value: Encodable>(
        json value: Value, statusCode: Int = 200, headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) throws {
        let data = try encoder.encode(value)
        self.init(data: data, statusCode: statusCode, headers: Self.addingJSONContentType(to: headers))
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

    private static func addingJSONContentType(to headers: [String: String]) -> [String: String] {
        var headers = headers
        if !headers.keys.contains(where: { $0.equalsIgnoringASCIICase("Content-Type") }) {
            headers["Content-Type"] = "application/json"
        }
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
    var cookieLines: [String] {
        if !setCookieHeaders.isEmpty { return setCookieHeaders }
        return headers.first { $0.key.equalsIgnoringASCIICase("Set-Cookie") }.map { [$0.value] } ?? []
    }

    /// The `Location` of a redirect this response is (``RedirectHop/isRedirect(statusCode:)``
    /// with a `Location`), `nil` for any other response.
    var redirectLocation: String? {
        guard RedirectHop.isRedirect(statusCode: statusCode) else { return nil }
        return value(forHeader: "Location")
    }

    /// A header value, looked up case-insensitively.
    public func value(forHeader name: String) -> String? {
        headers.first { $0.key.equalsIgnoringASCIICase(name) }?.value
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
        for line in setCookieHeaders where !Self.isValidHeader(name: "Set-Cookie", value: line) {
            throw StubError.invalidHeader(name: "Set-Cookie", value: line, stub: stubName())
        }
        if let length = value(forHeader: "Content-Length"), Int(length.trimmingCharacters(in: .whitespaces)).map({ $0 < 0 }) ?? true {
            throw StubError.invalidContentLength(value: length, stub: stubName())
        }
    }

    /// The `Content-Length` the stub's own headers give, if any.
    var declaredContentLength: Int? {
        value(forHeader: "Content-Length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Checked on UTF-8 bytes, not Characters: this runs for every header of every response,
    /// and every forbidden character is a single ASCII byte (a CRLF grapheme holds a CR).
    private static func isValidHeader(name: String, value: String) -> Bool {
        if name.isEmpty { return false }
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\t"), 0: return false
            default: continue
            }
        }
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

    /// The header fields as sent, with `Content-Length` filled in and cookies joined.
    func headerFields(bodyLength: Int?) -> [String: String] {
        if headers.isEmpty, setCookieHeaders.isEmpty {
            // The commonest response (`StubResponse(data:)`): one field, no copy to grow.
            return bodyLength.map { ["Content-Length": String($0)] } ?? [:]
        }
        var fields = headers
        if !setCookieHeaders.isEmpty {
            fields = fields.filter { !$0.key.equalsIgnoringASCIICase("Set-Cookie") }
            fields["Set-Cookie"] = setCookieHeaders.joined(separator: ", ")
        }
        if let bodyLength,
            !headers.keys.contains(where: {
                $0.equalsIgnoringASCIICase("Content-Length") || $0.equalsIgnoringASCIICase("Transfer-Encoding")
            })
        {
            fields["Content-Length"] = String(bodyLength)
        }
        return fields
    }
}

extension String {
    /// Header-name equality: ASCII letters compared without case, no Foundation bridging
    /// (this runs for every header of every response).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
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
