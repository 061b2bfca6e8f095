import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The registry's stubs, indexed so a lookup does not evaluate every matcher.
///
/// A stub whose matcher implies an exact path is filed under that path, else under an exact
/// host, else in the unindexed list. A lookup merges the three candidate lists newest first,
/// so precedence is exactly "most recently added matching stub" whatever the index did.
/// The table is a value: readers take a copy under the registry's lock and match without it.
struct StubTable: Sendable {
    private(set) var all: [StubDescriptor] = []
    private var byPath: [String: [StubDescriptor]] = [:]
    private var byHost: [String: [StubDescriptor]] = [:]
    private var unindexed: [StubDescriptor] = []

    var isEmpty: Bool { all.isEmpty }

    mutating func add(_ descriptor: StubDescriptor) {
        all.append(descriptor)
        let keys = descriptor.matcher.keys
        if let path = keys.path {
            Self.insert(descriptor, into: &byPath[path, default: []])
        } else if let host = keys.host {
            Self.insert(descriptor, into: &byHost[host, default: []])
        } else {
            Self.insert(descriptor, into: &unindexed)
        }
    }

    /// Keeps a list in sequence order (a lookup walks it from the end, newest first), even
    /// when two threads took their sequence numbers in one order and added in the other.
    private static func insert(_ descriptor: StubDescriptor, into list: inout [StubDescriptor]) {
        var position = list.count
        while position > 0, list[position - 1].sequence > descriptor.sequence { position -= 1 }
        list.insert(descriptor, at: position)
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
            unindexed.removeAll { $0 === descriptor }
        }
        return true
    }

    private static func remove(_ descriptor: StubDescriptor, from index: inout [String: [StubDescriptor]], key: String) {
        index[key]?.removeAll { $0 === descriptor }
        if index[key]?.isEmpty == true { index[key] = nil }
    }

    mutating func removeAll() {
        self = StubTable()
    }

    /// Calls `body` with every stub that could match `url`, newest first, until it returns
    /// `true`.
    func forEachCandidate(for url: URL?, _ body: (StubDescriptor) -> Bool) {
        forEachCandidate(path: url.map(Self.indexPath), host: url.flatMap(hostOf), body)
    }

    /// Calls `body` with every stub that could match a request with this path (as
    /// ``pathOf(_:)`` computes it) and lowercased host, newest first, until it returns `true`.
    ///
    /// Per request this costs two dictionary lookups and no allocation.
    func forEachCandidate(path: String?, host: String?, _ body: (StubDescriptor) -> Bool) {
        var pathList: [StubDescriptor] = []
        var hostList: [StubDescriptor] = []
        if !byPath.isEmpty, let path, let list = byPath[path] { pathList = list }
        if !byHost.isEmpty, let host, let list = byHost[host] { hostList = list }
        if pathList.isEmpty && hostList.isEmpty {
            // The common small registry: only the unindexed list, already newest last.
            for descriptor in unindexed.reversed() where body(descriptor) { return }
            return
        }
        var path = pathList.count - 1
        var host = hostList.count - 1
        var rest = unindexed.count - 1
        while path >= 0 || host >= 0 || rest >= 0 {
            let pathSequence = path >= 0 ? pathList[path].sequence : 0
            let hostSequence = host >= 0 ? hostList[host].sequence : 0
            let restSequence = rest >= 0 ? unindexed[rest].sequence : 0
            let newest: StubDescriptor
            if pathSequence >= hostSequence && pathSequence >= restSequence {
                newest = pathList[path]; path -= 1
            } else if hostSequence >= restSequence {
                newest = hostList[host]; host -= 1
            } else {
                newest = unindexed[rest]; rest -= 1
            }
            if body(newest) { return }
        }
    }

    /// The request path as ``pathOf(_:)`` computes it (percent-decoded, "/" when empty).
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
