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
    /// A GraphQL request is identified by its operation and variables rather than its raw
    /// body or query string, so entries for `GetUser` and `GetUsers` sent to one `/graphql`
    /// URL replay apart, and a differently formatted document still matches. A multipart body
    /// is compared part by part (its boundary changes on every run). Fields listed in
    /// ``HARReplayOptions/volatileFields`` are left out of every comparison.
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
            // Apollo's persisted queries send an operation by hash first and with its document
            // after a miss: the entry that agrees on that answers.
            let sentDocument = candidates.map { HARRequestIdentity.graphQLOperation(of: $0)?.document != nil }
            let identity = group.identity
            var name = "\(archive): \(first.method) \(first.url.absoluteString)"
            if case .graphQL(let operation, _) = identity.body {
                name = "\(archive): \(first.method) \(first.url.absoluteString) (GraphQL \(operation))"
            }
            return StubSpec(
                matcher: harMatcher(for: first, identity: identity, options: options, indexKeys: indexKeys),
                name: name, times: nil, location: location
            ) { request, activation in
                let liveDocument = GraphQLRequest.read(request).operations.first.map { $0.document != nil }
                let scored = zip(candidates, sentDocument).map { candidate, hasDocument -> Int in
                    let headers = candidate.requestHeaders.filter { header in
                        !ignored.contains(header.name.lowercased()) && request.value(forHTTPHeaderField: header.name) == header.value
                    }.count
                    return headers + (liveDocument == hasDocument ? 1 : 0)
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
        if case .graphQL(let operation, _) = recorded.body {
            description += " (GraphQL \(operation))"
            if case .named(let name, _)? = HARRequestIdentity.graphQLOperation(of: entry)?.name { keys.graphQLOperation = name }
        }
        keys = indexKeys.adding(to: keys, for: entry, identity: recorded)
        return RequestMatcher(description: description, keys: keys, problems: volatile.problems) { request in
            guard request.method == method else { return .failed("expected method \(method), got \(request.method)") }
            guard let url = request.url else { return .failed("expected a URL") }
            // The live request scrubbed as the recording was, so the placeholders line up.
            let live = scrubbing.map { $0.scrubRequest(of: request) } ?? (url: url, body: request.body)
            let isGraphQL: Bool
            if case .graphQL = recorded.body { isGraphQL = true } else { isGraphQL = false }
            let liveURL = HARRequestIdentity.normalizedURL(live.url, volatile: volatile, droppingGraphQLParameters: isGraphQL)
            guard liveURL == recorded.url else { return .failed("expected URL \"\(recorded.url)\", got \"\(liveURL)\"") }
            if case .none = recorded.body { return .matched }
            guard request.isBodyKnown else { return .bodyUnknown }
            let contentType = request.value(forHTTPHeaderField: "Content-Type")
            let scrubbed = HARRequestIdentity(method: method, url: live.url, contentType: contentType, body: live.body, volatile: volatile)
            var liveBody = scrubbed.body
            if isGraphQL, case .graphQL(_, let variables) = scrubbed.body {
                // The operation's name as sent (the index files these stubs by it); its
                // variables as scrubbed, so a scrubbed secret variable lines up. An anonymous
                // operation is its document's tokens, compared as scrubbed (its inline secrets).
                let sent = HARRequestIdentity(method: method, url: url, contentType: contentType, body: request.body, volatile: volatile)
                if case .graphQL(let operation, _) = sent.body, !HARRequestIdentity.isAnonymousOperation(operation) {
                    liveBody = .graphQL(operation: operation, variables: variables)
                }
            }
            let reasons = recorded.body.differences(from: liveBody)
            return reasons.isEmpty ? .matched : MatchResult(failures: reasons, passed: 1)
        }
    }
}

/// What makes a recorded request and a live one "the same request" for replay: method, URL
/// (query in any order) and, for methods that carry one, the body, each without the volatile
/// fields. A GraphQL request is its operation and variables; a multipart body its parts.
@_spi(AddOns) public struct HARRequestIdentity: Equatable, Sendable {
    enum Body: Equatable {
        case none
        /// `operation` is the operation's name, or its document's tokens when anonymous.
        case graphQL(operation: String, variables: JSONValue)
        case json(JSONValue)
        case multipart([PartKey])
        case bytes(Data)
    }

    /// A multipart part as replay compares it: never its boundary.
    struct PartKey: Equatable {
        let name: String?
        let filename: String?
        let contentType: String?
        let body: Data
    }

    let method: String
    let url: String
    let body: Body

    /// The identity of `entry`'s request, `volatile` left out.
    @_spi(AddOns) public init(_ entry: HAREntry, volatile: VolatileFields) {
        self.init(method: entry.method, url: entry.url, contentType: Self.contentType(of: entry), body: entry.requestBody, volatile: volatile)
    }

