import Foundation
import URLStubs

extension Scrubbing {
    /// The entry with every secret replaced, as the policy scrubs the parts of any exchange
    /// (its URL, headers, cookies and bodies, then every copy of a secret found in one of them
    /// wherever it stands, and a `Content-Length` giving the scrubbed body's length); the rest
    /// of the entry (method, status, timings) is kept.
    func scrub(_ entry: HAREntry) -> HAREntry {
        let parts = scrub(
            ExchangeParts(
                url: entry.url, requestHeaders: entry.requestHeaders, requestBody: entry.requestBody,
                requestMimeType: entry.requestMimeType, responseHeaders: entry.responseHeaders, responseBody: entry.responseBody,
                responseMimeType: entry.responseMimeType))
        var copy = entry
        copy.url = parts.url
        copy.requestHeaders = parts.requestHeaders
        copy.requestBody = parts.requestBody
        copy.requestMimeType = parts.requestMimeType
        copy.responseHeaders = parts.responseHeaders
        copy.responseBody = parts.responseBody
        copy.responseMimeType = parts.responseMimeType
        return copy
    }
}
