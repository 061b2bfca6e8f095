import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsScenarios

/// What a stub the test adds to the app answers, as it crosses the test-runner link: a status,
/// headers and one body (text, JSON, bytes, a fixture file the app resolves, or a live stream
/// of the test), or an error, with timing and the gate that holds it. Test authors write it as
/// `RemoteResponse` (URLStubsTesting), which converts to this.
package struct WireResponse: Codable, Sendable, Equatable {
    /// The HTTP status code.
    package var status: Int
    /// The response headers.
    package var headers: [String: String]
    /// A UTF-8 text body.
    package var text: String?
    /// A JSON body.
    package var json: WireJSON?
    /// A body of bytes (base64 on the wire).
    package var data: Data?
    /// A fixture file name the app resolves.
    package var fixture: String?
    /// A `URLError.Code` the request fails with.
    package var errorCode: Int?
    /// Seconds before the response head.
    package var requestTime: Double?
    /// Seconds over which the body is spread (negative: KB/s).
    package var responseTime: Double?
    /// KB/s.
    package var downloadSpeed: Double?
    /// Network conditions applied to each answer.
    package var networkProfile: WireNetworkProfile?
    /// The test's gate that holds this response.
    package var gateID: String?
    /// `MyAppTests/CheckoutTests.swift:12`, where the test made the gate of ``gateID``, for the
    /// app's reports.
    package var gateLocation: String?
    /// `MyAppTests/PriceTests.swift:8`, where the test made the live stream of ``streamID``.
    package var streamLocation: String?
    /// The test's live stream that is this response's body, and its framing.
    package var streamID: String?
    /// How the app frames the live stream of ``streamID``.
    package var streamKind: WireStreamKind?

    /// A response with no body yet; set one of the body fields.
    package init(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = headers
    }

    /// What is wrong with this response; empty when nothing is. Both sides check: the test
    /// before sending, the app on receipt.
    package var problems: [String] {
        var problems: [String] = []
        if !(100...599).contains(status) { problems.append("status \(status) is not an HTTP status (100...599)") }
        let bodies = [text != nil, json != nil, data != nil, fixture != nil, streamID != nil].filter { $0 }.count
        if bodies > 1 { problems.append("a response has one body: text, json, data, fixture or a live stream") }
        return problems
    }

    /// The response the app answers with; the caller applies the gate and the stream.
    package func stubResponse(fixtures: AppFixtures) throws -> StubResponse {
        var response: StubResponse
        if let errorCode {
            response = StubResponse(error: URLError(urlErrorCode(errorCode)))
        } else if let text {
            var headers = self.headers
            if !headers.keys.contains(where: { $0.equalsIgnoringASCIICase("Content-Type") }) {
                headers["Content-Type"] = "text/plain; charset=utf-8"
            }
            response = StubResponse(data: Data(text.utf8), statusCode: status, headers: HeaderFields(headers))
        } else if let json {
            var headers = self.headers
            if !headers.keys.contains(where: { $0.equalsIgnoringASCIICase("Content-Type") }) {
                headers["Content-Type"] = "application/json"
            }
            response = StubResponse(data: json.value.serialized(), statusCode: status, headers: HeaderFields(headers))
        } else if let fixture {
            response = try fixtures.response(fixture, status: status, headers: headers)
        } else {
            response = StubResponse(data: data ?? Data(), statusCode: status, headers: HeaderFields(headers))
        }
        if requestTime != nil || responseTime != nil {
            response = response.requestTime(requestTime ?? 0, responseTime: responseTime ?? 0)
        }
        if let downloadSpeed { response = response.downloadSpeed(.kilobytesPerSecond(downloadSpeed)) }
        return response
    }
}

/// The `URLError.Code` of `rawValue` (`.unknown` for a number Foundation does not know here).
func urlErrorCode(_ rawValue: Int) -> URLError.Code {
    // Failable in corelibs, not in Apple's Foundation: the optional suits both.
    let code: URLError.Code? = URLError.Code(rawValue: rawValue)
    return code ?? .unknown
}
