import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsTestRunnerLink
@testable import URLStubsTesting

/// The test-runner link's JSON, pinned by text written by hand from the protocol's documented
/// fields (`WireMessage`, `WireJournalEntry`, `WireVerificationReport`) and the engine's
/// declaration form (`StubDeclaration`, its `request` and `response` members, documented in
/// the "Stubs as data" article). The JSON is the link's protocol (`WireMessage.protocolVersion`):
/// a round trip through the same types still passes after a field is renamed on both sides,
/// these tests fail, so a change to the protocol is deliberate and comes with a new version.
@Suite("AppBackend wire format")
struct AppBackendWireFormatTests {
    /// `json` parsed and written again with sorted keys, so two texts compare as JSON objects:
    /// key order and spacing do not count, names and values do.
    private func canonical(_ json: Data) throws -> String {
        let object = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether `value` encodes to the JSON object of `expected`.
    private func encodes(_ value: some Encodable, as expected: String) throws -> (matches: Bool, encoded: String) {
        let encoded = try canonical(JSONEncoder().encode(value))
        return (encoded == (try canonical(Data(expected.utf8))), encoded)
    }

    // MARK: The launch environment

    /// The variables an app's launch reads (documented in DrivingTheAppFromUITests): the only
    /// place the tests spell them; elsewhere they use `TestRunnerLink`'s names.
    @Test func theLaunchEnvironmentUsesTheDocumentedVariableNames() throws {
        #expect(TestRunnerLink.addressVariable == "URLSTUBS_TEST_RUNNER")
        #expect(TestRunnerLink.tokenVariable == "URLSTUBS_TEST_RUNNER_TOKEN")
        let backend = try AppBackend(connectTimeout: 0.2)
        defer { backend.close() }
        let environment = backend.launchEnvironment
        #expect(environment.keys.sorted() == ["URLSTUBS_TEST_RUNNER", "URLSTUBS_TEST_RUNNER_TOKEN"])
        #expect(environment["URLSTUBS_TEST_RUNNER"]?.hasPrefix("127.0.0.1:") == true, "\(environment)")
        let token = environment["URLSTUBS_TEST_RUNNER_TOKEN"] ?? ""
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit), "64 hex digits: \(token.count) characters")
    }

    // MARK: What the app receives

    @Test func theAppReadsCommandsWrittenByHand() throws {
        GraphQLPatternKinds.register()
        LinkNetworkProfile.register()
        // The welcome says how many declared commands follow; each is a frame of its own.
        let welcome = try WireMessage.decode(
            Data(#"{"type": "welcome", "protocolVersion": 3, "unmatchedRequests": "passthrough", "setupCount": 4}"#.utf8))
        let setup = try [
            #"""
            {
              "type": "addStub", "id": 1, "stubID": "stub-1", "expected": {"atLeast": 2},
              "declaration": {
                "version": 1, "name": "order", "times": 2, "source": {"file": "CartTests.swift", "line": 12},
                "request": {
                  "method": "POST", "host": {"equalTo": "api.shop.test"}, "path": {"template": "/orders/:id"},
                  "url": {"equalTo": "https://api.shop.test/orders/7?dry=1"},
                  "query": {"dry": {"present": true}, "page": {"equalTo": "2"}},
                  "headers": {"Authorization": {"present": true}, "Accept": {"equalTo": "application/json"}},
                  "body": [
                    {"equalToJson": {"sku": "tea", "n": 2, "gift": false, "tags": ["a", 1.5, null]}, "ignoreExtraElements": true},
                    {"kind": "graphQLOperation", "value": "Cart"}
                  ]
                },
                "response": {
                  "status": 201, "headers": [{"name": "X-Trace", "value": "1"}], "body": {"json": {"ok": true}},
                  "requestTime": 0.5, "responseTime": 1.25, "downloadSpeed": 64, "gate": "gate-1: checkout",
                  "transformer": {"name": "networkProfile", "value": {
                    "downloadSpeed": 32, "latency": 0.2, "jitter": 0.05, "failureRate": 0.1,
                    "failures": ["timeout", "serverError"], "seed": "18446744073709551615"
                  }}
                }
              }
            }
            """#,
            #"""
            {
              "type": "addStub", "id": 2, "stubID": "stub-2",
              "declaration": {
                "version": 1, "source": {"file": "PricesTests.swift", "line": 30}, "request": {},
                "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/event-stream"}], "body": {"stream": "stream-3: prices"}}
              }
            }
            """#,
            #"{"type": "activateScenario", "id": 3, "scenario": "sold-out"}"#,
            #"{"type": "setOffline", "id": 4, "offline": true, "location": "CartTests.swift:14"}"#,
        ].map { try WireMessage.decode(Data($0.utf8)) }
        #expect(try welcome.knownType() == .welcome)
        #expect(welcome.protocolVersion == 3)
        #expect(welcome.unmatchedRequests == "passthrough")
        #expect(welcome.setupCount == 4)
        #expect(try setup.map { try $0.knownType() } == [.addStub, .addStub, .activateScenario, .setOffline])
        #expect(setup.map(\.id) == [1, 2, 3, 4])

        #expect(setup[0].stubID == "stub-1")
        #expect(try setup[0].expected?.expectedCount() == .atLeast(2))
        let order = try DeclarationForms.declaration(from: try #require(setup[0].declaration), source: "stub-1")
        let jsonBody = JSONValue.object([
            "sku": .string("tea"), "n": .integer(2), "gift": .bool(false), "tags": .array([.string("a"), .number(1.5), .null]),
        ])
        let matcher =
            isMethod(.post) && isHost("api.shop.test") && isPath("/orders/:id") && isAbsoluteURLString("https://api.shop.test/orders/7?dry=1")
            && containsQueryParams(["dry": nil, "page": "2"]) && hasHeaderNamed("Accept", value: "application/json")
            && hasHeaderNamed("Authorization") && hasJSONBody(containing: jsonBody) && isGraphQLOperation("Cart")
        #expect(order.request == matcher.pattern, "the pattern the matcher functions stand for")
        #expect(order.name == "order")
        #expect(order.times == 2)
        #expect(order.source == StubDeclaration.Source(file: "CartTests.swift", line: 12))
        var response = ResponseDefinition(status: 201, headers: ["X-Trace": "1"], body: .json(.object(["ok": .bool(true)])))
        response.requestTime = 0.5
        response.responseTime = 1.25
        response.downloadSpeed = 64
        response.gate = "gate-1: checkout"
        let profile = NetworkProfile(
            downloadSpeed: .kilobytesPerSecond(32), latency: 0.2, jitter: 0.05, failureRate: 0.1, failures: [.timeout, .serverError],
            seed: .max)
        var withoutProfile = order.response
        withoutProfile.transformer = nil
        #expect(withoutProfile == response)
        let sent = try #require(order.response.transformer)
        #expect(sent.name == "networkProfile")
        let made = try #require(RemoteResponse(ResponseDefinition()).networkProfile(profile).definition.transformer)
        #expect(try LinkNetworkProfile.Values(sent.value) == LinkNetworkProfile.Values(made.value))
        #expect(try LinkNetworkProfile.Values(sent.value).seed == .max, "the seed crosses as text, all 64 bits")

        let prices = try DeclarationForms.declaration(from: try #require(setup[1].declaration), source: "stub-2")
        #expect(prices.name == nil)
        #expect(prices.times == nil)
        #expect(prices.request == RequestPattern(), "an empty pattern accepts every request")
        #expect(prices.response == ResponseDefinition(headers: ["Content-Type": "text/event-stream"], body: .stream("stream-3: prices")))

        #expect(setup[2].scenario == "sold-out")
        #expect(setup[3].offline == true)
        #expect(setup[3].location == "CartTests.swift:14")
    }

    @Test func theAppReadsEveryBodyAndEveryFailureWrittenByHand() throws {
        let bodies: [(json: String, expected: ResponseDefinition)] = [
            (#"{"status": 200, "body": {"text": "sold out"}}"#, ResponseDefinition(body: .text("sold out"))),
            (#"{"body": {"base64": "YWJj"}}"#, ResponseDefinition(body: .bytes(Data("abc".utf8)))),
            (#"{"body": {"fixture": "users.json"}}"#, ResponseDefinition(body: .fixture("users.json"))),
            (#"{"body": {"stream": "s"}}"#, ResponseDefinition(body: .stream("s"))),
            (#"{"failure": {"error": -1001}}"#, ResponseDefinition(failure: .error(code: URLError.Code.timedOut.rawValue))),
            (
                #"{"status": 202, "headers": {"Set-Cookie": ["a=1", "b=2"]}}"#,
                ResponseDefinition(
                    status: 202,
                    headers: HeaderFields([
                        (name: "Set-Cookie", value: "a=1"), (name: "Set-Cookie", value: "b=2"),
                    ]))
            ),
        ]
        for (json, expected) in bodies {
            let release = try WireMessage.decode(Data(#"{"type": "releaseHeld", "id": 9, "gateID": "g", "response": \#(json)}"#.utf8))
            #expect(try DeclarationForms.response(from: try #require(release.response), source: "release") == expected, "\(json)")
        }

        let send = try WireMessage.decode(Data(#"{"type": "streamSend", "id": 10, "streamID": "s", "data": "ZXZlbnQ6IHByaWNlCgo="}"#.utf8))
        #expect(send.data == Data("event: price\n\n".utf8))
        let wait = try WireMessage.decode(
            Data(
                #"{"type": "waitForRequests", "id": 11, "request": {"method": "GET", "path": {"equalTo": "/analytics"}}, "count": 2, "timeout": 20}"#
                    .utf8))
        #expect(try DeclarationForms.pattern(from: try #require(wait.request), source: "wait") == (isMethod(.get) && isPath("/analytics")).pattern)
        #expect(wait.count == 2)
        #expect(wait.timeout == 20)
        let fail = try WireMessage.decode(Data(#"{"type": "failHeld", "id": 12, "gateID": "g", "errorCode": -1005}"#.utf8))
        #expect(fail.gateID == "g")
        #expect(fail.errorCode == URLError.Code.networkConnectionLost.rawValue)
        let held = try WireMessage.decode(
            Data(#"{"type": "waitForHeldRequest", "id": 13, "gateID": "g", "location": "CheckoutTests.swift:12", "timeout": 5}"#.utf8))
        #expect(held.location == "CheckoutTests.swift:12")
    }

    // MARK: What the test sends

    @Test func remoteMatchersEncodeAsTheAppReadsThem() throws {
        let full = RemoteMatcher(
            method: "POST", host: "api.shop.test", path: "/orders/:id", url: "https://api.shop.test/orders/7?dry=1",
            queryItems: ["dry": nil, "page": "2"], headers: ["Authorization": nil], jsonBody: ["sku": "tea", "n": 2],
            graphQLOperation: "Cart")
        let expected = #"""
            {
              "method": "POST", "host": {"equalTo": "api.shop.test"}, "path": {"template": "/orders/:id"},
              "url": {"equalTo": "https://api.shop.test/orders/7?dry=1"},
              "query": {"dry": {"present": true}, "page": {"equalTo": "2"}}, "headers": {"Authorization": {"present": true}},
              "body": [{"equalToJson": {"sku": "tea", "n": 2}, "ignoreExtraElements": true}, {"kind": "graphQLOperation", "value": "Cart"}]
            }
            """#
        let encoded = try encodes(full, as: expected)
        #expect(encoded.matches, "\(encoded.encoded)")
        let any = try encodes(RemoteMatcher.any, as: "{}")
        #expect(any.matches, "empty collections are absent: \(any.encoded)")
        let get = try encodes(RemoteMatcher.get("/api/cart"), as: #"{"method": "GET", "path": {"equalTo": "/api/cart"}}"#)
        #expect(get.matches, "\(get.encoded)")
        let pattern = RequestPattern(path: .hasPrefix("/api/"), cookies: ["session": .present])
        let spelled = try encodes(RemoteMatcher(pattern), as: #"{"path": {"hasPrefix": "/api/"}, "cookies": {"session": {"present": true}}}"#)
        #expect(spelled.matches, "any pattern crosses: \(spelled.encoded)")
    }

    @Test func remoteResponsesEncodeAsTheAppReadsThem() throws {
        let backend = try AppBackend(connectTimeout: 0.2)
        defer { backend.close() }
        let gate = RemoteGate(id: "gate-1: checkout", location: "CheckoutTests.swift:12", backend: backend)
        let stream = RemoteLiveStream(id: "stream-2: prices", location: "PriceTests.swift:8", backend: backend)
        let profile = NetworkProfile(downloadSpeed: .kilobytesPerSecond(32), latency: 0.25, failureRate: 0.5, failures: [.offline], seed: 42)
        let text = #"[{"name": "Content-Type", "value": "text/plain; charset=utf-8"}]"#
        let cases: [(response: RemoteResponse, json: String)] = [
            (RemoteResponse(statusCode: 204), #"{"status": 204}"#),
            (
                RemoteResponse(string: "sold out", statusCode: 409, headers: ["X-Trace": "1"]),
                #"""
                {"status": 409, "headers": [{"name": "X-Trace", "value": "1"}, {"name": "Content-Type", "value": "text/plain; charset=utf-8"}],
                 "body": {"text": "sold out"}}
                """#
            ),
            (
                RemoteResponse(json: ["ok": true, "ids": [1, 2]], statusCode: 201),
                #"{"status": 201, "body": {"json": {"ok": true, "ids": [1, 2]}}}"#
            ),
            (RemoteResponse(data: Data("abc".utf8)), #"{"status": 200, "body": {"base64": "YWJj"}}"#),
            (RemoteResponse(fixture: "users.json"), #"{"status": 200, "body": {"fixture": "users.json"}}"#),
            (RemoteResponse(error: URLError(.timedOut)), #"{"status": 200, "failure": {"error": -1001}}"#),
            (
                RemoteResponse(string: "slow").requestTime(0.5, responseTime: 1.5).downloadSpeed(.kilobytesPerSecond(64)),
                #"{"status": 200, "headers": \#(text), "body": {"text": "slow"}, "requestTime": 0.5, "responseTime": 1.5, "downloadSpeed": 64}"#
            ),
            (
                RemoteResponse(statusCode: 200).networkProfile(profile),
                #"""
                {"status": 200, "transformer": {"name": "networkProfile", "value": {
                  "downloadSpeed": 32, "latency": 0.25, "jitter": 0, "failureRate": 0.5, "failures": ["offline"], "seed": "42"}}}
                """#
            ),
            (
                RemoteResponse(string: "paid").held(by: gate),
                #"{"status": 200, "headers": \#(text), "body": {"text": "paid"}, "gate": "gate-1: checkout"}"#
            ),
            (
                .stream(stream, headers: ["Content-Type": "text/event-stream"]),
                #"{"status": 200, "headers": [{"name": "Content-Type", "value": "text/event-stream"}], "body": {"stream": "stream-2: prices"}}"#
            ),
            (
                .stream(stream, headers: ["Content-Type": "application/x-ndjson"]),
                #"{"status": 200, "headers": [{"name": "Content-Type", "value": "application/x-ndjson"}], "body": {"stream": "stream-2: prices"}}"#
            ),
        ]
        for (response, json) in cases {
            let encoded = try encodes(response, as: json)
            #expect(encoded.matches, "expected \(json), encoded \(encoded.encoded)")
        }
    }

    /// The builders are StubResponse's (names and labels); what crosses is the same JSON the
    /// earlier spellings sent, which still compile and send it.
    @Test func remoteResponseBuildersMirrorStubResponseAndSendTheSameJSON() throws {
        struct Account: Encodable { let displayName: String }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let cases: [(response: RemoteResponse, json: String)] = [
            (RemoteResponse(), #"{"status": 200}"#),
            (RemoteResponse(data: Data(), statusCode: 204, headers: ["X-A": "1"]), #"{"status": 204, "headers": [{"name": "X-A", "value": "1"}]}"#),
            (
                RemoteResponse(json: Account(displayName: "Ada"), encoder: encoder),
                #"{"status": 200, "body": {"json": {"display_name": "Ada"}}}"#
            ),
            (RemoteResponse(json: ["id": 1, "name": "Ada"]), #"{"status": 200, "body": {"json": {"id": 1, "name": "Ada"}}}"#),
            // A declaration keeps repeated header names: two cookies are two lines.
            (
                RemoteResponse(headers: HeaderFields([(name: "Set-Cookie", value: "a=1"), (name: "set-cookie", value: "b=2")])),
                #"{"status": 200, "headers": [{"name": "Set-Cookie", "value": "a=1"}, {"name": "set-cookie", "value": "b=2"}]}"#
            ),
        ]
        for (response, json) in cases {
            let encoded = try encodes(response, as: json)
            #expect(encoded.matches, "expected \(json), encoded \(encoded.encoded)")
        }
        #expect(RemoteResponse(json: NSObject()).problems.contains { $0.hasPrefix("the JSON body is not JSON") })
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(RemoteResponse(json: NSObject())) }
    }

    @available(*, deprecated, message: "exercises URLStubsTesting's earlier spellings")
    @Test func earlierRemoteResponseSpellingsSendWhatTheyDid() throws {
        let backend = try AppBackend(connectTimeout: 0.2)
        defer { backend.close() }
        let stream = RemoteLiveStream(id: "stream-2: prices", location: "PriceTests.swift:8", backend: backend)
        let pairs: [(old: RemoteResponse, new: RemoteResponse)] = [
            (.status(204, headers: ["X-A": "1"]), RemoteResponse(statusCode: 204, headers: ["X-A": "1"])),
            (.text("sold out", status: 409), RemoteResponse(string: "sold out", statusCode: 409)),
            (.json(["ok": true], status: 201), RemoteResponse(json: ["ok": true], statusCode: 201)),
            (.data(Data("abc".utf8)), RemoteResponse(data: Data("abc".utf8))),
            (.fixture("users.json", status: 202), RemoteResponse(fixture: "users.json", statusCode: 202)),
            (.error(.timedOut), RemoteResponse(error: URLError(.timedOut))),
            (.stream(stream, status: 201), .stream(stream, statusCode: 201)),
        ]
        for (old, new) in pairs {
            #expect(try canonical(JSONEncoder().encode(old)) == canonical(JSONEncoder().encode(new)))
        }
        let events = try encodes(
            RemoteResponse.eventStream(stream),
            as: #"""
                {"status": 200, "headers": [{"name": "Content-Type", "value": "text/event-stream"}, {"name": "Cache-Control", "value": "no-cache"}],
                 "body": {"stream": "stream-2: prices"}}
                """#
        )
        #expect(events.matches, "\(events.encoded)")
    }

    // MARK: What the test receives

    @Test func theTestReadsRepliesWrittenByHand() throws {
        let entryJSON = #"""
            {
              "method": "POST", "url": "https://api.shop.test/api/orders?token=<scrubbed>", "body": "{\"sku\":\"tea\"}",
              "stub": "order", "statusCode": 201, "date": 700000000.5,
              "description": "POST https://api.shop.test/api/orders?token=<scrubbed> -> 201 from \"order\""
            }
            """#
        let entry = try JSONDecoder().decode(AppJournalEntry.self, from: Data(entryJSON.utf8))
        #expect(entry.method == "POST")
        #expect(entry.url == "https://api.shop.test/api/orders?token=<scrubbed>")
        #expect(entry.body == #"{"sku":"tea"}"#)
        #expect(entry.stub == "order")
        #expect(entry.statusCode == 201)
        #expect(entry.errorDescription == nil)
        #expect(entry.date == Date(timeIntervalSinceReferenceDate: 700_000_000.5), "seconds since 2001-01-01, Foundation's default")
        #expect(entry.description == #"POST https://api.shop.test/api/orders?token=<scrubbed> -> 201 from "order""#)
        let written = try encodes(entry, as: entryJSON)
        #expect(written.matches, "\(written.encoded)")

        let failed = try JSONDecoder().decode(
            AppJournalEntry.self,
            from: Data(
                #"{"method": "GET", "url": "https://a.test/", "errorDescription": "timed out", "date": 0, "description": "GET https://a.test/ -> timed out"}"#
                    .utf8))
        #expect(failed.errorDescription == "timed out")
        #expect(failed.statusCode == nil)
        #expect(failed.stub == nil)

        let reportJSON = #"""
            {"isSuccess": false, "problems": ["GET https://a.test/x matched no stub"], "description": "1 problem:\n- GET https://a.test/x matched no stub"}
            """#
        let report = try JSONDecoder().decode(AppVerificationReport.self, from: Data(reportJSON.utf8))
        #expect(!report.isSuccess)
        #expect(report.problems == ["GET https://a.test/x matched no stub"])
        #expect(report.description == "1 problem:\n- GET https://a.test/x matched no stub")

        let done = try WireMessage.decode(Data(#"{"type": "done", "id": 5, "entries": [\#(entryJSON)], "report": \#(reportJSON)}"#.utf8))
        #expect(try done.knownType() == .done)
        #expect(done.entries.map { $0.map(AppJournalEntry.init) } == [entry])
        #expect(done.report.map(AppVerificationReport.init) == report)
        let released = try WireMessage.decode(Data(#"{"type": "done", "id": 6, "released": true}"#.utf8))
        #expect(released.released == true)
        let refusal = try WireMessage.decode(Data(#"{"type": "failed", "id": 7, "message": "no such scenario"}"#.utf8))
        #expect(try refusal.knownType() == .failed)
        #expect(refusal.message == "no such scenario")
    }
}
