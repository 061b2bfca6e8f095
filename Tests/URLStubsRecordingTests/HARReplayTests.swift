import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
@testable import TestSupport

@Suite("HAR")
struct HARTests {
    private var archive: URL { fixturesFolder.appendingPathComponent("checkout.har") }

    @Test func readsExporterVariations() throws {
        let entries = try HAR.read(contentsOf: archive)
        #expect(entries.count == 5)
        #expect(entries[0].url.absoluteString == "https://shop.test/api/cart?currency=EUR&items=2")
        #expect(entries[1].requestBody == Data(#"{"cart":"c1"}"#.utf8))
        #expect(entries[1].responseHeaders.contains { $0.name == "Location" && $0.value == "https://shop.test/api/receipt/7" })
        #expect(entries[2].responseBody == Data(base64Encoded: "iVBORw0KGgo="))
        #expect(entries[0].time == 120)
    }

    /// Chrome records a request that got no response as status 0 with `_error`; Firefox puts
    /// repeated headers in one value, a line each. Neither may stop the archive from loading.
    @Test(arguments: FetchAPI.allCases)
    func failedEntriesAndMultiLineHeadersReplay(api: FetchAPI) async throws {
        let har = #"""
            {"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "120"}, "entries": [
              {"startedDateTime": "2026-01-02T03:04:05.678Z", "time": 12,
               "request": {"method": "GET", "url": "https://shop.test/login", "headers": []},
               "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2",
                            "headers": [{"name": "set-cookie", "value": "sid=abc; Path=/\nlang=en; Path=/"},
                                        {"name": "vary", "value": "Accept\nOrigin"}],
                            "content": {"mimeType": "text/plain", "text": "welcome"}}},
              {"startedDateTime": "2026-01-02T03:04:06.000Z", "time": 3,
               "request": {"method": "GET", "url": "https://down.shop.test/status", "headers": []},
               "response": {"status": 0, "statusText": "", "httpVersion": "", "headers": [],
                            "content": {"size": 0, "mimeType": "x-unknown"}, "_error": "net::ERR_CONNECTION_REFUSED"}},
              {"startedDateTime": "2026-01-02T03:04:07.000Z", "time": 1,
               "request": {"method": "GET", "url": "https://shop.test/blocked", "headers": []},
               "response": {"status": 0, "headers": [], "content": {"mimeType": ""}}}
            ]}}
            """#
        let entries = try HAR.read(Data(har.utf8), source: "firefox.har")
        #expect(entries.map(\.failure) == [nil, "net::ERR_CONNECTION_REFUSED", "no response (status 0)"])
        #expect(try HAR.read(HAR.write(entries)).map(\.failure) == entries.map(\.failure), "failures survive a write and a read")
        let registry = StubRegistry()
        registry.stubs(fromHAREntries: entries, named: "firefox.har")
        let login = await fetch("https://shop.test/login", from: registry, using: api)
        #expect(login.body == "welcome")
        #expect(login.response?.value(forHTTPHeaderField: "Vary") == "Accept, Origin")
        #expect(entries[0].stubResponse().headers.values(for: "Set-Cookie") == ["sid=abc; Path=/", "lang=en; Path=/"])
        let down = await fetch("https://down.shop.test/status", from: registry, using: api)
        #expect(down.urlError?.code == .cannotConnectToHost, "\(String(describing: down.error))")
        #expect("\(down.error.map { $0.localizedDescription } ?? "")".contains("net::ERR_CONNECTION_REFUSED"))
        let blocked = await fetch("https://shop.test/blocked", from: registry, using: api)
        #expect(blocked.urlError?.code == .cannotConnectToHost)
    }

    @Test(arguments: FetchAPI.allCases)
    func replayMatchesMethodURLAndBody(api: FetchAPI) async throws {
        let registry = StubRegistry()
        let stubs = try registry.stubs(fromHAR: archive)
        #expect(stubs.count == 4, "two status entries share one stub")
        let cart = await fetch("https://shop.test/api/cart?items=2&currency=EUR", from: registry, using: api)
        #expect(cart.body == #"{"items":2,"total":9.5}"#, "query order does not matter")
        #expect(cart.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(cart.response?.value(forHTTPHeaderField: "Content-Encoding") == nil, "the body is already decoded")
        let checkout = await fetch(
            request("https://shop.test/api/checkout", method: "POST", body: Data(#"{ "cart": "c1" }"#.utf8)),
            from: registry, using: api)
        #expect(checkout.data == Data(base64Encoded: "iVBORw0KGgo="), "the recorded redirect is followed")
        #expect(checkout.response?.url?.absoluteString == "https://shop.test/api/receipt/7")
        let wrongBody = await fetch(
            request("https://shop.test/api/checkout", method: "POST", body: Data(#"{"cart":"c2"}"#.utf8)),
            from: registry, using: api)
        #expect(wrongBody.stubError != nil)
    }

    @Test func sharedHeadersBreakTies() async throws {
        let registry = StubRegistry()
        try registry.stubs(fromHAR: archive)
        let french = await fetch(request("https://shop.test/api/status", headers: ["Accept-Language": "fr"]), from: registry)
        #expect(french.body == "français")
        let english = await fetch(request("https://shop.test/api/status", headers: ["Accept-Language": "en"]), from: registry)
        #expect(english.body == "english")
    }

    @Test func timingsCanBeReplayed() async throws {
        let registry = StubRegistry()
        try registry.stubs(fromHAR: archive, options: HARReplayOptions(replaysTimings: true))
        let start = Date()
        _ = await fetch("https://shop.test/api/cart?currency=EUR&items=2", from: registry)
        #expect(Date().timeIntervalSince(start) >= 0.12)
    }

    @Test(arguments: [
        ("no-entries.har", "$.log.entries", "a value (it is missing)"),
        ("bad-base64.har", "$.log.entries[0].response.content.text", "base64"),
        ("invalid-json.har", "$", "valid JSON"),
        ("bad-status.har", "$.log.entries[0].response.status", "a number"),
    ])
    func invalidArchivesNameTheJSONPath(file: String, path: String, expected: String) {
        #expect {
            try HAR.read(contentsOf: fixturesFolder.appendingPathComponent("Malformed/\(file)"))
        } throws: { error in
            guard let error = error as? FixtureError else { return false }
            return error.jsonPath == path && error.expected.contains(expected) && error.description.hasPrefix("\(file): \(path)")
        }
    }

    @Test func hugeStatusNumbersAreErrorsNotCrashes() {
        // Found by the HAR fuzzer: Int(_:) trapped on a status that overflows to infinity.
        for status in ["1e999", "-1e999", "1e300", "99.5"] {
            let json = #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a.test/"},"response":{"status":\#(status),"content":{}}}]}}"#
            #expect(throws: FixtureError.self) { try HAR.read(Data(json.utf8)) }
        }
    }

    @Test func writeReadReplayRoundTripIsIdentical() async throws {
        let binary = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 * 13) })
        let entries = [
            HAREntry(
                method: "GET", url: URL(string: "https://rt.test/a?x=1")!, status: 200, statusText: "OK",
                responseHeaders: ["Content-Type": "application/json", "X-Trace": "t1"],
                responseBody: Data(#"{"a":1}"#.utf8), responseMimeType: "application/json"),
            HAREntry(
                method: "POST", url: URL(string: "https://rt.test/upload")!, requestBody: Data("payload".utf8),
                status: 201, responseHeaders: ["Content-Type": "application/octet-stream"],
                responseBody: binary, responseMimeType: "application/octet-stream"),
        ]
        let written = HAR.write(entries)
        #expect(HAR.write(try HAR.read(written)) == written, "stable output: write(read(x)) == x")
        let registry = StubRegistry()
        registry.stubs(fromHAREntries: try HAR.read(written))
        let first = await fetch("https://rt.test/a?x=1", from: registry)
        #expect(first.body == #"{"a":1}"#)
        #expect(first.statusCode == 200)
        #expect(first.response?.value(forHTTPHeaderField: "X-Trace") == "t1")
        let second = await fetch(request("https://rt.test/upload", method: "POST", body: Data("payload".utf8)), from: registry)
        #expect(second.data == binary)
        #expect(second.statusCode == 201)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#""version" : "1.2""#) || text.contains(#""version": "1.2""#))
        #expect(text.contains(#""encoding" : "base64""#) || text.contains(#""encoding": "base64""#))
    }
}
