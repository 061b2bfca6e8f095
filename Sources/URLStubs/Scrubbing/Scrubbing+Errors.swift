import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Scrubbing {
    /// `error`, a failure of the real network for `request` (a passthrough or a recording with
    /// the server down), rebuilt with the same domain and code and every URL and text of its
    /// user info scrubbed, through `NSUnderlyingError` at any depth: Foundation puts the
    /// request's URL, secret query values included, under `NSErrorFailingURLKey` and
    /// `NSErrorFailingURLStringKey`, and the app's error then goes into a test log.
    ///
    /// An error of `NSURLErrorDomain` comes back as a `URLError`, so `catch
    /// URLError.cannotConnectToHost` and `(error as? URLError)?.code` still work. Values that
    /// hold no text (numbers, certificates) are kept as they are.
    func scrubbed(networkError error: any Error, of request: StubRequest) -> any Error {
        let secrets = secretValues(in: ExchangeParts(request))
        let text = Redactor(secrets: secrets, placeholder: placeholder, hidingURLCredentials: scrubsURLCredentials)
        // In a URL the placeholder must be percent-encoded, or the URL cannot be built.
        let inURL = Redactor(
            secrets: secrets, placeholder: placeholder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "scrubbed",
            hidingURLCredentials: scrubsURLCredentials)
        let scrubbed = scrubbed(error as NSError, text: text, inURL: inURL)
        // Failable in swift-corelibs-foundation, not on Apple platforms.
        let code: URLError.Code? = URLError.Code(rawValue: scrubbed.code)
        if scrubbed.domain == NSURLErrorDomain, let code {
            return URLError(code, userInfo: scrubbed.userInfo)
        }
        return scrubbed
    }

    private func scrubbed(_ error: NSError, text: Redactor, inURL: Redactor) -> NSError {
        var userInfo: [String: Any] = [:]
        for (key, value) in error.userInfo {
            userInfo[key] = scrubbed(value: value, text: text, inURL: inURL)
        }
        return NSError(domain: error.domain, code: error.code, userInfo: userInfo)
    }

    private func scrubbed(value: Any, text: Redactor, inURL: Redactor) -> Any {
        switch value {
        case let url as URL:
            let scrubbed = inURL.redact(scrubbingQuery(of: url.absoluteString, with: inURL.placeholder))
            if let rebuilt = URL(string: scrubbed) { return rebuilt }
            // Never the URL as it was: without its query and fragment, which is where secrets go.
            var bare = URLComponents(url: url, resolvingAgainstBaseURL: false)
            bare?.query = nil
            bare?.fragment = nil
            return bare?.url ?? URL(fileURLWithPath: "/")
        case let string as String:
            // A failing URL as text (`NSErrorFailingURLStringKey`) is scrubbed as a report prints it.
            if let url = URL(string: string), url.scheme != nil {
                return text.redact(scrubbingQuery(of: string, with: placeholder))
            }
            return text.redact(string)
        case let error as any Error:
            return scrubbed(error as NSError, text: text, inURL: inURL)
        case let array as [Any]:
            return array.map { scrubbed(value: $0, text: text, inURL: inURL) }
        case let dictionary as [String: Any]:
            return dictionary.mapValues { scrubbed(value: $0, text: text, inURL: inURL) }
        default:
            return value
        }
    }

    /// `urlText` with the value of each query parameter this policy scrubs replaced by
    /// `replacement`, the rest as it was (a URL the request did not carry may hold others).
    private func scrubbingQuery(of urlText: String, with replacement: String) -> String {
        guard !queryParameters.isEmpty, let question = urlText.firstIndex(of: "?") else { return urlText }
        let queryStart = urlText.index(after: question)
        let queryEnd = urlText[queryStart...].firstIndex(of: "#") ?? urlText.endIndex
        let pairs = urlText[queryStart..<queryEnd].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(name)
            return scrubsParameter(decoded) ? name + "=" + replacement : String(pair)
        }
        return urlText[..<queryStart] + pairs.joined(separator: "&") + urlText[queryEnd...]
    }
}
