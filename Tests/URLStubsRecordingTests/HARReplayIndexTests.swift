import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
import URLStubsRecording
@testable import URLStubsScenarios
@testable import TestSupport

/// Replayed HAR entries are filed in the stub index by a query parameter's value, the JSON
/// body or the body's bytes: thousands of entries on one host and path cost a lookup, and the
/// entry that answers is always the one a scan of every entry finds, whatever is volatile,
/// scrubbed or not yet visible.
@Suite("HAR replay in the stub index")
struct HARReplayIndexTests {
    /// Values that exercise encoding and the scrubbing placeholder.
    private static let values = ["1", "2", "a b", "x+y", "é", "<scrubbed>", "secret-token"]

    private static func randomURLAndBody(_ generator: inout SplitMix64) -> (url: URL, method: String, body: Data?) {
        func value() -> String { values.randomElement(using: &generator)! }
        var components = URLComponents()
        components.scheme = "https"
        components.host = "api.test"
        components.path = ["/items", "/items", "/graphql"].randomElement(using: &generator)!
        var items: [URLQueryItem] = []
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            let name = ["id", "id", "page", "ts", "api_key", "operationName"].randomElement(using: &generator)!
            items.append(URLQueryItem(name: name, value: Int.random(in: 0..<6, using: &generator) == 0 ? nil : value()))
        }
        components.queryItems = items.isEmpty ? nil : items
        let method = ["GET", "POST"].randomElement(using: &generator)!
        let bodies: [Data?] = [
            nil, Data(), Data("body \(value())".utf8), Data(#"{"v":"\#(value())","sentAt":\#(Int.random(in: 0..<3, using: &generator))}"#.utf8),
            Data(#"{"v":1,"token":"\#(value())"}"#.utf8), Data(#"{"query":"query Op\#(Int.random(in: 0..<2, using: &generator)) { x }"}"#.utf8),
        ]
        return (components.url!, method, method == "POST" ? bodies.randomElement(using: &generator)! : nil)
    }

    private static func randomEntry(_ generator: inout SplitMix64) -> HAREntry {
        let (url, method, body) = randomURLAndBody(&generator)
        let contentType: HeaderFields = body == nil ? [:] : ["Content-Type": "application/json"]
        return HAREntry(
            method: method, url: url, requestHeaders: contentType, requestBody: body, status: 200,
            responseBody: Data(url.absoluteString.utf8))
    }

    private static func randomRequest(_ generator: inout SplitMix64) -> StubRequest {
        let (url, method, body) = randomURLAndBody(&generator)
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = method
        urlRequest.httpBody = body
        if body != nil { urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if Bool.random(using: &generator) { urlRequest.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization") }
        let isBodyKnown = Int.random(in: 0..<5, using: &generator) != 0
        return StubRequest(urlRequest, body: isBodyKnown ? body : nil, pathParameters: [:], isBodyKnown: isBodyKnown)
    }

    private static func table(of entries: [HAREntry], options: HARReplayOptions) -> StubTable {
        let location = StubLocation(fileID: "Test.swift", filePath: #filePath, line: 1)
        var table = StubTable()
        for (index, spec) in StubRegistry.harSpecs(entries, archive: "test.har", options: options, location: location).enumerated() {
            table.add(
                StubDescriptor(
                    name: "#\(index) \(spec.name ?? "")", matcher: spec.matcher, location: location, maxActivations: nil,
                    sequence: UInt64(index + 1), answer: .closure(spec.responder)))
        }
        return table
    }

    private static func options(_ variant: Int) -> HARReplayOptions {
        var options = HARReplayOptions()
        switch variant {
        case 0: break
        case 1: options.scrubbing = .default.adding(queryParameters: ["api_key"], jsonFields: ["token"])
        default:
            options.scrubbing = .default.adding(queryParameters: ["api_key"], jsonFields: ["token"])
            options.volatileFields = VolatileFields(queryParameters: ["ts"], jsonPaths: ["$.sentAt"])
        }
        return options
    }

    // Async, yielding now and then, with the scan's order sorted once: a CPU-bound test that
    // never suspends holds one of the cooperative pool's few threads, which every other test
    // needs (see the DocC article "Reliability").
    @Test(arguments: 0..<6)
    func theIndexAnswersExactlyAsAScanOfEveryEntryWould(seed: Int) async {
        var generator = SplitMix64(seed: UInt64(seed) &* 104_729 &+ 3)
        let entries = (0..<100).map { _ in Self.randomEntry(&generator) }
        let table = Self.table(of: entries, options: Self.options(seed % 3))
        let newestFirst = table.all.sorted { $0.sequence > $1.sequence }
        var matched = 0
        for round in 0..<250 {
            if round % 25 == 0 { await Task.yield() }
            let request = Self.randomRequest(&generator)
            var indexed: String?
            table.forEachCandidate(for: request) { descriptor, parsed in
                guard descriptor.matcher.matches(parsed) else { return false }
                indexed = descriptor.name
                return true
            }
            let scanned = newestFirst.first { $0.matcher.matches(request) }?.name
            #expect(indexed == scanned, "\(request) body known: \(request.isBodyKnown)")
            if scanned != nil { matched += 1 }
        }
        #expect(matched > 25, "the generated requests often match an entry (\(matched))")
    }

    @Test func tenThousandEntriesOnOneHostAndPathCostALookup() async throws {
        let gets = (0..<5_000).map { index in
            HAREntry(
                method: "GET", url: URL(string: "https://api.test/items?page=1&id=\(index)")!, status: 200,
                responseBody: Data("item \(index)".utf8))
        }
        let posts = (0..<5_000).map { index in
            HAREntry(
                method: "POST", url: URL(string: "https://api.test/items")!,
                requestHeaders: ["Content-Type": "application/json"],
                requestBody: Data(#"{"query":"q\#(index)","sentAt":\#(index)}"#.utf8), status: 200, responseBody: Data("search \(index)".utf8))
        }
        var options = HARReplayOptions()
        options.scrubbing = .default
        let table = Self.table(of: gets + posts, options: options)
        for index in [0, 4_321, 4_999] {
            var candidates = 0
            table.forEachCandidate(for: StubRequest(URLRequest(url: URL(string: "https://api.test/items?id=\(index)&page=1")!))) { _, _ in
                candidates += 1
                return false
            }
            #expect(candidates == 1, "filed under id=\(index), not page=1 (shared by all)")
        }
        // Through a real session: each request gets its own entry's answer.
        let registry = StubRegistry()
        registry.stubs(fromHAREntries: gets + posts, options: options)
        for index in [0, 2_718, 4_999] {
            #expect(await fetch("https://api.test/items?page=1&id=\(index)", from: registry).body == "item \(index)")
            let search = request(
                "https://api.test/items", method: "POST", body: Data(#"{"sentAt":\#(index),"query":"q\#(index)"}"#.utf8),
                headers: ["Content-Type": "application/json"])
            #expect(await fetch(search, from: registry).body == "search \(index)")
        }
    }
}