    init(method: String, url: URL, contentType: String?, body: Data?, volatile: VolatileFields) {
        self.method = method
        let operation = Self.graphQLOperation(method: method, url: url, contentType: contentType, body: body)
        if let operation, let identity = Self.graphQLIdentity(operation, volatile: volatile) {
            self.url = Self.normalizedURL(url, volatile: volatile, droppingGraphQLParameters: true)
            self.body = identity
            return
        }
        self.url = Self.normalizedURL(url, volatile: volatile, droppingGraphQLParameters: false)
        guard ["POST", "PUT", "PATCH"].contains(method) else {
            self.body = .none
            return
        }
        let data = body ?? Data()
        if let contentType, MultipartBody.isMultipart(contentType: contentType),
            let multipart = try? MultipartBody(data, contentType: contentType)
        {
            self.body = .multipart(
                multipart.parts.map {
                    PartKey(name: $0.name, filename: $0.filename, contentType: $0.contentType, body: $0.body)
                })
        } else if let json = try? JSONValue(data: data) {
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
        case .graphQL(let operation, let variables): bodyKey = "graphql \(operation) \(variables)"
        case .json(let json): bodyKey = "json \(json)"
        case .multipart(let parts):
            bodyKey =
                "multipart "
                + parts.map { part in
                    [part.name ?? "", part.filename ?? "", part.contentType ?? "", part.body.base64EncodedString()]
                        .map { "\($0.count):\($0)" }.joined()
                }.joined(separator: ";")
        case .bytes(let data): bodyKey = "bytes \(data.base64EncodedString())"
        }
        return "\(method) \(url) \(bodyKey)"
    }

    static func contentType(of entry: HAREntry) -> String? {
        entry.requestHeaders.first { $0.name.lowercased() == "content-type" }?.value ?? entry.requestMimeType
    }

    /// The recorded request's one GraphQL operation, when it is a GraphQL request.
    static func graphQLOperation(of entry: HAREntry) -> GraphQLOperationRequest? {
        graphQLOperation(method: entry.method, url: entry.url, contentType: contentType(of: entry), body: entry.requestBody)
    }

    private static func graphQLOperation(method: String, url: URL, contentType: String?, body: Data?) -> GraphQLOperationRequest? {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        guard case .single(let operation) = GraphQLRequest.read(StubRequest(request, body: body)) else { return nil }
        return operation
    }

    /// How an anonymous operation's identity starts: an operation's name never does.
    private static let anonymousPrefix = "{ "

    /// `true` when `operation`, a ``Body/graphQL(operation:variables:)`` identity, is an
    /// anonymous operation's document rather than a name.
    static func isAnonymousOperation(_ operation: String) -> Bool { operation.hasPrefix(anonymousPrefix) }

    /// Operation and variables, with the volatile paths (relative to the operation object,
    /// `$.variables.clientTime`) left out; `nil` for an operation whose name cannot be known.
    private static func graphQLIdentity(_ operation: GraphQLOperationRequest, volatile: VolatileFields) -> Body? {
        let name: String
        switch operation.name {
        case .named(let named, _): name = named
        case .anonymous: name = anonymousPrefix + GraphQLLexer.tokenTexts(operation.document ?? "").joined(separator: " ") + " }"
        case .unknown: return nil
        }
        let object = volatile.removingPaths(from: .object(operation.object))
        var variables = JSONValue.object([:])
        if case .object(let members) = object, let kept = members["variables"], kept != .null { variables = kept }
        return .graphQL(operation: name, variables: variables)
    }

    /// The URL with its query parameters sorted, volatile ones (and, for GraphQL, the
    /// GraphQL parameters, compared as an operation instead) left out.
    static func normalizedURL(_ url: URL, volatile: VolatileFields, droppingGraphQLParameters: Bool) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var items = volatile.keptQueryItems(components?.queryItems ?? [])
        if droppingGraphQLParameters {
            items = items.filter { !["query", "operationName", "variables", "extensions"].contains($0.name) }
        }
        components?.queryItems = items.isEmpty ? nil : items.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        return components?.string ?? url.absoluteString
    }
}

extension HARRequestIdentity.Body {
    /// Why a live request's body is not this recorded one, one reason per difference.
    func differences(from live: HARRequestIdentity.Body) -> [String] {
        switch (self, live) {
        case let (.graphQL(expected, expectedVariables), .graphQL(actual, actualVariables)):
            var reasons: [String] = []
            if expected != actual { reasons.append("expected operation \"\(expected)\", got \"\(actual)\"") }
            reasons += expectedVariables.differenceLines(from: actualVariables, path: "$.variables")
            return reasons
        case let (.graphQL(expected, _), _):
            return ["expected GraphQL operation \"\(expected)\", got a request that is not GraphQL"]
        case let (.json(expected), .json(actual)):
            let diff = expected.differenceLines(from: actual)
            return diff.isEmpty ? [] : ["the body differs from the recorded one: " + diff.joined(separator: "; ")]
        case let (.multipart(expected), .multipart(actual)):
            if expected == actual { return [] }
            func names(_ parts: [HARRequestIdentity.PartKey]) -> String {
                parts.map { part in part.name.map { "\"\($0)\"" } ?? "(unnamed)" }.joined(separator: ", ")
            }
            guard expected.count == actual.count else {
                return ["expected the recorded multipart parts \(names(expected)), got \(names(actual))"]
            }
            return zip(expected, actual).enumerated().compactMap { index, pair in
                pair.0 == pair.1
                    ? nil
                    : "multipart part \(index + 1) differs from the recorded one: "
                        + "expected \(pair.0.name.map { "\"\($0)\"" } ?? "(unnamed)") with \(describeBody(pair.0.body)), "
                        + "got \(pair.1.name.map { "\"\($0)\"" } ?? "(unnamed)") with \(describeBody(pair.1.body))"
            }
        case (.none, _):
            return []
        default:
            if self == live { return [] }
            return ["expected the recorded body \(describe), got \(live.describe)"]
        }
    }

    private var describe: String {
        switch self {
        case .none: return "none"
        case .graphQL(let operation, _): return "GraphQL \(operation)"
        case .json(let json): return "JSON \(json)"
        case .multipart(let parts): return "multipart with \(parts.count) part\(parts.count == 1 ? "" : "s")"
        case .bytes(let data): return describeBody(data)
        }
    }
}
