import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How HAR entries become stubs.
public struct HARReplayOptions: Sendable {
    /// Use each entry's `time` as the stub's request time.
    public var replaysTimings = false
    /// Request headers ignored when ranking entries that share method, URL and body.
    public var ignoredHeaders: Set<String> = ["user-agent", "accept-encoding", "connection", "content-length", "host"]

    /// Recorded values replaced by this policy's placeholder match any live value.
    public var scrubbing: Scrubbing?

    /// Query parameters, headers and JSON body paths that change on every run (a cache
    /// buster, a request id, a timestamp): left out when deciding which recorded request a
    /// live one is, so a recording made yesterday still matches today's requests.
    ///
    /// ```swift
    /// var options = HARReplayOptions()
    /// options.volatileFields = VolatileFields(queryParameters: ["_"], jsonPaths: ["$.sentAt", "$.variables.clientTime"])
    /// ```
    public var volatileFields: VolatileFields = VolatileFields()

    /// When `true`, every recorded request the test never made is a problem of
    /// ``StubRegistry/verify(includePassedThrough:)``, named by method and URL: the recording
    /// holds requests the code no longer sends and should be re-recorded. `false` by default
    /// here (a shared fixture archive may hold more than one test uses); recordings made by
    /// `StubRegistry.record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`
    /// turn it on.
    public var reportsUnusedEntries = false

    /// The defaults: no timing, common transport headers ignored, nothing volatile.
    public init(replaysTimings: Bool = false, volatileFields: VolatileFields = VolatileFields()) {
        self.replaysTimings = replaysTimings
        self.volatileFields = volatileFields
    }
}

extension StubRegistry {
    /// Adds one stub per distinct request of HAR entries (method, URL with its query in any
    /// order, and the body for methods that carry one) and returns them.
    ///
    /// A request of a format module in use is identified as that module reads it, rather than
    /// by its raw body or query string: with `URLStubsGraphQL`, by its operation and variables
    /// (entries for `GetUser` and `GetUsers` sent to one URL replay apart, and a differently
    /// formatted document still matches); with `URLStubsMultipart`, part by part (the boundary
    /// changes on every run). Fields listed in ``HARReplayOptions/volatileFields`` are left out
    /// of every comparison.
    ///
    /// When several entries share a request, the one sharing the most request headers with
    /// the incoming request answers; identical entries answer in archive order (a poll that
    /// returned different bodies), the last one repeating. Redirects in the archive are
    /// followed, since each hop is a stub of its own.
    ///
    /// ```swift
    /// let stubs = registry.stubs(fromHAREntries: [HAREntry(method: "GET", url: url, status: 200, responseBody: data)])
    /// ```
    ///
    /// `stubs(fromHAR:)`, in `URLStubsRecording`, reads the entries from a HAR file.
    @discardableResult
    public func stubs(
        fromHAREntries entries: [HAREntry], named archive: String = "HAR", options: HARReplayOptions = HARReplayOptions(),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) -> [StubDescriptor] {
        let descriptors = Self.harSpecs(
            entries, archive: archive, options: options,
            location: StubLocation(fileID: fileID, filePath: filePath, line: line)
        ).map(add)
        if options.reportsUnusedEntries {
            for descriptor in descriptors { descriptor.isRecordedEntryReportedWhenUnused = true }
        }
        return descriptors
    }

