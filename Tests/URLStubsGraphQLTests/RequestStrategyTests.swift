import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
import URLStubsGraphQL
@testable import TestSupport

/// The seams a wing's request strategy plugs into: its index keys, its lines and suggestion in
/// the unmatched report, and a request it splits into parts answered one by one. The strategy
/// here speaks only for the host `strategy.test`, so registering it process-wide leaves every
/// other test's reports as they were.
@Suite("Request strategies")
struct RequestStrategyTests {
    /// Reads the `X-Part` header as the request's "part name"; splits `X-Parts: a,b` into one
    /// request per name, joined by concatenating the answers.
    struct PartsStrategy: RequestStrategy {
        var precedence: Int { 100 }

        static let partKind = IndexKind("test part") { request in
            request.value(forHTTPHeaderField: "X-Part").map { [$0] } ?? []
        }

        static func isPart(_ name: String) -> RequestMatcher {
            RequestMatcher(description: "part \(name)", keys: MatchKeys(strategyKey: IndexKey(partKind, name))) { request in
                request.value(forHTTPHeaderField: "X-Part") == name ? .matched : .failed("expected part \(name)")
            }
        }

        private static func speaks(_ request: StubRequest) -> Bool { request.url?.host == "strategy.test" }

        func reportLines(for request: StubRequest) -> [String] {
            guard Self.speaks(request), let parts = request.value(forHTTPHeaderField: "X-Parts") else { return [] }
            return ["  test parts: \(parts)"]
        }

        func suggestion(for request: StubRequest, scrubbing: Scrubbing) -> StubSuggestion? {
            guard Self.speaks(request), let part = request.value(forHTTPHeaderField: "X-Part") else { return nil }
            return StubSuggestion(matchers: ["isPart(\(literal(part)))"], response: "partResponse()")
        }

        func split(_ request: StubRequest) -> RequestSplit? {
            guard Self.speaks(request), let names = request.value(forHTTPHeaderField: "X-Parts") else { return nil }
            let parts = names.split(separator: ",").map { name -> RequestPart in
                var single = request.urlRequest
                single.setValue(nil, forHTTPHeaderField: "X-Parts")
                single.setValue(String(name), forHTTPHeaderField: "X-Part")
                return RequestPart(request: StubRequest(single), summary: "part \(name)")
            }
            return RequestSplit(parts: parts, partNoun: "Part", wholeName: "test parts") { answers in
                var joined = Data()
                for answer in answers { joined += try answer.response().body.data ?? Data() }
                return StubResponse(data: joined)
            }
        }
    }

    init() { RequestStrategies.register(PartsStrategy()) }

    private static func descriptor(_ matcher: RequestMatcher, sequence: UInt64) -> StubDescriptor {
        StubDescriptor(
            name: "#\(sequence)", matcher: matcher, location: StubLocation(fileID: "Test.swift", filePath: #filePath, line: 1),
            maxActivations: nil, sequence: sequence, answer: .constant(StubResponse(data: Data())))
    }

    /// The stubs the table offers `request`, newest first.
    private static func candidates(_ table: StubTable, _ request: StubRequest) -> [String] {
        var names: [String] = []
        table.forEachCandidate(for: request) { descriptor, _ in
            names.append(descriptor.name ?? "?")
            return false
        }
        return names
    }

    private static func table(of matchers: [RequestMatcher]) -> StubTable {
        var table = StubTable()
        for (index, matcher) in matchers.enumerated() { table.add(descriptor(matcher, sequence: UInt64(index + 1))) }
        return table
    }

    @Test func aStrategyKeyIndexesStubsPastAScan() {
        let table = Self.table(of: (1...40).map { isPath("/parts") && PartsStrategy.isPart("p\($0)") })
        var request = URLRequest(url: URL(string: "https://strategy.test/parts")!)
        request.setValue("p7", forHTTPHeaderField: "X-Part")
        #expect(Self.candidates(table, StubRequest(request)) == ["#7"], "one lookup, not a scan of 40 stubs")
    }

    @Test func aGraphQLOperationPastSixteenStubsIsFoundByTheIndex() {
        let table = Self.table(of: (1...40).map { isPath("/graphql") && isGraphQLOperation("Op\($0)") })
        var request = URLRequest(url: URL(string: "https://api.test/graphql")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"query":"query Op7 { x }"}"#.utf8)
        #expect(Self.candidates(table, StubRequest(request)) == ["#7"], "one lookup, not a scan of 40 stubs")
        let small = Self.table(of: (1...16).map { isPath("/graphql") && isGraphQLOperation("Op\($0)") })
        #expect(Self.candidates(small, StubRequest(request)).count == 16, "at most 16 stubs are scanned, not indexed")
    }

    @Test func aStrategyDescribesAndSuggestsAnUnmatchedRequest() async {
        let registry = StubRegistry()
        registry.stub(PartsStrategy.isPart("known"), name: "known") { _ in StubResponse(data: Data("k".utf8)) }
        let result = await fetch(request("https://strategy.test/x", headers: ["X-Part": "other"]), from: registry)
        guard case .unmatchedRequest(let report)? = result.stubError else {
            Issue.record("expected a report, got \(String(describing: result.error))"); return
        }
        #expect(report.contains(#"registry.stub(isMethod(.get) && isHost("strategy.test") && isPath("/x") && isPart("other")) { _ in"#), "\(report)")
        #expect(report.contains("partResponse()"))
    }

    @Test func aSplitRequestIsAnsweredPartByPartAndGivesBackUsesWhenAPartIsMissing() async {
        let registry = StubRegistry()
        let first = registry.stub(PartsStrategy.isPart("a"), name: "a") { _ in StubResponse(data: Data("A".utf8)) }
        registry.stub(PartsStrategy.isPart("b"), name: "b") { _ in StubResponse(data: Data("B".utf8)) }
        let joined = await fetch(request("https://strategy.test/both", headers: ["X-Parts": "a,b,a"]), from: registry)
        #expect(joined.body == "ABA")
        #expect(first.activationCount == 2)
        #expect(registry.journal.last?.stub?.name == "test parts of a, b, a")

        let partly = await fetch(request("https://strategy.test/both", headers: ["X-Parts": "a,c"]), from: registry)
        #expect(first.activationCount == 2, "a part of an unanswered request keeps no use")
        guard case .unmatchedRequest(let report)? = partly.stubError else {
            Issue.record("expected a report, got \(String(describing: partly.error))"); return
        }
        #expect(report.contains("  test parts: a,c"), "\(report)")
        #expect(report.contains(#"Part 1 of 2, part a: answered by "a""#))
        #expect(report.contains("Part 2 of 2, part c: no stub matches"))
        #expect(report.contains(#"isPart("c")"#))
        #expect(!report.contains(#"isPart("a")"#), "only the unanswered part needs a stub")
    }
}
