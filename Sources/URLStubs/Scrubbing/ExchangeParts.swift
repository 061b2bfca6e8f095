import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The parts of an exchange a secret travels in: the URL (its query and credentials), the
/// headers of the request and the response (cookies among them) and both bodies with their media
/// types. A ``Scrubbing`` policy's `scrub(_:)` takes them together, so a secret found in one
/// part is hunted in all the others; a wing that stores exchanges in a format of its own (a HAR
/// entry) scrubs a stored exchange by taking its parts out and putting the scrubbed ones back.
///
/// A live request is an exchange without a response: its response parts are empty.
package struct ExchangeParts: Sendable, Hashable {
    /// The request URL, query included.
    package var url: URL
    /// The request headers, in order, repeats kept.
    package var requestHeaders: HeaderFields
    /// The request body, or `nil` when the request has none.
    package var requestBody: Data?
    /// The request body's media type (`Content-Type`), which says how the body is read.
    package var requestMimeType: String?
    /// The response headers, in order, repeats kept.
    package var responseHeaders: HeaderFields
    /// The response body, empty when there is none.
    package var responseBody: Data
    /// The response body's media type, empty when unknown.
    package var responseMimeType: String

    /// An exchange from its parts.
    package init(
        url: URL, requestHeaders: HeaderFields = [:], requestBody: Data? = nil, requestMimeType: String? = nil,
        responseHeaders: HeaderFields = [:], responseBody: Data = Data(), responseMimeType: String = ""
    ) {
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.requestMimeType = requestMimeType
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.responseMimeType = responseMimeType
    }

    /// A live request's parts, as a recording of it would hold them before scrubbing.
    package init(_ request: StubRequest) {
        self.init(
            url: request.url ?? URL(fileURLWithPath: "/"), requestHeaders: HeaderFields(request.urlRequest.allHTTPHeaderFields ?? [:]),
            requestBody: request.body, requestMimeType: request.value(forHTTPHeaderField: "Content-Type"))
    }
}
