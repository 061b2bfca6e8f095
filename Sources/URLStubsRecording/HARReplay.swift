import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsGraphQL

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
    /// `stubs(fromHAR:options:fileID:filePath:line:)` reads the entries from a HAR file.
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

    /// One stub description per distinct request of `entries` (see
    /// `stubs(fromHAREntries:named:options:fileID:filePath:line:)`), for a scenario to add later.
    package static func harSpecs(_ entries: [HAREntry], archive: String, options: HARReplayOptions, location: StubLocation) -> [StubSpec] {
        // Replay reads GraphQL and multipart requests by meaning once their strategies are
        // known: every way in (entries, a HAR file, a scenario, declarations) comes through here.
        GraphQLStrategy.register()
        let volatile = options.volatileFields
        let groups = harGroups(entries, volatile: volatile)
        let ignored = options.ignoredHeaders
        let replaysTimings = options.replaysTimings
        let indexKeys = HARIndexKeys(groups.map { ($0.entries[0], $0.identity) }, options: options)
        return groups.map { group in
            let first = group.entries[0]
            let candidates = group.entries
            // A format may tell entries of one request apart (an operation sent by its hash
            // first and with its document after a miss): the entry that agrees answers.
            let tags = candidates.map { HARRequestIdentity.replayTag(of: HARRequestIdentity.request(of: $0)) }
            let identity = group.identity
            return StubSpec(
                harMatcher(for: first, identity: identity, options: options, indexKeys: indexKeys),
                name: harName(of: first, identity: identity, archive: archive), times: nil,
                location: location
            ) { request, activation in
                let liveTag = HARRequestIdentity.replayTag(of: request)
                let scored = zip(candidates, tags).map { candidate, tag -> Int in
                    let headers = candidate.requestHeaders.filter { header in
                        !ignored.contains(header.name.lowercased()) && !volatile.ignoresHeader(header.name)
                            && request.value(forHTTPHeaderField: header.name) == header.value
                    }.count
                    return headers + (liveTag != nil && liveTag == tag ? 1 : 0)
                }
                let best = scored.max() ?? 0
                let winners = zip(candidates, scored).filter { $0.1 == best }.map(\.0)
                return winners[min(activation, winners.count - 1)].stubResponse(replayingTime: replaysTimings)
            }
        }
    }

    /// The name of the stub replaying `entry`: the archive, the method and URL, and what a
    /// format reads in the request.
    static func harName(of entry: HAREntry, identity: HARRequestIdentity, archive: String) -> String {
        var name = "\(archive): \(entry.method) \(entry.url.absoluteString)"
        if case .format(let format) = identity.body { name += " (\(format.summary))" }
        return name
    }

    /// The entries grouped by the request they record (`HARRequestIdentity`), in archive order:
    /// a request a registered format reads (GraphQL, multipart) is grouped by its meaning.
    static func harGroups(_ entries: [HAREntry], volatile: VolatileFields) -> [(identity: HARRequestIdentity, entries: [HAREntry])] {
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
        return groups
    }

    private static func harMatcher(
        for entry: HAREntry, identity recorded: HARRequestIdentity, options: HARReplayOptions, indexKeys: HARIndexKeys
    ) -> RequestMatcher {
        let method = entry.method
        let volatile = options.volatileFields
        let scrubbing = options.scrubbing
        var description = "recorded \(entry.method) \(entry.url.absoluteString)"
        var format: ReplayIdentity?
        if case .format(let identity) = recorded.body {
            description += " (\(identity.summary))"
            format = identity
        }
        let dropped = format?.queryParameters ?? []
        let keys = indexKeys.keys(for: entry, identity: recorded, strategyKey: format?.indexKey)
        return RequestMatcher(description: description, keys: keys, problems: volatile.problems) { request -> MatcherVerdict in
            guard request.method == method else { return .failed("expected method \(method), got \(request.method)") }
            guard let url = request.url else { return .failed("expected a URL") }
            // The live request scrubbed as the recording was, so the placeholders line up.
            let live =
                scrubbing.map { $0.scrub(ExchangeParts(request)) }.map { (url: $0.url, body: $0.requestBody) } ?? (url: url, body: request.body)
            let liveURL = HARRequestIdentity.normalizedURL(live.url, volatile: volatile, dropping: dropped)
            guard liveURL == recorded.url else { return .failed("expected URL \"\(recorded.url)\", got \"\(liveURL)\"") }
            if case .none = recorded.body { return .matched }
            guard request.isBodyKnown else { return .bodyUnknown }
            let contentType = request.value(forHTTPHeaderField: "Content-Type")
            let scrubbed = HARRequestIdentity(
                method: method, url: live.url, contentType: contentType, body: live.body, volatile: volatile, sent: request)
            return .nearMiss(recorded.body.differences(from: scrubbed.body))
        }
    }
}
