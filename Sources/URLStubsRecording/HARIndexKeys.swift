import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// What the registry's stub index files a replayed HAR entry under besides its host, path and
/// method: a query parameter's value, the JSON body or the body's bytes. Thousands of entries
/// on one endpoint (`/items?id=1` … `/items?id=9999`, a search API taking POST bodies) then
/// cost a lookup, not a walk through every entry.
///
/// A key is only ever a value every request the entry's matcher accepts must carry exactly as
/// recorded: never a volatile field, a scrubbed one (a JSON body holding a scrubbed member,
/// whose number became `0`), or a value holding the scrubbing placeholder (which replay takes
/// for "any value").
struct HARIndexKeys {
    /// For each query parameter name, how many distinct values it takes across the archive: an
    /// entry is filed under its most telling parameter (`id`, rather than `page`).
    private let distinctValues: [String: Int]
    private let options: HARReplayOptions

    init(_ requests: [(entry: HAREntry, identity: HARRequestIdentity)], options: HARReplayOptions) {
        self.options = options
        var values: [String: Set<String>] = [:]
        for request in requests {
            for item in Self.indexableQueryItems(of: request.entry, identity: request.identity, options: options) {
                values[item.name, default: []].insert(item.value ?? "")
            }
        }
        distinctValues = values.mapValues(\.count)
    }

    /// The keys of the entry's matcher: its method, host and path, the format's `strategyKey`,
    /// and its most selective exact values. Only the first ones while a volatile path is
    /// invalid: every request to the entry's host and path must then reach it and fail loudly
    /// with the path's error.
    func keys(for entry: HAREntry, identity: HARRequestIdentity, strategyKey: IndexKey?) -> MatchKeys {
        guard options.volatileFields.problems.isEmpty else { return MatchKeys(method: entry.method, url: entry.url, strategyKey: strategyKey) }
        var jsonBody: JSONValue?
        var body: Data?
        switch identity.body {
        case .json(let json)
        where options.volatileFields.jsonPaths.isEmpty && !holdsPlaceholder(json) && options.scrubbing?.holdsScrubbedMember(json) != true:
            jsonBody = json
        case .bytes(let data) where !data.isEmpty && !holdsPlaceholder(data):
            body = data
        default:
            break
        }
        let items = Self.indexableQueryItems(of: entry, identity: identity, options: options)
        let best = items.max { lhs, rhs in
            let (left, right) = (distinctValues[lhs.name] ?? 0, distinctValues[rhs.name] ?? 0)
            return left != right ? left < right : lhs.name > rhs.name
        }
        let parameter = best.flatMap { item in item.value.map { (name: item.name, value: $0) } }
        return MatchKeys(method: entry.method, url: entry.url, queryParameter: parameter, jsonBody: jsonBody, body: body, strategyKey: strategyKey)
    }

    /// The recorded query items a matching request must carry as they are: with a value, not
    /// volatile, not scrubbed, not compared as part of a format's identity (a GET's operation
    /// document).
    static func indexableQueryItems(of entry: HAREntry, identity: HARRequestIdentity, options: HARReplayOptions) -> [URLQueryItem] {
        guard let items = URLComponents(url: entry.url, resolvingAgainstBaseURL: false)?.queryItems else { return [] }
        var formatParameters: Set<String> = []
        if case .format(let format) = identity.body { formatParameters = format.queryParameters }
        return options.volatileFields.keptQueryItems(items).filter { item in
            guard let value = item.value else { return false }
            if formatParameters.contains(item.name) { return false }
            guard let scrubbing = options.scrubbing else { return true }
            return !scrubbing.queryParameters.contains(item.name) && !item.name.contains(scrubbing.placeholder)
                && !value.contains(scrubbing.placeholder)
        }
    }

    private func holdsPlaceholder(_ data: Data) -> Bool {
        guard let placeholder = options.scrubbing?.placeholder else { return false }
        return data.range(of: Data(placeholder.utf8)) != nil
    }

    private func holdsPlaceholder(_ json: JSONValue) -> Bool {
        guard let placeholder = options.scrubbing?.placeholder else { return false }
        func holds(_ value: JSONValue) -> Bool {
            switch value {
            case .string(let text): return text.contains(placeholder)
            case .array(let elements): return elements.contains(where: holds)
            case .object(let members): return members.contains { $0.key.contains(placeholder) || holds($0.value) }
            default: return false
            }
        }
        return holds(json)
    }
}