    /// One stub description per distinct request of `entries` (see ``StubRegistry/stubs(fromHAREntries:named:options:fileID:filePath:line:)``).
    @_spi(AddOns) public static func harSpecs(_ entries: [HAREntry], archive: String, options: HARReplayOptions, location: StubLocation) -> [StubSpec]
    {
        let volatile = options.volatileFields
        var groups: [(identity: HARRequestIdentity, entries: [HAREntry])] = []
        var positions: [String: Int] = [:]
        for entry in entries {
            let identity = HARRequestIdentity(entry, volatile: volatile)
            let key = identity.key
            if let index = positions[key] {
                groups[index].entries.append(entry)
            } else {
                positions[key] = groups.count
                groups.append((identity, [entry]))
            }
        }
        let ignored = options.ignoredHeaders.union(volatile.headers)
        let replaysTimings = options.replaysTimings
        let indexKeys = HARIndexKeys(groups.map { ($0.entries[0], $0.identity) }, options: options)
        return groups.map { group in
            let first = group.entries[0]
            let candidates = group.entries
            // A format may tell entries of one request apart (an operation sent by its hash
            // first and with its document after a miss): the entry that agrees answers.
            let tags = candidates.map { HARRequestIdentity.replayTag(of: HARRequestIdentity.request(of: $0)) }
            let identity = group.identity
            var name = "\(archive): \(first.method) \(first.url.absoluteString)"
            if case .format(let format) = identity.body { name += " (\(format.summary))" }
            return StubSpec(
                matcher: harMatcher(for: first, identity: identity, options: options, indexKeys: indexKeys),
                name: name, times: nil, location: location
            ) { request, activation in
                let liveTag = HARRequestIdentity.replayTag(of: request)
                let scored = zip(candidates, tags).map { candidate, tag -> Int in
                    let headers = candidate.requestHeaders.filter { header in
                        !ignored.contains(header.name.lowercased()) && request.value(forHTTPHeaderField: header.name) == header.value
                    }.count
                    return headers + (liveTag != nil && liveTag == tag ? 1 : 0)
                }
                let best = scored.max() ?? 0
                let winners = zip(candidates, scored).filter { $0.1 == best }.map(\.0)
                return winners[min(activation, winners.count - 1)].stubResponse(replayingTime: replaysTimings)
            }
        }
    }

    private static func harMatcher(
        for entry: HAREntry, identity recorded: HARRequestIdentity, options: HARReplayOptions, indexKeys: HARIndexKeys
    ) -> RequestMatcher {
        let method = entry.method
        let volatile = options.volatileFields
        let scrubbing = options.scrubbing
        var keys = MatchKeys(host: entry.url.host?.lowercased(), path: pathOf(entry.url), method: method)
        var description = "recorded \(entry.method) \(entry.url.absoluteString)"
        var format: ReplayIdentity?
        if case .format(let identity) = recorded.body {
            description += " (\(identity.summary))"
            keys.strategyKey = identity.indexKey
            format = identity
        }
        let dropped = format?.queryParameters ?? []
        keys = indexKeys.adding(to: keys, for: entry, identity: recorded)
        return RequestMatcher(description: description, keys: keys, problems: volatile.problems) { request in
            guard request.method == method else { return .failed("expected method \(method), got \(request.method)") }
            guard let url = request.url else { return .failed("expected a URL") }
            // The live request scrubbed as the recording was, so the placeholders line up.
            let live = scrubbing.map { $0.scrubRequest(of: request) } ?? (url: url, body: request.body)
            let liveURL = HARRequestIdentity.normalizedURL(live.url, volatile: volatile, dropping: dropped)
            guard liveURL == recorded.url else { return .failed("expected URL \"\(recorded.url)\", got \"\(liveURL)\"") }
            if case .none = recorded.body { return .matched }
            guard request.isBodyKnown else { return .bodyUnknown }
            let contentType = request.value(forHTTPHeaderField: "Content-Type")
            let scrubbed = HARRequestIdentity(
                method: method, url: live.url, contentType: contentType, body: live.body, volatile: volatile, sent: request)
            let reasons = recorded.body.differences(from: scrubbed.body)
            return reasons.isEmpty ? .matched : MatchResult(failures: reasons, passed: 1)
        }
    }
}

/// What makes a recorded request and a live one "the same request" for replay: method, URL
/// (query in any order) and, for methods that carry one, the body, each without the volatile
/// fields. A request a registered ``ReplayStrategy`` reads is the identity it gives.
@_spi(AddOns) public struct HARRequestIdentity: Equatable, Sendable {
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
    @_spi(AddOns) public init(_ entry: HAREntry, volatile: VolatileFields) {
        self.init(method: entry.method, url: entry.url, contentType: Self.contentType(of: entry), body: entry.requestBody, volatile: volatile)
    }

    /// The identity of a request; for a live one, `sent` is the request as the app sent it
    /// and `url` and `body` are scrubbed as the recording was (see ``ReplayStrategy``).
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
    @_spi(AddOns) public var key: String {
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

    /// The first tag a registered strategy gives `request` (see ``ReplayStrategy/replayTag(of:)``).
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
