import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
import URLStubsGraphQL
@testable import URLStubsScenarios
@testable import TestSupport

/// The secondary index (method, query parameter, body, GraphQL operation inside a path or
/// host): whatever it files, the stub that answers must be exactly the one a newest-first scan
/// of every stub finds, with `||`, `!`, closures and bodies not visible yet included.
@Suite("Stub index")
struct StubIndexTests {
    private static func descriptor(_ matcher: RequestMatcher, sequence: UInt64) -> StubDescriptor {
        StubDescriptor(
            name: "#\(sequence)", matcher: matcher, location: StubLocation(fileID: "Test.swift", filePath: #filePath, line: 1),
            maxActivations: nil, sequence: sequence, answer: .constant(StubResponse(data: Data())))
    }

    /// What the table answers: the first candidate that matches.
    private static func indexed(_ table: StubTable, _ request: StubRequest) -> String? {
        var found: String?
        table.forEachCandidate(for: request) { descriptor, parsed in
            guard descriptor.matcher.matches(parsed) else { return false }
            found = descriptor.name
            return true
        }
        return found
    }

    /// What a scan of every stub, newest first (`newestFirst`: the table's stubs, sorted once),
    /// answers.
    private static func scanned(_ newestFirst: [StubDescriptor], _ request: StubRequest) -> String? {
        newestFirst.first { $0.matcher.matches(request) }?.name
    }

    private static let paths = ["/a", "/graphql"]
    private static let methods = ["GET", "POST", "PUT"]
    private static let values = ["1", "2", "3"]

    private static func randomMatcher(_ generator: inout SplitMix64, depth: Int = 0) -> RequestMatcher {
        let pick = Int.random(in: 0..<(depth < 2 ? 12 : 9), using: &generator)
        func value() -> String { values.randomElement(using: &generator)! }
        switch pick {
        case 0: return isMethod(StubRequest.Method(rawValue: methods.randomElement(using: &generator)!))
        case 1: return containsQueryParams(["q": value()])
        case 2: return containsQueryParams(["q": nil, "r": value()])
        case 3: return isGraphQLOperation("Op" + value())
        case 4: return hasJSONBody(["v": Int(value())!])
        case 5: return hasBody(Data("body\(value())".utf8))
        case 6: return isPath(paths.randomElement(using: &generator)!)
        case 7: return isHost("h\(value()).test")
        case 8: return RequestMatcher("custom") { $0.queryItems.count % 2 == 0 }
        case 9: return randomMatcher(&generator, depth: depth + 1) || randomMatcher(&generator, depth: depth + 1)
        case 10: return !randomMatcher(&generator, depth: depth + 1)
        default: return randomMatcher(&generator, depth: depth + 1) && randomMatcher(&generator, depth: depth + 1)
        }
    }

    private static func randomRequest(_ generator: inout SplitMix64) -> StubRequest {
        func value() -> String { values.randomElement(using: &generator)! }
        var components = URLComponents()
        components.scheme = "https"
        components.host = "h\(value()).test"
        components.path = paths.randomElement(using: &generator)!
        var items: [URLQueryItem] = []
        for _ in 0..<Int.random(in: 0...2, using: &generator) {
            items.append(URLQueryItem(name: ["q", "r"].randomElement(using: &generator)!, value: Bool.random(using: &generator) ? value() : nil))
        }
        components.queryItems = items.isEmpty ? nil : items
        var urlRequest = URLRequest(url: components.url!)
        urlRequest.httpMethod = methods.randomElement(using: &generator)!
        let bodies: [Data?] = [
            nil, Data("body\(value())".utf8), Data(#"{"v":\#(value())}"#.utf8),
            Data(#"{"query":"query Op\#(value()) { x }","variables":{"v":1}}"#.utf8),
            Data(#"[{"query":"query Op1 { x }"}]"#.utf8),
        ]
        let body = bodies.randomElement(using: &generator)!
        urlRequest.httpBody = body
        // A body not visible yet (an upload being claimed) must make every body stub a candidate.
        let isBodyKnown = Int.random(in: 0..<5, using: &generator) != 0
        return StubRequest(urlRequest, body: isBodyKnown ? body : nil, pathParameters: [:], isBodyKnown: isBodyKnown)
    }

    // Async, and yielding now and then: this is the suite's heaviest pure-CPU test, and a
    // test that never suspends holds one of the few threads every other test needs.
    @Test(arguments: 0..<8)
    func theIndexAnswersExactlyAsAScanWould(seed: Int) async {
        var generator = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
        var table = StubTable()
        var added: [StubDescriptor] = []
        for sequence in 1...300 {
            // Out-of-order arrival, as concurrent adds can produce.
            let stub = Self.descriptor(Self.randomMatcher(&generator), sequence: UInt64(sequence * 2 + (sequence % 3 == 0 ? -3 : 0)))
            table.add(stub)
            added.append(stub)
            if sequence % 7 == 0, let victim = added.randomElement(using: &generator) {
                table.remove(victim)
                added.removeAll { $0 === victim }
            }
        }
        let newestFirst = table.all.sorted { $0.sequence > $1.sequence }
        for round in 0..<1_500 {
            if round % 100 == 0 { await Task.yield() }
            let request = Self.randomRequest(&generator)
            #expect(Self.indexed(table, request) == Self.scanned(newestFirst, request), "\(request) body known: \(request.isBodyKnown)")
        }
    }

    @Test func keysFollowTheOperators() {
        let both = isPath("/a") && isMethod(.post) && containsQueryParams(["q": "1", "any": nil]) && isGraphQLOperation("Op")
        #expect(both.keys == MatchKeys(path: "/a", method: "POST", queryParameters: [.init(name: "q", value: "1")], graphQLOperation: "Op"))
        #expect(both.keys.secondaryKey?.0 == .graphQLOperation)
        let either = (isPath("/a") && isMethod(.get)) || (isPath("/a") && isMethod(.post))
        #expect(either.keys == MatchKeys(path: "/a"), "only what both sides require")
        #expect((!isMethod(.get)).keys == MatchKeys())
        #expect(RequestMatcher("custom") { _ in true }.keys == MatchKeys())
        #expect(hasJSONBody(["a": 1.0]).keys.jsonBody == .object(["a": .integer(1)]))
    }

    @Test func newestMatchingStubWinsAmongThousandsOnOnePath() async {
        let registry = StubRegistry()
        registry.stub(isPath("/shared") && isMethod(.get) && containsQueryParams(["item": "42"]), name: "oldest") { _ in
            StubResponse(data: Data("oldest".utf8))
        }
        for index in 0..<3_000 {
            let matcher: RequestMatcher
            switch index % 3 {
            case 0: matcher = isPath("/shared") && isMethod(.get) && containsQueryParams(["item": "n\(index)"])
            case 1: matcher = isPath("/shared") && isMethod(.post) && hasJSONBody(["item": index])
            default: matcher = isPath("/shared") && isMethod(.post) && isGraphQLOperation("Op\(index)")
            }
            registry.stub(matcher, name: "\(index)") { _ in StubResponse(data: Data("\(index)".utf8)) }
        }
        #expect(await fetch("https://api.test/shared?item=42", from: registry).body == "oldest")
        #expect(await fetch("https://api.test/shared?item=n300&item=n30", from: registry).body == "300", "the newer of two values")
        #expect(await fetch(request("https://api.test/shared", method: "POST", body: Data(#"{"item":1}"#.utf8)), from: registry).body == "1")
        #expect(
            await fetch(request("https://api.test/shared", method: "POST", body: Data(#"{"query":"query Op2999 { x }"}"#.utf8)), from: registry).body
                == "2999")
        registry.stub(RequestMatcher("any GET") { $0.method == "GET" }, name: "closure") { _ in StubResponse(data: Data("closure".utf8)) }
        #expect(await fetch("https://api.test/shared?item=42", from: registry).body == "closure", "an unkeyed newer stub still wins")

        var streamed = request("https://api.test/shared", method: "POST")
        streamed.httpBodyStream = InputStream(data: Data(#"{"item":4}"#.utf8))
        #expect(await fetch(streamed, from: registry).body == "4", "a streamed body is matched once it is read")
    }
}
