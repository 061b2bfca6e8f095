import Foundation
import Testing
import URLStubs
import URLStubsWireMock

/// The matchers as pure functions, each against WireMock's request-matching documentation.
@Suite("WireMock matchers")
struct MatchingTests {
    typealias Pattern = WireMockMapping.StringValuePattern

    // "Deems a match if the entire attribute value equals the expected value", optionally
    // ignoring case.
    @Test func equality() {
        #expect(Pattern.equalTo("application/json", caseInsensitive: false).evaluate("application/json"))
        #expect(!Pattern.equalTo("application/json", caseInsensitive: false).evaluate("Application/JSON"))
        #expect(Pattern.equalTo("application/json", caseInsensitive: true).evaluate("Application/JSON"))
        #expect(!Pattern.equalTo("a", caseInsensitive: false).evaluate(nil))
    }

    // contains: a portion equals the value; doesNotContain: it does not.
    @Test func substrings() {
        #expect(Pattern.contains("smith").evaluate("johnsmith@example.com"))
        #expect(!Pattern.contains("jones").evaluate("johnsmith@example.com"))
        #expect(Pattern.doesNotContain("jones").evaluate("johnsmith@example.com"))
        #expect(!Pattern.doesNotContain("smith").evaluate("johnsmith@example.com"))
    }

    // "the entire attribute value matched the expected regular expression"; WireMock compiles
    // with DOTALL (AbstractRegexPattern), so "." crosses a line break.
    @Test func regularExpressions() {
        #expect(Pattern.matches("^(.*)wiremock([A-Za-z]+)$").evaluate("xwiremockAbc"))
        #expect(!Pattern.matches("[a-z]+").evaluate("abc1"), "the whole value, not a part")
        #expect(Pattern.matches("a.b").evaluate("a\nb"))
        #expect(Pattern.doesNotMatch("[a-z]+").evaluate("abc1"))
        #expect(!Pattern.doesNotMatch("[a-z]+").evaluate(nil))
    }

