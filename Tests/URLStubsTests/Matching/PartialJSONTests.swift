import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// JSON bodies compared partly: a subset (`hasJSONBody(containing:)`) or all but the volatile
/// fields (`hasJSONBody(_:ignoring:)`), and the JSON paths behind `VolatileFields`.
@Suite("Partial and volatile JSON")
struct PartialJSONTests {
    private func accepts(_ matcher: RequestMatcher, _ json: String) -> Bool {
        matcher.matches(StubRequest(request("https://a.test/", method: "POST", body: Data(json.utf8))))
    }

    private func reasons(_ matcher: RequestMatcher, _ json: String) -> [String] {
        matcher.mismatches(for: StubRequest(request("https://a.test/", method: "POST", body: Data(json.utf8))))
    }

    @Test func containingComparesObjectsByKey() {
        let matcher = hasJSONBody(containing: ["user": ["name": "Ada"], "n": 1])
        #expect(accepts(matcher, #"{"user":{"name":"Ada","id":7},"n":1.0,"extra":[1]}"#))
        #expect(!accepts(matcher, #"{"user":{"name":"Bob"},"n":1}"#))
        #expect(
            reasons(matcher, #"{"user":{"name":"Bob"}}"#)
                == [#"JSON body differs: $.n: missing, expected 1; $.user.name: expected "Ada", got "Bob""#])
        #expect(reasons(matcher, "not json").first?.contains("got a body that is not JSON") == true)
        #expect(!accepts(hasJSONBody(containing: ["n": "1"]), #"{"n":1}"#), "a string is not a number")
        #expect(!accepts(hasJSONBody(containing: ["flag": true]), #"{"flag":1}"#), "true is not 1")
    }

    @Test func containingComparesArraysByPositionOrAsUnorderedSets() {
        let byPosition = hasJSONBody(containing: ["items": [["sku": "A"], ["sku": "B"]]])
        #expect(accepts(byPosition, #"{"items":[{"sku":"A","qty":1},{"sku":"B","qty":2}]}"#))
        #expect(!accepts(byPosition, #"{"items":[{"sku":"B"},{"sku":"A"}]}"#))
        #expect(reasons(byPosition, #"{"items":[{"sku":"A"}]}"#) == ["JSON body differs: $.items: expected 2 elements, got 1"])

        let unordered = hasJSONBody(containing: ["items": [["sku": "A"], ["sku": "B"]]], arrays: .unordered)
        #expect(accepts(unordered, #"{"items":[{"sku":"C"},{"sku":"B"},{"sku":"A","qty":1}]}"#))
        #expect(!accepts(unordered, #"{"items":[{"sku":"A"},{"sku":"A"}]}"#), "each expected element needs its own actual element")
        #expect(
            reasons(unordered, #"{"items":[{"sku":"A"}]}"#)
                == [#"JSON body differs: $.items: no element contains {"sku":"B"} (expected element 1, in any order)"#])
        // A greedy pairing would give {"a":1} the element {"a":1,"b":2} needs.
        let needsBacktracking = hasJSONBody(containing: [["a": 1], ["a": 1, "b": 2]], arrays: .unordered)
        #expect(accepts(needsBacktracking, #"[{"a":1,"b":2},{"a":1}]"#))
    }

    @Test func ignoringLeavesVolatileFieldsOut() {
        let matcher = hasJSONBody(
            [
                "event": "login", "timestamp": 0, "items": [["id": 0, "sku": "A"], ["id": 0, "sku": "B"]],
                "meta": ["trace": ["nonce": "x", "keep": 1]],
            ],
            ignoring: ["$.timestamp", "$.items[*].id", "$..nonce"])
        #expect(
            accepts(
                matcher,
                #"{"event":"login","timestamp":1732300000,"items":[{"id":91,"sku":"A"},{"id":92,"sku":"B"}],"meta":{"trace":{"nonce":"q1","keep":1}}}"#
            ))
        #expect(
            accepts(matcher, #"{"event":"login","items":[{"sku":"A"},{"sku":"B"}],"meta":{"trace":{"keep":1}}}"#),
            "an ignored member may be missing")
        #expect(
            reasons(matcher, #"{"event":"logout","timestamp":1,"items":[{"id":1,"sku":"A"},{"id":2,"sku":"C"}],"meta":{"trace":{"keep":1}}}"#)
                == [#"JSON body differs: $.event: expected "login", got "logout"; $.items[1].sku: expected "B", got "C""#])
        let bracketed = hasJSONBody(["list": [1, 2, 3], "odd key": 1], ignoring: ["$.list[1]", "$['odd key']"])
        #expect(accepts(bracketed, #"{"list":[1,99,3],"odd key":2}"#))
        #expect(!accepts(bracketed, #"{"list":[1,99,4]}"#))
    }

    @Test(arguments: [
        ("timestamp", 1, "starts with \"$\""),
        ("$.", 2, "member name"),
        ("$.items[", 8, "never closed"),
        ("$.items[x]", 9, "an index, \"*\" or a quoted member name"),
        ("$..*", 2, "\"..\" must be followed"),
        ("$items", 2, "expected \".\" or \"[\""),
    ])
    func invalidPathsSayWhere(path: String, column: Int, message: String) {
        #expect {
            try JSONPath(path)
        } throws: { error in
            guard let error = error as? JSONPathError else { return false }
            return error.column == column && error.message.contains(message)
        }
        let fields = VolatileFields(jsonPaths: ["$.ok", path])
        #expect(fields.problems.count == 1)
        #expect(hasJSONBody(["a": 1], ignoring: [path]).problems.first?.contains("column \(column)") == true)
    }

    @Test func anInvalidIgnoredPathFailsTheRequestClearly() async {
        let registry = StubRegistry()
        registry.stub(hasJSONBody(["a": 1], ignoring: ["$.items["]), name: "volatile") { _ in StubResponse(data: Data()) }
        let result = await fetch(request("https://api.test/x", method: "POST", body: Data(#"{"a":1}"#.utf8)), from: registry)
        guard case .invalidMatcher(let stub, let problems)? = result.stubError else {
            Issue.record("expected invalidMatcher, got \(String(describing: result.error))"); return
        }
        #expect(stub.contains("volatile"))
        #expect(problems.first?.contains(#"invalid JSON path "$.items[" at column 8"#) == true)
    }

    @Test(arguments: BodyTransport.allCases)
    func partialMatchersThroughASession(transport: BodyTransport) async {
        let registry = StubRegistry()
        registry.stub(isPath("/events") && hasJSONBody(["event": "open", "at": 0], ignoring: ["$.at"])) { _ in
            StubResponse(data: Data("exact but for at".utf8))
        }
        registry.stub(isPath("/orders") && hasJSONBody(containing: ["lines": [["sku": "B"]]], arrays: .unordered)) { _ in
            StubResponse(data: Data("has B".utf8))
        }
        let base = request("https://api.test/events", method: "POST", headers: ["Content-Type": "application/json"])
        #expect(await send(base, body: Data(#"{"event":"open","at":1732300000.25}"#.utf8), via: transport, to: registry).body == "exact but for at")
        var orders = base
        orders.url = URL(string: "https://api.test/orders")
        #expect(
            await send(orders, body: Data(#"{"id":5,"lines":[{"sku":"A"},{"sku":"B","qty":2}]}"#.utf8), via: transport, to: registry).body == "has B")
        let missed = await send(orders, body: Data(#"{"lines":[{"sku":"A"}]}"#.utf8), via: transport, to: registry)
        #expect(missed.stubError != nil)
    }

    @Test func volatileFieldsApplyToQueriesHeadersAndPaths() throws {
        let fields = VolatileFields(queryParameters: ["_", "ts"], headers: ["X-Request-ID"], jsonPaths: ["$.a", "$.b[0]"])
        #expect(fields.ignoresHeader("x-request-id"))
        #expect(!fields.ignoresHeader("Accept"))
        let url = try #require(URL(string: "https://a.test/p?q=1&_=123&ts=9"))
        #expect(fields.removingQueryParameters(from: url).absoluteString == "https://a.test/p?q=1")
        let json = try JSONValue(any: ["a": 1, "b": [1, 2], "c": 3])
        #expect(fields.removingPaths(from: json) == (try JSONValue(any: ["b": [NSNull(), 2], "c": 3])))
        #expect(fields.union(VolatileFields(headers: ["Date"])).headers == ["x-request-id", "date"])
        #expect(VolatileFields().isEmpty)
    }

    @Test func jsonValuesHashLikeTheyCompare() throws {
        let one = try JSONValue(data: Data(#"{"a":1,"b":[true,"x",null],"c":2.5}"#.utf8))
        let same = try JSONValue(data: Data(#"{"c":2.50,"b":[true,"x",null],"a":1.0}"#.utf8))
        #expect(one == same)
        #expect(one.hashValue == same.hashValue)
        #expect(Set([JSONValue.integer(1), .number(1.0), .number(-0.0), .integer(0)]).count == 2)
    }
}
