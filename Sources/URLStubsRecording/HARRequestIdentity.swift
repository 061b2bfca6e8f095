import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// What makes a recorded request and a live one "the same request" for replay: method, URL
/// (query in any order) and, for methods that carry one, the body, each without the volatile
/// fields. A request a registered `ReplayStrategy` reads is the identity it gives.
struct HARRequestIdentity: Equatable, Sendable {
    enum Body: Equatable {
        case none
        case format(ReplayIdentity)
        case json(JSONValue)
        case bytes(Data)
    }

    let method: String
    let url: String
    let body: Body

    /// The identity of `entry`'s request, `volatile` left out.
    init(_ entry: HAREntry, volatile: VolatileFields) {
        self.init(method: entry.method, url: entry.url, contentType: Self.contentType(of: entry), body: entry.requestBody, volatile: volatile)
    }

    /// The identity of a request; for a live one, `sent` is the request as the app sent it
    /// and `url` and `body` are scrubbed as the recording was (see `ReplayStrategy`).
    init(method: String, url: URL, contentType: String?, body: Data?, volatile: VolatileFields, sent: StubRequest? = nil) {
        self.method = method
        let request = Self.request(method: method, url: url, contentType: contentType, body: body)
        for strategy in RequestStrategies.replaying {
            guard let identity = strategy.replayIdentity(of: request, sent: sent, volatile: volatile) else { continue }
            self.url = Self.normalizedURL(url, volatile: volatile, dropping: identity.queryParameters)
            self.body = .format(identity)
            return
        }
        self.url = Self.normalizedURL(url, volatile: volatile, dropping: [])
        guard ["POST", "PUT", "PATCH"].contains(method) else {
            self.body = .none
            return
        }
        let data = body ?? Data()
        if let json = try? JSONValue(data: data) {
            self.body = .json(volatile.removingPaths(from: json))
        } else {
            self.body = .bytes(data)
        }
    }

    /// The text two requests share exactly when they are the same request.
    var key: String {
        let bodyKey: String
        switch body {
        case .none: bodyKey = ""
        case .format(let format): bodyKey = "\(format.format) \(format.key)"
        case .json(let json): bodyKey = "json \(json)"
        case .bytes(let data): bodyKey = "bytes \(data.base64EncodedString())"
        }
        return "\(method) \(url) \(bodyKey)"
    }

    static func contentType(of entry: HAREntry) -> String? {
        entry.requestHeaders.values(for: "Content-Type").first ?? entry.requestMimeType
    }

    /// `entry`'s request, as the strategies read it.
    static func request(of entry: HAREntry) -> StubRequest {
        request(method: entry.method, url: entry.url, contentType: contentType(of: entry), body: entry.requestBody)
    }

    private static func request(method: String, url: URL, contentType: String?, body: Data?) -> StubRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        return StubRequest(request, body: body)
    }

    /// The first tag a registered strategy gives `request` (see `ReplayStrategy.replayTag(of:)`).
    static func replayTag(of request: StubRequest) -> String? {
        RequestStrategies.replaying.lazy.compactMap { $0.replayTag(of: request) }.first
    }

    /// The URL with its query parameters sorted, volatile ones and `dropped` ones (compared as
    /// part of a format's identity instead) left out.
    static func normalizedURL(_ url: URL, volatile: VolatileFields, dropping dropped: Set<String>) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var items = volatile.keptQueryItems(components?.queryItems ?? [])
        if !dropped.isEmpty { items = items.filter { !dropped.contains($0.name) } }
        components?.queryItems = items.isEmpty ? nil : items.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        return components?.string ?? url.absoluteString
    }
}

extension HARRequestIdentity.Body {
    /// Why a live request's body is not this recorded one, one reason per difference.
    func differences(from live: HARRequestIdentity.Body) -> [String] {
        switch (self, live) {
        case let (.format(expected), .format(actual)) where expected.format == actual.format:
            if let reasons = expected.differences(actual) { return reasons }
        case let (.format(expected), _):
            if let reasons = expected.differences(nil) { return reasons }
        case let (.json(expected), .json(actual)):
            let diff = expected.differenceLines(from: actual)
            return diff.isEmpty ? [] : ["the body differs from the recorded one: " + diff.joined(separator: "; ")]
        case (.none, _):
            return []
        default:
            break
        }
        if self == live { return [] }
        return ["expected the recorded body \(describe), got \(live.describe)"]
    }

    private var describe: String {
        switch self {
        case .none: return "none"
        case .format(let format): return format.summary
        case .json(let json): return "JSON \(json)"
        case .bytes(let data): return describeBody(data)
        }
    }
}
