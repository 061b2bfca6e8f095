import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SyntheticFixtures
import Testing
@testable import URLStubs
@testable import TestSupport
@testable import URLStubsRecording

/// The fixture parsers are linear in their input: a `.response` file with 100,000 headers and
/// a HAR with 10,000 entries load in about a second in a release build. The inputs are the
/// benchmark's (``SyntheticFixtures``), made in memory, never committed. Time bounds are generous (a debug build on a loaded 2-core machine,
/// where these take about 2 s); the ratio checks are what tell linear from quadratic: ten times
/// the input costs about ten times the time, where a quadratic parser would take a hundred
/// times. The fast paths that make HAR reading linear are checked against the slow ones.
@Suite("Fixture parsers scale linearly")
struct ParserScalingTests {

    /// The fastest of three runs, in seconds: the machine's noise only ever adds time.
    /// Parsing runs ``onItsOwnThread(_:)``: seconds of CPU on a cooperative thread would stall
    /// the tests running beside these.
    static func fastest(_ work: @escaping @Sendable () throws -> Void) async throws -> Double {
        try await onItsOwnThread {
            var best = Double.infinity
            for _ in 0..<3 {
                let start = Date()
                try work()
                best = min(best, Date().timeIntervalSince(start))
            }
            return best
        }
    }

    /// `work`'s result and how long it took, ``onItsOwnThread(_:)``.
    static func timed<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> (Value, seconds: Double) {
        try await onItsOwnThread {
            let start = Date()
            let value = try work()
            return (value, Date().timeIntervalSince(start))
        }
    }

    @Test func responseFileWith100kHeadersLoadsAndServes() async throws {
        let file = SyntheticFixtures.responseFile(headers: 100_000)
        let (response, seconds) = try await Self.timed { try StubResponse(httpMessageData: file, source: "big.response") }
        // About 2 s in a debug build on an idle machine; the suite runs beside it.
        #expect(seconds < 20, "100,000 headers took \(seconds) s to parse")
        // Every field is kept, repeated ones too: the 100,000 written plus Content-Type and
        // Content-Length, under 90,004 names (90,000 distinct, X-Repeated, Set-Cookie and the two).
        #expect(response.headers.count == 100_002)
        #expect(Set(response.headers.map { $0.name.lowercased() }).count == 90_004)
        #expect(response.headers.values(for: "Set-Cookie").count == 1000)
        #expect(response.headers["x-repeated"]?.hasPrefix("r10, r20, r30") == true)

        // Served without its 1,000 cookies: storing those is corelibs' `HTTPCookieStorage`
        // work (tens of seconds in a debug build beside the suite), not the header path.
        let served = {
            var copy = response
            copy.headers.removeAll(named: "Set-Cookie")
            return copy
        }()
        let registry = StubRegistry()
        registry.stub(isPath("/big")) { _ in served }
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let (result, serveSeconds) = await timedExchange(request("https://a.test/big"), session: session)
        #expect(result.body == "hello")
        #expect(result.response?.value(forHTTPHeaderField: "X-Header-99999") == "value 99999")
        #expect(serveSeconds < 30, "serving 100,000 headers took \(serveSeconds) s")
    }

    @Test func responseParsingTimeGrowsLinearly() async throws {
        let small = SyntheticFixtures.responseFile(headers: 10_000), large = SyntheticFixtures.responseFile(headers: 100_000)
        let smallSeconds = try await Self.fastest { _ = try StubResponse(httpMessageData: small) }
        let largeSeconds = try await Self.fastest { _ = try StubResponse(httpMessageData: large) }
        // Linear: about 10 times; quadratic: about 100 times.
        #expect(largeSeconds / smallSeconds < 30, "10k headers: \(smallSeconds) s, 100k: \(largeSeconds) s")
    }

    @Test func oneHeaderRepeated100kTimesIsKeptAndJoinedInOnePass() async throws {
        var text = "HTTP/1.1 204 No Content\n"
        for index in 0..<100_000 { text += "Vary: v\(index)\n" }
        let message = Data((text + "\n").utf8)
        let (response, seconds) = try await Self.timed { try StubResponse(httpMessageData: message) }
        #expect(seconds < 20, "took \(seconds) s")
        // Each field is kept (HeaderFields keeps repeated fields); reading the name joins them,
        // and so does the head the app receives, each in one pass.
        #expect(response.headers.count == 100_000)
        let (joined, joinSeconds) = try await Self.timed { response.headers["Vary"] }
        #expect(joinSeconds < 20, "joining took \(joinSeconds) s")
        #expect(joined?.hasSuffix("v99998, v99999") == true)
        let (head, headSeconds) = try await Self.timed { response.head(for: URL(string: "https://a.test/")!, bodyLength: 0) }
        #expect(headSeconds < 20, "the head took \(headSeconds) s")
        #expect(head?.value(forHTTPHeaderField: "Vary")?.hasSuffix("v99998, v99999") == true)
    }

