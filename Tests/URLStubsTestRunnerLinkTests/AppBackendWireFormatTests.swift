import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsTestRunnerLink
@testable import URLStubsTesting

/// The test-runner link's JSON, pinned by text written by hand from the protocol's documented
/// fields (`WireMessage`, `WireStub`, `WireMatcher`, `WireResponse`, `WireStreamKind`,
/// `WireNetworkProfile`, `WireJournalEntry`, `WireVerificationReport`). The JSON is the link's
/// protocol (`WireMessage.protocolVersion`): a round trip through the same types still passes
/// after a field is renamed on both sides, these tests fail, so a change to the protocol is
/// deliberate and comes with a new version.
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
        // The welcome says how many declared commands follow; each is a frame of its own.
        let welcome = try WireMessage.decode(
            Data(#"{"type": "welcome", "protocolVersion": 2, "unmatchedRequests": "passthrough", "setupCount": 4}"#.utf8))
        let setup = try [
            #"""
            {
              "type": "addStub", "id": 1,
              "stub": {
                "id": "stub-1", "name": "order", "times": 2, "location": "CartTests.swift:12",
                "matcher": {
                  "method": "POST", "host": "api.shop.test", "path": "/orders/:id",
                  "url": "https://api.shop.test/orders/7?dry=1",
                  "queryItems": {"dry": null, "page": "2"}, "headers": {"Authorization": null, "Accept": "application/json"},
                  "jsonBody": {"sku": "tea", "n": 2, "gift": false, "tags": ["a", 1.5, null]},
                  "graphQLOperation": "Cart"
                },
                "response": {
                  "status": 201, "headers": {"X-Trace": "1"}, "json": {"ok": true},
                  "requestTime": 0.5, "responseTime": 1.25, "downloadSpeed": 64, "gateID": "gate-1: checkout",
                  "gateLocation": "CartTests.swift:10",
                  "networkProfile": {
                    "downloadSpeed": 32, "latency": 0.2, "jitter": 0.05, "failureRate": 0.1,
                    "failures": ["timeout", "serverError"], "seed": "18446744073709551615"
                  }
                }
              }
            }
            """#,
            #"""
            {
              "type": "addStub", "id": 2,
              "stub": {
                "id": "stub-2", "location": "PricesTests.swift:30", "matcher": {},
                "response": {
                  "status": 200, "headers": {}, "streamID": "stream-3: prices", "streamLocation": "PricesTests.swift:28",
                  "streamKind": "eventStream"
                }
              }
            }
            """#,
            #"{"type": "activateScenario", "id": 3, "scenario": "sold-out"}"#,
            #"{"type": "setOffline", "id": 4, "offline": true, "location": "CartTests.swift:14"}"#,
        ].map { try WireMessage.decode(Data($0.utf8)) }
        #expect(try welcome.knownType() == .welcome)
        #expect(welcome.protocolVersion == 2)
        #expect(welcome.unmatchedRequests == "passthrough")
        #expect(welcome.setupCount == 4)
        #expect(try setup.map { try $0.knownType() } == [.addStub, .addStub, .activateScenario, .setOffline])
        #expect(setup.map(\.id) == [1, 2, 3, 4])

        let order = try #require(setup[0].stub)
        #expect(order.id == "stub-1")
        #expect(order.name == "order")
        #expect(order.times == 2)
        #expect(order.location == "CartTests.swift:12")
        let jsonBody = JSONValue.object([
            "sku": .string("tea"), "n": .integer(2), "gift": .bool(false), "tags": .array([.string("a"), .number(1.5), .null]),
        ])
        #expect(
            order.matcher
                == WireMatcher(
                    method: "POST", host: "api.shop.test", path: "/orders/:id", url: "https://api.shop.test/orders/7?dry=1",
                    queryItems: ["dry": nil, "page": "2"], headers: ["Authorization": nil, "Accept": "application/json"],
                    jsonBody: WireJSON(jsonBody), graphQLOperation: "Cart"))
        #expect(order.matcher.problems.isEmpty, "\(order.matcher.problems)")
        var response = WireResponse(status: 201, headers: ["X-Trace": "1"])
        response.json = WireJSON(.object(["ok": .bool(true)]))
        response.requestTime = 0.5
        response.responseTime = 1.25
        response.downloadSpeed = 64
        response.gateID = "gate-1: checkout"
        response.gateLocation = "CartTests.swift:10"
        response.networkProfile = WireNetworkProfile(
            NetworkProfile(
                downloadSpeed: .kilobytesPerSecond(32), latency: 0.2, jitter: 0.05, failureRate: 0.1, failures: [.timeout, .serverError],
                seed: .max))
        #expect(order.response == response)
        #expect(try order.response.networkProfile?.profile().seed == .max, "the seed crosses as text, all 64 bits")
        #expect(order.response.problems.isEmpty, "\(order.response.problems)")

        let prices = try #require(setup[1].stub)
        #expect(prices.name == nil)
        #expect(prices.times == nil)
        #expect(prices.matcher == WireMatcher(), "an empty matcher accepts every request")
        var streamed = WireResponse(status: 200, headers: [:])
        streamed.streamID = "stream-3: prices"
        streamed.streamLocation = "PricesTests.swift:28"
        streamed.streamKind = .eventStream
        #expect(prices.response == streamed)

        #expect(setup[2].scenario == "sold-out")
        #expect(setup[3].offline == true)
        #expect(setup[3].location == "CartTests.swift:14")
    }

    @Test func theAppReadsEveryBodyAndEveryStreamKindWrittenByHand() throws {
        let bodies: [(json: String, expected: WireResponse)] = [
            (#"{"status": 200, "headers": {}, "text": "sold out"}"#, with(\.text, "sold out")),
            (#"{"status": 200, "headers": {}, "data": "YWJj"}"#, with(\.data, Data("abc".utf8))),
            (#"{"status": 200, "headers": {}, "fixture": "users.json"}"#, with(\.fixture, "users.json")),
            (#"{"status": 200, "headers": {}, "errorCode": -1001}"#, with(\.errorCode, URLError.Code.timedOut.rawValue)),
            (#"{"status": 200, "headers": {}, "streamID": "s", "streamKind": "stream"}"#, with(\.streamKind, .stream, streamID: "s")),
            (#"{"status": 200, "headers": {}, "streamID": "s", "streamKind": "eventStream"}"#, with(\.streamKind, .eventStream, streamID: "s")),
        ]
        for (json, expected) in bodies {
            let release = try WireMessage.decode(Data(#"{"type": "releaseHeld", "id": 9, "gateID": "g", "response": \#(json)}"#.utf8))
            #expect(release.response == expected, "\(json)")
        }

        let send = try WireMessage.decode(Data(#"{"type": "streamSend", "id": 10, "streamID": "s", "data": "ZXZlbnQ6IHByaWNlCgo="}"#.utf8))
        #expect(send.data == Data("event: price\n\n".utf8))
        let wait = try WireMessage.decode(
            Data(#"{"type": "waitForRequests", "id": 11, "matcher": {"method": "GET", "path": "/analytics"}, "count": 2, "timeout": 20}"#.utf8))
        #expect(wait.matcher == WireMatcher(method: "GET", path: "/analytics"))
        #expect(wait.count == 2)
        #expect(wait.timeout == 20)
        let fail = try WireMessage.decode(Data(#"{"type": "failHeld", "id": 12, "gateID": "g", "errorCode": -1005}"#.utf8))
        #expect(fail.gateID == "g")
        #expect(fail.errorCode == URLError.Code.networkConnectionLost.rawValue)
    }

    /// A response of status 200, no headers, and `value` at `field`.
    private func with<Value>(_ field: WritableKeyPath<WireResponse, Value?>, _ value: Value, streamID: String? = nil) -> WireResponse {
        var response = WireResponse(status: 200, headers: [:])
        response[keyPath: field] = value
        response.streamID = streamID
        return response
    }

    // MARK: What the test sends

    @Test func remoteMatchersEncodeAsTheAppReadsThem() throws {
        let full = RemoteMatcher(
            method: "POST", host: "api.shop.test", path: "/orders/:id", url: "https://api.shop.test/orders/7?dry=1",
            queryItems: ["dry": nil, "page": "2"], headers: ["Authorization": nil], jsonBody: ["sku": "tea", "n": 2],
            graphQLOperation: "Cart")
        let expected = #"""
            {
              "method": "POST", "host": "api.shop.test", "path": "/orders/:id", "url": "https://api.shop.test/orders/7?dry=1",
              "queryItems": {"dry": null, "page": "2"}, "headers": {"Authorization": null},
              "jsonBody": {"sku": "tea", "n": 2}, "graphQLOperation": "Cart"
            }
            """#
        let encoded = try encodes(full, as: expected)
        #expect(encoded.matches, "\(encoded.encoded)")
        let any = try encodes(RemoteMatcher.any, as: "{}")
        #expect(any.matches, "empty collections are absent: \(any.encoded)")
        let get = try encodes(RemoteMatcher.get("/api/cart"), as: #"{"method": "GET", "path": "/api/cart"}"#)
        #expect(get.matches, "\(get.encoded)")
    }

    @Test func remoteResponsesEncodeAsTheAppReadsThem() throws {
        let backend = try AppBackend(connectTimeout: 0.2)
        defer { backend.close() }
        let gate = RemoteGate(id: "gate-1: checkout", location: "CheckoutTests.swift:12", backend: backend)
        let stream = RemoteLiveStream(id: "stream-2: prices", location: "PriceTests.swift:8", backend: backend)
        let profile = NetworkProfile(downloadSpeed: .kilobytesPerSecond(32), latency: 0.25, failureRate: 0.5, failures: [.offline], seed: 42)
        let cases: [(response: RemoteResponse, json: String)] = [
            (RemoteResponse(statusCode: 204), #"{"status": 204, "headers": {}}"#),
            (
                RemoteResponse(string: "sold out", statusCode: 409, headers: ["X-Trace": "1"]),
                #"{"status": 409, "headers": {"X-Trace": "1"}, "text": "sold out"}"#
            ),
            (
                RemoteResponse(json: ["ok": true, "ids": [1, 2]], statusCode: 201),
                #"{"status": 201, "headers": {}, "json": {"ok": true, "ids": [1, 2]}}"#
            ),
            (RemoteResponse(data: Data("abc".utf8)), #"{"status": 200, "headers": {}, "data": "YWJj"}"#),
            (RemoteResponse(fixture: "users.json"), #"{"status": 200, "headers": {}, "fixture": "users.json"}"#),
            (RemoteResponse(error: URLError(.timedOut)), #"{"status": 200, "headers": {}, "errorCode": -1001}"#),
            (
                RemoteResponse(string: "slow").requestTime(0.5, responseTime: 1.5).downloadSpeed(.kilobytesPerSecond(64)),
                #"{"status": 200, "headers": {}, "text": "slow", "requestTime": 0.5, "responseTime": 1.5, "downloadSpeed": 64}"#
            ),
            (
                RemoteResponse(statusCode: 200).networkProfile(profile),
                #"""
                {"status": 200, "headers": {}, "networkProfile": {
                  "downloadSpeed": 32, "latency": 0.25, "jitter": 0, "failureRate": 0.5, "failures": ["offline"], "seed": "42"}}
                """#
            ),
            (
                RemoteResponse(string: "paid").held(by: gate),
                #"{"status": 200, "headers": {}, "text": "paid", "gateID": "gate-1: checkout", "gateLocation": "CheckoutTests.swift:12"}"#
            ),
            (
                .stream(stream, headers: ["Content-Type": "text/event-stream"]),
                #"""
                {"status": 200, "headers": {"Content-Type": "text/event-stream"}, "streamID": "stream-2: prices",
                 "streamLocation": "PriceTests.swift:8", "streamKind": "stream"}
                """#
            ),
            (
                .stream(stream, headers: ["Content-Type": "application/x-ndjson"]),
                #"""
                {"status": 200, "headers": {"Content-Type": "application/x-ndjson"}, "streamID": "stream-2: prices",
                 "streamLocation": "PriceTests.swift:8", "streamKind": "stream"}
                """#
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
            (RemoteResponse(), #"{"status": 200, "headers": {}}"#),
            (RemoteResponse(data: Data(), statusCode: 204, headers: ["X-A": "1"]), #"{"status": 204, "headers": {"X-A": "1"}}"#),
            (
                RemoteResponse(json: Account(displayName: "Ada"), encoder: encoder),
                #"{"status": 200, "headers": {}, "json": {"display_name": "Ada"}}"#
            ),
            (RemoteResponse(json: ["id": 1, "name": "Ada"]), #"{"status": 200, "headers": {}, "json": {"id": 1, "name": "Ada"}}"#),
        ]
        for (response, json) in cases {
            let encoded = try encodes(response, as: json)
            #expect(encoded.matches, "expected \(json), encoded \(encoded.encoded)")
        }
        let cookies = RemoteResponse(headers: HeaderFields([(name: "Set-Cookie", value: "a=1"), (name: "set-cookie", value: "b=2")]))
        #expect(cookies.problems.contains { $0.contains(#"carries one value per header name, and "Set-Cookie" is given more than once"#) })
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(cookies) }
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
            as:
                #"{"status": 200, "headers": {}, "streamID": "stream-2: prices", "streamLocation": "PriceTests.swift:8", "streamKind": "eventStream"}"#
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
