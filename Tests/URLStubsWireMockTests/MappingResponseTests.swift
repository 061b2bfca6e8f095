import Foundation
import Testing
import URLStubs
import URLStubsWireMock

/// The `response` object and the mapping's own members, against WireMock's stubbing,
/// simulating-faults and stateful-behaviour documentation.
@Suite("WireMock mapping: response and mapping")
struct MappingResponseTests {
    // Documented: status defaults to 200; statusMessage is the reason phrase.
    @Test func statusAndMessage() throws {
        #expect(try mapping(#"{"response": {}}"#).response.status == 200)
        let read = try mapping(#"{"response": {"status": 418, "statusMessage": "I am a teapot"}}"#)
        #expect(read.response.status == 418)
        #expect(read.response.statusMessage == "I am a teapot")
    }

    // Documented: a header value may be an array, sent as the header repeated.
    @Test func headersWithOneOrSeveralValues() throws {
        let read = try mapping(#"{"response": {"headers": {"Content-Type": "text/plain", "Set-Cookie": ["a=1", "b=2"]}}}"#)
        #expect(read.response.headers["Content-Type"] == ["text/plain"])
        #expect(read.response.headers["Set-Cookie"] == ["a=1", "b=2"])
        let written = String(decoding: try JSONEncoder().encode(read), as: UTF8.self)
        #expect(written.contains(#""Content-Type":"text\/plain""#) || written.contains(#""Content-Type":"text/plain""#))
        #expect(written.contains(#"["a=1","b=2"]"#))
    }

    // Documented bodies: body (text), jsonBody (JSON), base64Body, bodyFileName (under __files).
    @Test func eachKindOfBody() throws {
        #expect(try mapping(#"{"response": {"body": "Hello world!"}}"#).response.body == .text("Hello world!"))
        #expect(
            try mapping(#"{"response": {"jsonBody": {"a": [1, true]}}}"#).response.body == .json(.object(["a": .array([.integer(1), .bool(true)])])))
        #expect(try mapping(#"{"response": {"base64Body": "AQID"}}"#).response.body == .base64(Data([1, 2, 3])))
        #expect(try mapping(#"{"response": {"bodyFileName": "users.json"}}"#).response.body == .file("users.json"))
        let error = try #require(problem(#"{"response": {"body": "a", "jsonBody": {}}}"#))
        #expect(error.jsonPath == "$.response.jsonBody")
    }

    // Documented: fixedDelayMilliseconds; delayDistribution uniform (lower, upper) and lognormal
    // (median, sigma, optional maxValue); chunkedDribbleDelay (numberOfChunks, totalDuration).
    @Test func delays() throws {
        let read = try mapping(
            #"{"response": {"fixedDelayMilliseconds": 2000, "chunkedDribbleDelay": {"numberOfChunks": 5, "totalDuration": 1000}}}"#)
        #expect(read.response.fixedDelayMilliseconds == 2000)
        #expect(read.response.chunkedDribbleDelay == .init(numberOfChunks: 5, totalDuration: 1000))
        #expect(
            try mapping(#"{"response": {"delayDistribution": {"type": "uniform", "lower": 15, "upper": 25}}}"#).response.delayDistribution
                == .uniform(lower: 15, upper: 25))
        #expect(
            try mapping(#"{"response": {"delayDistribution": {"type": "lognormal", "median": 80, "sigma": 0.4}}}"#).response.delayDistribution
                == .lognormal(median: 80, sigma: 0.4, maxValue: nil))
        let error = try #require(problem(#"{"response": {"delayDistribution": {"type": "gaussian"}}}"#))
        #expect(error.jsonPath == "$.response.delayDistribution.type")
    }

    @Test func delayDistributionsDrawWithinTheirBounds() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let uniform = WireMockMapping.DelayDistribution.uniform(lower: 15, upper: 25).sample(using: &random)
            #expect((15...25).contains(uniform))
            let capped = WireMockMapping.DelayDistribution.lognormal(median: 80, sigma: 2, maxValue: 100).sample(using: &random)
            #expect(capped <= 100 && capped > 0)
        }
    }

    // Documented faults: CONNECTION_RESET_BY_PEER, EMPTY_RESPONSE, MALFORMED_RESPONSE_CHUNK,
    // RANDOM_DATA_THEN_CLOSE; another name is refused.
    @Test(arguments: WireMockMapping.Fault.allCases)
    func faults(fault: WireMockMapping.Fault) throws {
        #expect(try mapping(#"{"response": {"fault": "\#(fault.rawValue)"}}"#).response.fault == fault)
    }

    @Test func anUnknownFaultIsRefused() throws {
        let error = try #require(problem(#"{"response": {"fault": "CONNECTION_TIMEOUT"}}"#))
        #expect(error.jsonPath == "$.response.fault")
        #expect(error.description.contains("EMPTY_RESPONSE"))
    }

    // Documented: proxyBaseUrl (with additionalProxyRequestHeaders, removeProxyRequestHeaders,
    // proxyUrlPrefixToRemove); transformers and transformerParameters.
    @Test func proxyAndTransformers() throws {
        let read = try mapping(
            #"""
            {"response": {"proxyBaseUrl": "http://otherhost.com", "proxyUrlPrefixToRemove": "/other",
              "additionalProxyRequestHeaders": {"User-Agent": "Mozilla"}, "removeProxyRequestHeaders": ["X-Secret"],
              "transformers": ["response-template"], "transformerParameters": {"MyCustomParameter": "Parameter Value", "n": 3}}}
            """#)
        #expect(read.response.proxyBaseUrl == "http://otherhost.com")
        #expect(read.response.proxyUrlPrefixToRemove == "/other")
        #expect(read.response.additionalProxyRequestHeaders == ["User-Agent": "Mozilla"])
        #expect(read.response.removeProxyRequestHeaders == ["X-Secret"])
        #expect(read.response.isTemplated())
        #expect(read.response.transformerParameters["n"] == .integer(3))
        let error = try #require(problem(#"{"response": {"transformers": ["my-extension"]}}"#))
        #expect(error.jsonPath == "$.response.transformers[0]")
    }

    // Documented: priority 1 is the highest and unset means 5; id/uuid, name, metadata,
    // persistent and the three scenario members.
    @Test func theMappingsOwnMembers() throws {
        let read = try mapping(
            #"""
            {"id": "8C5DB8B0-2DB4-4AD7-B99F-38C9B00DA3F7", "name": "users", "priority": 1, "persistent": true,
             "metadata": {"singleItem": 1234, "listItem": [1, 2], "nestedObject": {"innerItem": "Hello"}},
             "scenarioName": "To do list", "requiredScenarioState": "Started", "newScenarioState": "Cancel newspaper item added",
             "request": {"method": "GET"}, "response": {"status": 200}}
            """#)
        #expect(read.id == UUID(uuidString: "8C5DB8B0-2DB4-4AD7-B99F-38C9B00DA3F7"))
        #expect(read.name == "users")
        #expect(read.effectivePriority == 1)
        #expect(read.persistent == true)
        #expect(read.metadata?["nestedObject"] == .object(["innerItem": .string("Hello")]))
        #expect(read.scenarioName == "To do list")
        #expect(read.requiredScenarioState == "Started")
        #expect(read.newScenarioState == "Cancel newspaper item added")
        #expect(try mapping(#"{"request": {}}"#).effectivePriority == 5)
        #expect(try mapping(#"{"uuid": "8C5DB8B0-2DB4-4AD7-B99F-38C9B00DA3F7", "request": {}}"#).id != nil)
    }

    // WireMock writes insertionIndex into the files it saves and ignores it when loading; $schema
    // is an editor hint it ignores too.
    @Test func membersWireMockWritesAndIgnoresAreAccepted() throws {
        _ = try mapping(#"{"$schema": "https://example.com/schema.json", "insertionIndex": 3, "request": {}}"#)
    }

    @Test func aMappingWithNeitherRequestNorResponseIsRefused() throws {
        let error = try #require(problem(#"{"name": "empty"}"#))
        #expect(error.jsonPath == "$")
        #expect(error.description.contains("neither"))
    }

    @Test func malformedJSONNamesLineAndColumn() throws {
        let error = try #require(problem("{\n  \"request\": {\n    \"url\": \"/a\",\n  }\n}"))
        #expect(error.source == "mapping.json")
        #expect(error.description.contains("line 4, column 3"))
    }

    @Test func aWrongTypeNamesThePath() throws {
        let error = try #require(problem(#"{"response": {"status": "200"}}"#))
        #expect(error.jsonPath == "$.response.status")
        #expect(error.description.contains("a whole number"))
    }

    @Test(arguments: ["postServeActions", "serveEventListeners"])
    func webhooksAreRefused(member: String) throws {
        #expect(problem(#"{"request": {}, "\#(member)": []}"#)?.jsonPath == "$.\(member)")
    }

    // Documented: a file holds one mapping or {"mappings": [...]}.
    @Test func aFileOfSeveralMappingsKeepsTheirOrder() throws {
        let mappings = try WireMockMapping.mappings(
            in: Data(#"{"mappings": [{"name": "a", "request": {}}, {"name": "b", "response": {}}]}"#.utf8), source: "many.json")
        #expect(mappings.map(\.name) == ["a", "b"])
        let error = try #require(problem(#"{"mappings": [{"request": {}}, {"request": {"nope": 1}}]}"#))
        #expect(error.jsonPath == "$.mappings[1].request.nope")
    }

    @Test func everyMemberSurvivesWritingAndReading() throws {
        let original = try mapping(
            #"""
            {"id": "8c5db8b0-2db4-4ad7-b99f-38c9b00da3f7", "name": "all", "priority": 2, "persistent": false,
             "metadata": {"a": [1, {"b": null}]}, "scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "next",
             "request": {"method": "PUT", "urlPathTemplate": "/a/{b}", "pathParameters": {"b": {"matches": "[0-9]+"}},
               "scheme": "https", "host": {"contains": "example"}, "port": 443,
               "queryParameters": {"q": {"hasExactly": [{"equalTo": "1"}]}, "r": {"includes": [{"absent": true}]}},
               "headers": {"A": {"equalTo": "x", "caseInsensitive": true}, "B": {"not": {"doesNotContain": "y"}}},
               "cookies": {"c": {"or": [{"doesNotMatch": "z"}, {"anything": "x"}]}},
               "formParameters": {"f": {"and": [{"equalToNumber": 3}, {"greaterThanEqualNumber": 1.5}]}},
               "basicAuthCredentials": {"username": "u", "password": "p"},
               "bodyPatterns": [{"binaryEqualTo": "AQID"}, {"equalToJson": {"a": [1]}, "ignoreArrayOrder": true},
                 {"matchesJsonPath": {"expression": "$.d", "before": "now +1 days", "actualFormat": "epoch", "truncateActual": "first day of year"}}]},
             "response": {"status": 201, "statusMessage": "Made", "headers": {"X": ["1", "2"]}, "jsonBody": {"ok": true},
               "fixedDelayMilliseconds": 5, "delayDistribution": {"type": "lognormal", "median": 10, "sigma": 0.1, "maxValue": 20},
               "chunkedDribbleDelay": {"numberOfChunks": 2, "totalDuration": 10}, "proxyBaseUrl": "http://x",
               "transformers": ["response-template"], "transformerParameters": {"p": "v"}}}
            """#)
        #expect(try roundTrip(original) == original)
        #expect(
            try roundTrip(try mapping(#"{"response": {"fault": "EMPTY_RESPONSE", "base64Body": "AQID"}}"#)).response.body == .base64(Data([1, 2, 3])))
    }
}