    // A catastrophically backtracking expression stops at its time budget and does not match.
    @Test func aBacktrackingExpressionRunsOutAndDoesNotMatch() {
        let start = Date()
        #expect(!Pattern.matches("(a+)+c").evaluate(String(repeating: "a", count: 40)))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    // absent: "the attribute specified is absent"; and/or/not combine matchers.
    @Test func absenceAndLogic() {
        #expect(Pattern.absent.evaluate(nil))
        #expect(!Pattern.absent.evaluate(""))
        #expect(Pattern.anything.evaluate(nil))
        #expect(Pattern.and([.matches("[a-z]+"), .contains("magicvalue")]).evaluate("xmagicvalue"))
        #expect(!Pattern.and([.matches("[a-z]+"), .contains("magicvalue")]).evaluate("x"))
        #expect(Pattern.or([.matches("[a-z]+"), .absent]).evaluate(nil))
        #expect(Pattern.not(.matches("[a-z]+")).evaluate("ABC"))
    }

    // Numbers: inputs that do not read as numbers never match.
    @Test func numbers() {
        #expect(Pattern.number(.greaterThanNumber, 1).evaluate("2"))
        #expect(!Pattern.number(.greaterThanNumber, 1).evaluate("1"))
        #expect(Pattern.number(.greaterThanEqualNumber, 1).evaluate("1.0"))
        #expect(Pattern.number(.equalToNumber, 5).evaluate("5.0"))
        #expect(Pattern.number(.lessThanNumber, 5).evaluate("-3"))
        #expect(Pattern.number(.lessThanEqualNumber, 5).evaluate("5"))
        #expect(!Pattern.number(.lessThanNumber, 5).evaluate("five"))
    }

    // Dates: literal expected values, zoned and local; RFC 1123 actual values.
    @Test func literalDates() {
        let after = Pattern.dateTime(.init(.after, expected: "2021-05-01T00:00:00Z"))
        #expect(after.evaluate("2021-06-24T12:40:27Z"))
        #expect(after.evaluate("Tue, 01 Jun 2021 15:16:17 GMT"))
        #expect(after.evaluate("Tuesday, 01-Jun-21 15:16:17 GMT"))
        #expect(after.evaluate("Tue Jun  1 15:16:17 2021"))
        #expect(!after.evaluate("2021-04-30T23:59:59Z"))
        #expect(!after.evaluate("not a date"))
        #expect(Pattern.dateTime(.init(.equalToDateTime, expected: "2021-06-24T13:40:27+01:00")).evaluate("2021-06-24T12:40:27Z"))
        // A local expected date compares with the wall clock of a zoned actual one.
        #expect(Pattern.dateTime(.init(.equalToDateTime, expected: "2021-06-24T13:40:27")).evaluate("2021-06-24T13:40:27+05:00"))
    }

    // Documented: an actualFormat in Java's pattern letters reads the actual value.
    @Test func actualFormat() {
        let pattern = Pattern.dateTime(.init(.equalToDateTime, expected: "2021-06-24T00:00:00", actualFormat: "dd/MM/yyyy"))
        #expect(pattern.evaluate("24/06/2021"))
        #expect(!pattern.evaluate("25/06/2021"))
        let epoch = Pattern.dateTime(.init(.equalToDateTime, expected: "2021-06-24T00:00:00Z", actualFormat: "unix"))
        #expect(epoch.evaluate("1624492800"))
    }

    // Offsets from now, and truncation (applied before the offset unless applyTruncationLast).
    @Test func offsetsAndTruncation() {
        let now = Date(timeIntervalSince1970: 1_630_454_400)  // 2021-09-01T00:00:00Z
        let soon = Pattern.dateTime(.init(.before, expected: "now +3 days"))
        #expect(soon.evaluate("2021-09-03T00:00:00Z", now: now))
        #expect(!soon.evaluate("2021-09-05T00:00:00Z", now: now))
        let viaMembers = Pattern.dateTime(.init(.before, expected: "now", expectedOffset: 2, expectedOffsetUnit: "months"))
        #expect(viaMembers.evaluate("2021-10-31T00:00:00Z", now: now))
        #expect(!viaMembers.evaluate("2021-11-02T00:00:00Z", now: now))
        // The documented example: on 1 September, "now +1 months" truncated last to the last
        // day of the month is 31 October.
        let utc = TimeZone(identifier: "UTC")!
        let lastDay = WireMockMapping.DateTimePattern(
            .equalToDateTime, expected: "now +1 months", truncateExpected: "last day of month", truncateActual: "first hour of day",
            applyTruncationLast: true)
        let expected = DateFormatterProbe.day(of: lastDay, now: now, zone: utc)
        #expect(expected.hasSuffix("-10-31"))
        // "is in March 2020": the actual value truncated to the first day of its month.
        let march = Pattern.dateTime(.init(.equalToDateTime, expected: "2020-03-01T00:00:00Z", truncateActual: "first day of month"))
        #expect(march.evaluate("2020-03-17T10:11:12Z"))
        #expect(!march.evaluate("2020-04-01T10:11:12Z"))
    }

    // JSON equality with JsonUnit placeholders, ignoreArrayOrder and ignoreExtraElements.
    @Test func jsonEquality() {
        typealias JSONPattern = WireMockMapping.JSONEqualityPattern
        let strict = JSONPattern(expected: .object(["total_results": .integer(4)]))
        #expect(strict.evaluate(#"{ "total_results": 4 }"#))
        #expect(strict.evaluate(#"{"total_results": 4.0}"#))
        #expect(!strict.evaluate(#"{"total_results": 4, "extra": 1}"#))
        #expect(!strict.evaluate("not json"))
        let loose = JSONPattern(expected: .object(["a": .array([.integer(1), .integer(2)])]), ignoreArrayOrder: true, ignoreExtraElements: true)
        #expect(loose.evaluate(#"{"a": [2, 3, 1], "b": true}"#))
        #expect(!JSONPattern(expected: .array([.integer(1), .integer(2)])).evaluate("[2, 1]"))
        #expect(JSONPattern(expected: .array([.integer(1), .integer(2)]), ignoreArrayOrder: true).evaluate("[2, 1]"))
        let placeholders = JSONPattern(
            expected: .object([
                "id": .string("${json-unit.any-string}"), "n": .string("${json-unit.any-number}"), "b": .string("${json-unit.any-boolean}"),
                "x": .string("${json-unit.ignore}"), "code": .string("${json-unit.regex}[A-Z]{3}"), "opt": .string("${json-unit.ignore-element}"),
            ]))
        #expect(placeholders.evaluate(#"{"id": "abc123", "n": 1.5, "b": false, "x": null, "code": "ABC"}"#))
        #expect(!placeholders.evaluate(#"{"id": 1, "n": 1.5, "b": false, "x": null, "code": "ABC"}"#))
        #expect(!placeholders.evaluate(#"{"id": "a", "n": 1.5, "b": false, "code": "ABC"}"#), "ignore needs the member")
        #expect(!placeholders.evaluate(#"{"id": "a", "n": 1.5, "b": false, "x": 1, "code": "ABCD"}"#))
        // Each expected item takes a different actual item, even when a placeholder could take either.
        let pairing = JSONPattern(expected: .array([.string("${json-unit.any-string}"), .string("a")]), ignoreArrayOrder: true)
        #expect(pairing.evaluate(#"["a", "b"]"#))
        #expect(!pairing.evaluate(#"["a", 1]"#))
    }

    // matchesJsonPath: presence, filters (equality, regex, size), and a sub-matcher on the
    // selected value coerced to text.
    @Test func jsonPathMatching() {
        typealias PathPattern = WireMockMapping.JSONPathPattern
        #expect(PathPattern(expression: "$.name").evaluate(#"{ "name": "Wiremock" }"#))
        #expect(!PathPattern(expression: "$.name").evaluate(#"{ "price": 15 }"#))
        let required = PathPattern(expression: "$.things[?(@.name == 'RequiredThing')]")
        #expect(required.evaluate(#"{ "things": { "name": "RequiredThing" } }"#))
        #expect(required.evaluate(#"{ "things": [ { "name": "RequiredThing" }, { "name": "Wiremock" } ] }"#))
        #expect(!required.evaluate(#"{ "things": { "name": "Wiremock" } }"#))
        let regex = PathPattern(expression: "$.things[?(@.name =~ /Required.*/i)]")
        #expect(regex.evaluate(#"{ "things": [ { "name": "required" }, { "name": "Wiremock" } ] }"#))
        #expect(!regex.evaluate(#"{ "things": [ { "name": "Thing" } ] }"#))
        let size = PathPattern(expression: "$[?(@.things.size() == 2)]")
        #expect(size.evaluate(#"{ "things": [ { "name": "RequiredThing" }, { "name": "Wiremock" } ] }"#))
        #expect(!size.evaluate(#"{ "things": [ { "name": "RequiredThing" } ] }"#))
        #expect(PathPattern(expression: "$..todoItem", valuePattern: .contains("wash")).evaluate(#"{"list": [{"todoItem": "wash car"}]}"#))
        #expect(
            PathPattern(expression: "$.outer", valuePattern: .equalToJson(.init(expected: .object(["inner": .integer(42)]))))
                .evaluate(#"{ "outer": { "inner": 42 } }"#))
        #expect(PathPattern(expression: "$.missing", valuePattern: .absent).evaluate(#"{"a": 1}"#))
        #expect(PathPattern(expression: "$.n", valuePattern: .equalTo("42", caseInsensitive: false)).evaluate(#"{"n": 42}"#))
        // A definite path to an empty array matches; a filter that selects nothing does not.
        #expect(PathPattern(expression: "$.items").evaluate(#"{"items": []}"#))
        #expect(!PathPattern(expression: "$.items[?(@.id == 999)]").evaluate(#"{"items": [{"id": 1}]}"#))
        #expect(
            PathPattern(
                expression: "$.date",
                valuePattern: .and([
                    .dateTime(.init(.before, expected: "2022-01-01T00:00:00")), .dateTime(.init(.after, expected: "2020-01-01T00:00:00")),
                ])
            )
            .evaluate(#"{"date": "2021-01-01T00:00:00"}"#))
    }

    // Multi-valued: a single pattern matches when any value does; hasExactly needs exactly the
    // values; includes needs each pattern matched.
    @Test func multipleValues() {
        typealias Multi = WireMockMapping.MultiValuePattern
        #expect(Multi.single(.equalTo("2", caseInsensitive: false)).evaluate(["1", "2"]))
        #expect(Multi.single(.absent).evaluate([]))
        #expect(!Multi.single(.equalTo("2", caseInsensitive: false)).evaluate([]))
        let exactly = Multi.hasExactly([.equalTo("1", caseInsensitive: false), .contains("2"), .doesNotContain("3")])
        #expect(exactly.evaluate(["1", "22", "4"]))
        #expect(!exactly.evaluate(["1", "22", "4", "5"]))
        #expect(!exactly.evaluate(["1", "22"]))
        let includes = Multi.includes([.equalTo("1", caseInsensitive: false), .equalTo("2", caseInsensitive: false)])
        #expect(includes.evaluate(["3", "2", "1"]))
        #expect(!includes.evaluate(["1", "3"]))
    }

    @Test func bodies() {
        #expect(WireMockMapping.BodyPattern.binaryEqualTo(Data([1, 2, 3])).evaluate(Data([1, 2, 3])))
        #expect(!WireMockMapping.BodyPattern.binaryEqualTo(Data([1, 2, 3])).evaluate(Data([1, 2])))
        #expect(WireMockMapping.BodyPattern.value(.contains("wash")).evaluate(Data("wash the car".utf8)))
    }

    // URLs: url and urlPattern see path and query; urlPath and urlPathPattern the path alone;
    // urlPathTemplate binds its variables.
    @Test func urls() {
        typealias URLMatch = WireMockMapping.URLMatch
        #expect(URLMatch.url("/your/url?and=query").evaluate("/your/url?and=query"))
        #expect(!URLMatch.url("/your/url").evaluate("/your/url?and=query"))
        #expect(URLMatch.urlPattern("/your/([a-z]*)\\?and=query").evaluate("/your/abc?and=query"))
        #expect(URLMatch.urlPath("/your/url").evaluate("/your/url?and=query"))
        #expect(URLMatch.urlPathPattern("/your/([a-z]*)").evaluate("/your/abc?x=1"))
        #expect(!URLMatch.urlPathPattern("/your/([a-z]*)").evaluate("/your/ABC"))
        let template = URLMatch.urlPathTemplate("/contacts/{contactId}/addresses/{addressId}")
        #expect(template.pathParameters(in: "/contacts/12345/addresses/99%20876?x=1") == ["contactId": "12345", "addressId": "99 876"])
        #expect(template.pathParameters(in: "/contacts/12345/addresses") == nil)
        #expect(!template.evaluate("/contacts/1/2/addresses/3"))
    }
}

/// The expected day of a date pattern, read through a matcher: the day whose midnight UTC
/// equals the expected date.
enum DateFormatterProbe {
    static func day(of pattern: WireMockMapping.DateTimePattern, now: Date, zone: TimeZone) -> String {
        for offset in -5...70 {
            let day = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + Double(offset) * 86_400)
            let formatter = ISO8601Formatter.day(day, zone: zone)
            if WireMockMapping.StringValuePattern.dateTime(pattern).evaluate(formatter + "T05:00:00Z", now: now) { return formatter }
        }
        return "none"
    }
}

enum ISO8601Formatter {
    static func day(_ date: Date, zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
