import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// One request and its response, as recorded in (or written to) a HAR 1.2 archive.
public struct HAREntry: Sendable, Equatable {
    /// When the request started.
    public var startedDateTime: Date
    /// Total time in milliseconds.
    public var time: Double
    /// The HTTP method, upper-cased.
    public var method: String
    /// The request URL, query included.
    public var url: URL
    /// Request headers in recorded order, repeats kept.
    public var requestHeaders: HeaderFields
    /// The request body (`postData`), decoded.
    public var requestBody: Data?
    /// The request body's MIME type.
    public var requestMimeType: String?
    /// The response status code.
    public var status: Int
    /// The response reason phrase.
    public var statusText: String
    /// The response HTTP version.
    public var httpVersion: String
    /// Response headers in recorded order, repeats kept.
    public var responseHeaders: HeaderFields
    /// The response body, decoded (`content.text`, base64 or not).
    public var responseBody: Data
    /// The response's `content.mimeType`.
    public var responseMimeType: String
    /// The network error recorded instead of a response (status 0): Chrome's `_error`, such
    /// as `net::ERR_CONNECTION_REFUSED`. Replay fails the request with the matching `URLError`.
    public var failure: String?

    /// An entry from its parts: what ``HAR/read(contentsOf:)`` gives, written by
    /// ``HAR/write(_:creator:version:)`` and replayed by
    /// `stubs(fromHAREntries:named:options:fileID:filePath:line:)`. To record
    /// real exchanges, `StubRegistry.record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`
    /// makes the entries.
    ///
    /// ```swift
    /// let entry = HAREntry(method: "GET", url: URL(string: "https://api.example.com/users")!, status: 200,
    ///                      responseHeaders: ["Content-Type": "application/json"],
    ///                      responseBody: Data(#"{"users":[]}"#.utf8))
    /// ```
    public init(
        startedDateTime: Date = Date(timeIntervalSince1970: 0), time: Double = 0, method: String, url: URL,
        requestHeaders: HeaderFields = [:], requestBody: Data? = nil, requestMimeType: String? = nil,
        status: Int, statusText: String = "", httpVersion: String = "HTTP/1.1",
        responseHeaders: HeaderFields = [:], responseBody: Data = Data(), responseMimeType: String = "",
        failure: String? = nil
    ) {
        self.startedDateTime = startedDateTime
        self.time = time
        self.method = method.uppercased()
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.requestMimeType = requestMimeType
        self.status = status
        self.statusText = statusText
        self.httpVersion = httpVersion
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.responseMimeType = responseMimeType
        self.failure = failure
    }

    /// An entry from a request (its `httpBody`, or `body`) and a response: what the recorder
    /// writes for an exchange that reached the network.
    package init(
        exchange request: URLRequest, body: Data?, response: HTTPURLResponse, responseBody: Data,
        startedDateTime: Date, time: Double
    ) {
        let requestHeaders = HeaderFields(request.allHTTPHeaderFields ?? [:])
        let responseHeaders = HeaderFields(
            response.allHeaderFields.map { (name: "\($0.key)", value: "\($0.value)") }
                .sorted { ($0.name.lowercased(), $0.value) < ($1.name.lowercased(), $1.value) })
        self.init(
            startedDateTime: startedDateTime, time: time, method: request.httpMethod ?? "GET",
            url: request.url ?? URL(fileURLWithPath: "/"), requestHeaders: requestHeaders,
            requestBody: body ?? request.httpBody, requestMimeType: request.value(forHTTPHeaderField: "Content-Type"),
            status: response.statusCode, statusText: HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
            responseHeaders: responseHeaders, responseBody: responseBody,
            responseMimeType: response.value(forHTTPHeaderField: "Content-Type") ?? "")
    }

    /// The response as a stub: body decoded, transport headers (`Content-Encoding`,
    /// `Content-Length`, `Transfer-Encoding`) dropped since the body is already decoded.
    public func stubResponse(replayingTime: Bool = false) -> StubResponse {
        if let failure {
            var response = StubResponse(error: Self.urlError(forRecordedFailure: failure, url: url))
            if replayingTime { response.pacing.requestTime = max(0, time) / 1000 }
            return response
        }
        var headers = HeaderFields()
        for header in responseHeaders {
            let lower = header.name.lowercased()
            if ["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"].contains(lower) { continue }
            // Firefox exports repeated headers as one value with a line per header.
            let lines = header.value.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            if lower == "set-cookie" {
                for line in lines { headers.append(name: header.name, value: line) }
            } else {
                headers.append(name: header.name, value: lines.joined(separator: ", "))
            }
        }
        if !responseMimeType.isEmpty, !headers.contains(name: "Content-Type") {
            headers["Content-Type"] = responseMimeType
        }
        var response = StubResponse(data: responseBody, statusCode: status, headers: headers)
        if replayingTime { response.pacing.requestTime = max(0, time) / 1000 }
        return response
    }
}

extension HAREntry {
    /// The `URLError` a browser's network error string stands for (Chrome's `net::ERR_…`
    /// names; anything else is `.cannotConnectToHost`, what a request that got no response
    /// most often met).
    static func urlError(forRecordedFailure failure: String, url: URL) -> URLError {
        let name = failure.uppercased()
        let code: URLError.Code
        switch true {
        case name.contains("NAME_NOT_RESOLVED"), name.contains("NAME_RESOLUTION"): code = .cannotFindHost
        case name.contains("INTERNET_DISCONNECTED"), name.contains("NETWORK_CHANGED"): code = .notConnectedToInternet
        case name.contains("TIMED_OUT"): code = .timedOut
        case name.contains("ABORTED"), name.contains("BLOCKED"): code = .cancelled
        case name.contains("CERT"), name.contains("SSL"): code = .serverCertificateUntrusted
        case name.contains("CONNECTION_RESET"), name.contains("CONNECTION_CLOSED"), name.contains("EMPTY_RESPONSE"):
            code = .networkConnectionLost
        case name.contains("TOO_MANY_REDIRECTS"): code = .httpTooManyRedirects
        default: code = .cannotConnectToHost
        }
        return URLError(
            code,
            userInfo: [
                NSURLErrorFailingURLErrorKey: url,
                NSLocalizedDescriptionKey: "The recorded request failed: \(failure) (URLStubs, HAR replay).",
            ])
    }
}
