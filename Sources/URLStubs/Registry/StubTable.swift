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
            byPath[path, default: []].append(descriptor)
        } else if let host = keys.host {
            byHost[host, default: []].append(descriptor)
        } else {
            unindexed.append(descriptor)
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
        let pathList = url.flatMap { byPath[pathOf($0)] } ?? []
        let hostList = url?.host.flatMap { byHost[$0.lowercased()] } ?? []
        var cursors = (pathList.count - 1, hostList.count - 1, unindexed.count - 1)
        while true {
            let fromPath = cursors.0 >= 0 ? pathList[cursors.0] : nil
            let fromHost = cursors.1 >= 0 ? hostList[cursors.1] : nil
            let fromRest = cursors.2 >= 0 ? unindexed[cursors.2] : nil
            var newest: StubDescriptor?
            for candidate in [fromPath, fromHost, fromRest] {
                if let candidate, candidate.sequence > (newest?.sequence ?? 0) { newest = candidate }
            }
            guard let newest else { return }
            if newest === fromPath { cursors.0 -= 1 } else if newest === fromHost { cursors.1 -= 1 } else { cursors.2 -= 1 }
            if body(newest) { return }
        }
    }
}
