import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The registry's stubs, indexed so a lookup does not evaluate every matcher.
///
/// A stub whose matcher implies an exact path is filed under that path, else under an exact
/// host, else in the unindexed bucket. Inside each, a ``StubBucket`` files it again by the most
/// selective exact value it requires (a strategy's key such as an operation name, a JSON body,
/// a query parameter, a method), so 10,000 stubs on one endpoint cost a few dictionary lookups, not 10,000 matchers.
/// A lookup merges the candidate lists newest first, so precedence is exactly "most recently
/// added matching stub" whatever the index did; matchers that promise no exact value
/// (closures, `!`, patterns) are always candidates.
/// The table is a value: readers take a copy under the registry's lock and match without it.
struct StubTable: Sendable {
    private(set) var all: [StubDescriptor] = []
    private var byPath: [String: StubBucket] = [:]
    private var byHost: [String: StubBucket] = [:]
    private var unindexed = StubBucket()

    var isEmpty: Bool { all.isEmpty }

    mutating func add(_ descriptor: StubDescriptor) {
        all.append(descriptor)
        let keys = descriptor.matcher.keys
        if let path = keys.path {
            byPath[path, default: StubBucket()].add(descriptor)
        } else if let host = keys.host {
            byHost[host, default: StubBucket()].add(descriptor)
        } else {
            unindexed.add(descriptor)
        }
    }

    @discardableResult
    mutating func remove(_ descriptor: StubDescriptor) -> Bool {
        guard let position = all.firstIndex(where: { $0 === descriptor }) else { return false }
        all.remove(at: position)
        let keys = descriptor.matcher.keys
        if let path = keys.path {
            Self.remove(descriptor, from: &byPath, key: path)
        } else if let host = keys.host {
            Self.remove(descriptor, from: &byHost, key: host)
        } else {
            unindexed.remove(descriptor)
        }
        return true
    }

    private static func remove(_ descriptor: StubDescriptor, from index: inout [String: StubBucket], key: String) {
        index[key]?.remove(descriptor)
        if index[key]?.isEmpty == true { index[key] = nil }
    }

    mutating func removeAll() {
        self = StubTable()
    }

    /// Calls `body` with every stub that could match a request for `url` (no body, GET),
    /// newest first, until it returns `true`.
    func forEachCandidate(for url: URL?, _ body: (StubDescriptor) -> Bool) {
        let request = StubRequest(URLRequest(url: url ?? URL(string: "about:blank")!))
        forEachCandidate(for: request) { descriptor, _ in body(descriptor) }
    }

    /// Calls `body` with every stub that could match `request`, newest first, until it
    /// returns `true`. `body` also gets the request to match against: `request` itself, or a
    /// copy carrying what the index parsed (the query items), so matchers do not parse it again.
    ///
    /// When no bucket involved holds keyed stubs this costs two dictionary lookups and no
    /// allocation; otherwise, one list per dimension in use, merged.
    func forEachCandidate(for request: StubRequest, _ body: (StubDescriptor, StubRequest) -> Bool) {
        let pathBucket = byPath.isEmpty ? nil : request.urlPath.flatMap { byPath[$0] }
        let hostBucket = byHost.isEmpty ? nil : request.urlHost.flatMap { byHost[$0] }
        if pathBucket?.hasKeyedStubs == true || hostBucket?.hasKeyedStubs == true || unindexed.hasKeyedStubs {
            var keys = RequestIndexKeys(request)
            var lists: [[StubDescriptor]] = []
            pathBucket?.appendCandidates(for: &keys, to: &lists)
            hostBucket?.appendCandidates(for: &keys, to: &lists)
            unindexed.appendCandidates(for: &keys, to: &lists)
            let parsed = keys.request
            Self.merge(lists) { body($0, parsed) }
            return
        }
        let pathList = pathBucket?.unkeyed ?? []
        let hostList = hostBucket?.unkeyed ?? []
        let unindexed = unindexed.unkeyed
        if pathList.isEmpty && hostList.isEmpty {
            // The common small registry: only the unindexed list, already newest last.
            for descriptor in unindexed.reversed() where body(descriptor, request) { return }
            return
        }
        var path = pathList.count - 1
        var host = hostList.count - 1
        var rest = unindexed.count - 1
        while path >= 0 || host >= 0 || rest >= 0 {
            let pathSequence = path >= 0 ? pathList[path].precedence : 0
            let hostSequence = host >= 0 ? hostList[host].precedence : 0
            let restSequence = rest >= 0 ? unindexed[rest].precedence : 0
            let newest: StubDescriptor
            if pathSequence >= hostSequence && pathSequence >= restSequence {
                newest = pathList[path]; path -= 1
            } else if hostSequence >= restSequence {
                newest = hostList[host]; host -= 1
            } else {
                newest = unindexed[rest]; rest -= 1
            }
            if body(newest, request) { return }
        }
    }

    /// Walks lists that are each in precedence order, highest (newest) first across all of them.
    private static func merge(_ lists: [[StubDescriptor]], _ body: (StubDescriptor) -> Bool) {
        if lists.count == 1 {
            for descriptor in lists[0].reversed() where body(descriptor) { return }
            return
        }
        var positions = lists.map { $0.count - 1 }
        while true {
            var newest = -1
            var newestSequence: UInt64 = 0
            for index in lists.indices where positions[index] >= 0 {
                let sequence = lists[index][positions[index]].precedence
                if newest < 0 || sequence > newestSequence {
                    newest = index
                    newestSequence = sequence
                }
            }
            guard newest >= 0 else { return }
            let descriptor = lists[newest][positions[newest]]
            positions[newest] -= 1
            if body(descriptor) { return }
        }
    }

    /// The request path as ``pathOf(_:)`` computes it (percent-decoded except `%2F`, "/" when empty).
    static func indexPath(of url: URL) -> String {
        pathOf(url)
    }

    /// Whether `text` is ASCII without capitals, so `lowercased()` would return it unchanged.
    static func isLowercaseASCII(_ text: String) -> Bool {
        func check(_ bytes: some Sequence<UInt8>) -> Bool {
            for byte in bytes where byte >= 0x80 || (byte >= 0x41 && byte <= 0x5A) { return false }
            return true
        }
        return text.utf8.withContiguousStorageIfAvailable(check) ?? check(text.utf8)
    }

    /// Whether `text` holds a "%", scanning its contiguous UTF-8 (a generic `utf8.contains`
    /// costs about 25 instructions a byte).
    static func containsPercent(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "%")) } ?? text.utf8.contains(UInt8(ascii: "%"))
    }
}