    @Test func harWith10kEntriesLoads() async throws {
        let data = SyntheticFixtures.archive(entries: 10_000)
        let (entries, seconds) = try await Self.timed { try HAR.read(data, source: "big.har") }
        #expect(seconds < 20, "10,000 entries took \(seconds) s")
        #expect(entries.count == 10_000)
        #expect(entries[9_999].url.absoluteString == "https://api.example.com/items/9999?page=3")
        #expect(entries[10].responseBody == Data([0, 1, 2, 3]))
        #expect(entries[11].startedDateTime == HAR.parseDate("2024-05-01T10:00:00.011Z"))
        #expect(entries[11].stubResponse().headers["X-Request-Id"] == "req-11")
    }

    @Test func harReadingTimeGrowsLinearly() async throws {
        let small = SyntheticFixtures.archive(entries: 1_000), large = SyntheticFixtures.archive(entries: 10_000)
        let smallSeconds = try await Self.fastest { _ = try HAR.read(small) }
        let largeSeconds = try await Self.fastest { _ = try HAR.read(large) }
        #expect(largeSeconds / smallSeconds < 30, "1k entries: \(smallSeconds) s, 10k: \(largeSeconds) s")
    }

    @Test(arguments: [
        "2024-05-01T10:00:00.123Z", "2024-05-01T10:00:00Z", "2024-02-29T23:59:59.999+02:00", "1999-12-31T00:00:00.000-05:30",
        "1970-01-01T00:00:00.001Z", "2100-03-01T12:34:56Z", "0001-01-01T00:00:00Z",
    ])
    func directlyReadDatesEqualTheFormatters(text: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        let expected = try #require(formatter.date(from: text))
        #expect(HAR.parseDate(text) == expected)
        // Before the Gregorian calendar (1582) the formatter counts Julian days: its turn.
        #expect((HAR.DateReader.commonDate(text) == nil) == text.hasPrefix("0001"))
    }

    @Test func otherDateShapesGoToTheFormatter() {
        #expect(HAR.DateReader.commonDate("2024-05-01T10:00:00.1234Z") == nil)
        #expect(HAR.DateReader.commonDate("2024-02-30T10:00:00Z") == nil)
        #expect(HAR.parseDate("2024-05-01T10:00:00.1234Z") != nil)
        #expect(HAR.parseDate("not a date") == nil)
    }

    @Test(arguments: [
        #"{"a":[1,-2,3.5,1e3,-0,-9223372036854775808,true,false,null],"b":{"c":"\u00fc\ud83d\ude00\n\"","":{}}}"#,
        #"  [ ]  "#, #""plain""#, "42", #"{"dup":1,"dup":2}"#, #"["ü€😀"]"#,
    ])
    func fastJSONReaderAgreesWithJSONSerialization(text: String) throws {
        let data = Data(text.utf8)
        let fast = try #require(JSONBytesReader.value(from: data))
        #expect(fast == (try JSONValue(any: JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))))
    }

    @Test(arguments: [
        #"{"a":1,}"#, "[01]", #"["\ud800"]"#, #"{"a" 1}"#, "[1e999]", "\u{FEFF}[]", "[12345678901234567890]",
        "[" + String(repeating: "7", count: 112) + "]", #"["tab\x"]"#, String(repeating: "[", count: 600),
    ])
    func fastJSONReaderLeavesTheRestToJSONSerialization(text: String) {
        #expect(JSONBytesReader.value(from: Data(text.utf8)) == nil)
    }

    /// Found by fuzzing the two readers against each other: JSONSerialization reads some long
    /// fractions through NSDecimalNumber, an ulp or two off; the fast reader keeps the nearest
    /// Double.
    @Test func longFractionsAreTheNearestDouble() throws {
        let fast = try #require(JSONBytesReader.value(from: Data("[0.8919999999998254, 8888888888.8884888888]".utf8)))
        #expect(fast == .array([.number(0.8919999999998254), .number(8888888888.8884888888)]))
        let slow = try JSONValue(data: Data("[0.8919999999998254]".utf8))
        guard case .array(let values) = slow, case .number(let value)? = values.first else { return }
        #expect(abs(value - 0.8919999999998254) < 1e-15)
    }

    @Test func invalidJSONGetsTheReadersReasonAndPosition() {
        #expect {
            try HAR.read(Data(#"{"log": [1,}"#.utf8), source: "bad.har")
        } throws: { error in
            (error as? FixtureError)?.jsonPath == "$"
                && (error as? FixtureError)?.expected == "valid JSON: expected a value at line 1, column 12 (byte 11)"
        }
    }
}
