import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A secondary key a stub can be filed under inside its path or host bucket: one property of
/// the request that its matcher requires to have an exact value.
enum IndexDimension: Sendable, Hashable {
    /// A kind a request strategy reads (an operation name).
    case strategy(IndexKind)
    case jsonBody
    case body
    case query(String)
    case method
}

/// The exact value a stub requires in one ``IndexDimension``.
enum IndexValue: Sendable, Hashable {
    case text(String)
    case json(JSONValue)
    case bytes(Data)
}

extension MatchKeys {
    /// The key a bucket files the stub under: the most selective one its matcher requires
    /// (an operation name or a body tells thousands of stubs apart; a method, a handful).
    var secondaryKey: (IndexDimension, IndexValue)? {
        if let strategyKey { return (.strategy(strategyKey.kind), .text(strategyKey.value)) }
        if let jsonBody { return (.jsonBody, .json(jsonBody)) }
        if let body { return (.body, .bytes(body)) }
        if let parameter = queryParameters.first { return (.query(parameter.name), .text(parameter.value)) }
        if let method { return (.method, .text(method)) }
        return nil
    }
}

/// The stubs that share a path (or a host, or neither), filed by their secondary key once
/// there are enough of them for the index to pay.
///
/// Every list is in sequence order. A lookup returns, for each dimension in use, the list for
/// the request's own value (or every stub of that dimension when the value cannot be known
/// yet), plus the stubs without a key: together, every stub that could accept the request,
/// each exactly once. A bucket of at most ``indexThreshold`` stubs files none under a key: one
/// list walked in order costs less than parsing the request to find its keys.
struct StubBucket: Sendable {
    /// Stubs a small bucket holds before it files them by their secondary keys.
    static let indexThreshold = 16

    /// Stubs whose matcher requires no exact secondary value (closures, `!`, patterns), and
    /// every stub while the bucket is small.
    private(set) var unkeyed: [StubDescriptor] = []
    private var keyed: [IndexDimension: [IndexValue: [StubDescriptor]]] = [:]
    /// Every keyed stub of a dimension, for a request whose value there is unknown.
    private var byDimension: [IndexDimension: [StubDescriptor]] = [:]
    /// `true` once the bucket outgrew ``indexThreshold`` and files stubs by their keys.
    private var isIndexed = false

    var isEmpty: Bool { unkeyed.isEmpty && byDimension.isEmpty }
    /// `true` when a lookup needs only ``unkeyed`` (the common, small registry).
    var hasKeyedStubs: Bool { !byDimension.isEmpty }

    mutating func add(_ descriptor: StubDescriptor) {
        if !isIndexed {
            Self.insert(descriptor, into: &unkeyed)
            if unkeyed.count > Self.indexThreshold { buildIndex() }
            return
        }
        file(descriptor)
    }

    private mutating func file(_ descriptor: StubDescriptor) {
        guard let (dimension, value) = descriptor.matcher.keys.secondaryKey else {
            Self.insert(descriptor, into: &unkeyed)
            return
        }
        Self.insert(descriptor, into: &keyed[dimension, default: [:]][value, default: []])
        Self.insert(descriptor, into: &byDimension[dimension, default: []])
    }

    private mutating func buildIndex() {
        isIndexed = true
        let all = unkeyed
        unkeyed = []
        for descriptor in all { file(descriptor) }
    }

    mutating func remove(_ descriptor: StubDescriptor) {
        guard isIndexed, let (dimension, value) = descriptor.matcher.keys.secondaryKey else {
            unkeyed.removeAll { $0 === descriptor }
            return
        }
        keyed[dimension]?[value]?.removeAll { $0 === descriptor }
        if keyed[dimension]?[value]?.isEmpty == true { keyed[dimension]?[value] = nil }
        byDimension[dimension]?.removeAll { $0 === descriptor }
        if byDimension[dimension]?.isEmpty == true {
            byDimension[dimension] = nil
            keyed[dimension] = nil
        }
    }

    /// Keeps a list in sequence order (a lookup walks it from the end, newest first), even
    /// when two threads took their sequence numbers in one order and added in the other.
    static func insert(_ descriptor: StubDescriptor, into list: inout [StubDescriptor]) {
        var position = list.count
        while position > 0, list[position - 1].precedence > descriptor.precedence { position -= 1 }
        list.insert(descriptor, at: position)
    }

    /// Appends every list of stubs that could accept the request `keys` describes.
    func appendCandidates(for keys: inout RequestIndexKeys, to lists: inout [[StubDescriptor]]) {
        if !unkeyed.isEmpty { lists.append(unkeyed) }
        for (dimension, all) in byDimension {
            switch keys.values(for: dimension) {
            case nil:
                lists.append(all)
            case let values?:
                guard let index = keyed[dimension] else { continue }
                for value in values {
                    if let list = index[value] { lists.append(list) }
                }
            }
        }
    }
}

/// A request's values in each ``IndexDimension``, computed on first use: a lookup whose
/// buckets hold no keyed stubs never parses the query or the body.
struct RequestIndexKeys {
    /// The request, with the query items once they were parsed (handed on to the matchers).
    private(set) var request: StubRequest
    private var queryItems: [URLQueryItem]? {
        get { request.parsedQueryItems }
        set { request.parsedQueryItems = newValue }
    }
    /// What each strategy kind read, kept for the other buckets of the same lookup.
    private var strategyValues: [(kind: IndexKind, values: [IndexValue]?)] = []
    private var json: [IndexValue]??

    init(_ request: StubRequest) { self.request = request }

    /// The request's values in `dimension` (several for a repeated query parameter, none when
    /// it has no such value), or `nil` when the value cannot be known yet (a body not visible
    /// while the request is being claimed): every stub of that dimension is then a candidate.
    ///
    /// Each answer mirrors its matcher exactly: a stub filed under a value the request does not
    /// have could not have accepted it.
    mutating func values(for dimension: IndexDimension) -> [IndexValue]? {
        switch dimension {
        case .method:
            return [.text(request.method)]
        case .query(let name):
            if queryItems == nil { queryItems = request.queryItems }
            return queryItems!.compactMap { $0.name == name ? $0.value.map(IndexValue.text) : nil }
        case .strategy(let kind):
            if let known = strategyValues.first(where: { $0.kind == kind }) { return known.values }
            let values = kind.values(&request)?.map(IndexValue.text)
            strategyValues.append((kind, values))
            return values
        case .jsonBody:
            if json == nil {
                if !request.isBodyKnown {
                    json = .some(nil)
                } else if let body = request.body, !body.isEmpty, let value = try? JSONValue(data: body) {
                    json = .some([.json(value)])
                } else {
                    json = .some([])
                }
            }
            return json!
        case .body:
            guard request.isBodyKnown else { return nil }
            return request.body.map { [.bytes($0)] } ?? []
        }
    }
}
