import Foundation
import Testing
import URLStubs
import URLStubsWireMock

/// The `request` object, member by member, against WireMock's request-matching documentation.
@Suite("WireMock mapping: request")
struct MappingRequestTests {
    // Documented: `method` is an HTTP method or ANY; a request with no method matches any (ANY).
    @Test func methodDefaultsToAny() throws {
        #expect(try mapping(#"{"request": {"url": "/a"}}"#).request.method == "ANY")
        #expect(try mapping(#"{"request": {"method": "POST"}}"#).request.method == "POST")
    }

    // Documented: url (path and query, equality), urlPattern (regex on path and query), urlPath
    // (path equality), urlPathPattern (regex on the path), urlPathTemplate (RFC 6570).
    @Test(arguments: [
        ("url", WireMockMapping.URLMatch.url("/your/url?and=query")),
        ("urlPattern", .urlPattern("/your/url?and=query")),
        ("urlPath", .urlPath("/your/url?and=query")),
        ("urlPathPattern", .urlPathPattern("/your/url?and=query")),
        ("urlPathTemplate", .urlPathTemplate("/your/url?and=query")),
    ])
    func eachURLMatcherIsRead(member: String, expected: WireMockMapping.URLMatch) throws {
        let text = member == "urlPathTemplate" ? "/contacts/{id}" : member.hasSuffix("Pattern") ? "/your/([a-z]*)" : "/your/url?and=query"
        let read = try mapping(#"{"request": {"\#(member)": "\#(text)"}}"#).request.url
        switch (read, expected) {
        case (.url(let a)?, .url), (.urlPattern(let a)?, .urlPattern), (.urlPath(let a)?, .urlPath), (.urlPathPattern(let a)?, .urlPathPattern),
            (.urlPathTemplate(let a)?, .urlPathTemplate):
            #expect(a == text)
        default: Issue.record("\(member) read as \(String(describing: read))")
        }
    }

    // WireMock 3 (UrlPattern.fromOneOf) uses the first of url, urlPattern, urlPath, … and
    // ignores the rest; URLStubs refuses the ambiguity instead, naming the one WireMock uses.
    @Test func twoURLMatchersAreRefused() throws {
        let error = try #require(problem(#"{"request": {"url": "/a", "urlPath": "/a"}}"#))
        #expect(error.jsonPath == "$.request.urlPath")
        #expect(error.description.contains("WireMock would use only \"url\""))
    }

    // Documented: pathParameters constrain the variables of a urlPathTemplate.
    @Test func pathParametersBelongToTheTemplate() throws {
        let read = try mapping(
            #"{"request": {"urlPathTemplate": "/v1/contacts/{contactId}/addresses/{addressId}", "pathParameters": {"contactId": {"equalTo": "12345"}}}}"#
        )
        #expect(read.request.pathParameters["contactId"] == .equalTo("12345", caseInsensitive: false))
        let stray = try #require(
            problem(#"{"request": {"urlPathTemplate": "/v1/{contactId}", "pathParameters": {"other": {"equalTo": "1"}}}}"#))
        #expect(stray.jsonPath == "$.request.pathParameters.other")
        let noTemplate = try #require(problem(#"{"request": {"urlPath": "/v1", "pathParameters": {"a": {"equalTo": "1"}}}}"#))
        #expect(noTemplate.jsonPath == "$.request.pathParameters")
    }

    // Documented: queryParameters, headers, cookies and formParameters take the value matchers.
    @Test func parametersHeadersCookiesAndFormFields() throws {
        let read = try mapping(
            #"""
            {"request": {
              "queryParameters": {"search_term": {"equalTo": "WireMock"}},
              "headers": {"Accept": {"contains": "xml"}},
              "cookies": {"session": {"matches": ".*12345.*"}},
              "formParameters": {"tool": {"equalTo": "WireMock"}}}}
            """#)
        #expect(read.request.queryParameters["search_term"] == .single(.equalTo("WireMock", caseInsensitive: false)))
        #expect(read.request.headers["Accept"] == .single(.contains("xml")))
        #expect(read.request.cookies["session"] == .matches(".*12345.*"))
        #expect(read.request.formParameters["tool"] == .single(.equalTo("WireMock", caseInsensitive: false)))
    }

    // Documented: hasExactly and includes take a list of value matchers.
    @Test func multiValueMatchers() throws {
        let read = try mapping(
            #"{"request": {"queryParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"contains": "2"}]}, "tag": {"includes": [{"equalTo": "a"}]}}}}"#
        )
        #expect(read.request.queryParameters["id"] == .hasExactly([.equalTo("1", caseInsensitive: false), .contains("2")]))
        #expect(read.request.queryParameters["tag"] == .includes([.equalTo("a", caseInsensitive: false)]))
    }

    // Documented both ways: "basicAuthCredentials" (the first example) and "basicAuth" (the
    // Basic Authentication section); WireMock writes basicAuthCredentials.
    @Test(arguments: ["basicAuth", "basicAuthCredentials"])
    func basicAuthentication(member: String) throws {
        let read = try mapping(#"{"request": {"\#(member)": {"username": "user", "password": "pass"}}}"#)
        #expect(read.request.basicAuthCredentials == .init(username: "user", password: "pass"))
        #expect(read.request.basicAuthCredentials?.authorizationHeader == "Basic dXNlcjpwYXNz")
        let written = String(decoding: try JSONEncoder().encode(read), as: UTF8.self)
        #expect(written.contains("\"basicAuthCredentials\""))
    }

    // Documented body patterns: equalTo, contains, matches, doesNotMatch, binaryEqualTo
    // (base64), equalToJson (object or string, with ignoreArrayOrder/ignoreExtraElements),
    // matchesJsonPath (a string or {expression, <matcher>}).
    @Test func bodyPatterns() throws {
        let read = try mapping(
            #"""
            {"request": {"bodyPatterns": [
              {"equalTo": "x"}, {"contains": "y"}, {"matches": "a.*"}, {"doesNotMatch": "b.*"}, {"binaryEqualTo": "AQID"},
              {"equalToJson": {"total_results": 4}},
              {"equalToJson": "{ \"total_results\": 4 }", "ignoreArrayOrder": true, "ignoreExtraElements": true},
              {"matchesJsonPath": "$.name"},
              {"matchesJsonPath": {"expression": "$..todoItem", "contains": "wash"}}]}}
            """#)
        let patterns = read.request.bodyPatterns
        #expect(patterns.count == 9)
        #expect(patterns[4] == .binaryEqualTo(Data([1, 2, 3])))
        #expect(patterns[5] == .value(.equalToJson(.init(expected: .object(["total_results": .integer(4)])))))
        #expect(
            patterns[6]
                == .value(.equalToJson(.init(expected: .object(["total_results": .integer(4)]), ignoreArrayOrder: true, ignoreExtraElements: true))))
        #expect(patterns[7] == .value(.matchesJsonPath(.init(expression: "$.name"))))
        #expect(patterns[8] == .value(.matchesJsonPath(.init(expression: "$..todoItem", valuePattern: .contains("wash")))))
    }

    // Decision: XML matchers are refused with the reason and what to write instead.
    @Test(arguments: ["equalToXml", "matchesXPath", "matchesJsonSchema"])
    func xmlAndSchemaMatchersAreRefused(name: String) throws {
        let error = try #require(problem(#"{"request": {"bodyPatterns": [{"\#(name)": "<a/>"}]}}"#))
        #expect(error.kind == .malformed)
        #expect(error.jsonPath == "$.request.bodyPatterns[0].\(name)")
        #expect(error.description.contains("WireMock"))
    }

    // Strict: a misspelt matcher names its file, JSON path, the matchers WireMock knows and
    // that WireMock would refuse the mapping too.
    @Test func anUnknownMatcherIsNamedWithItsPath() throws {
        let error = try #require(problem(#"{"request": {"headers": {"Accept": {"equalsTo": "json"}}}}"#))
        #expect(error.source == "mapping.json")
        #expect(error.jsonPath == "$.request.headers.Accept.equalsTo")
        #expect(error.description.contains("Did you mean \"equalTo\"?"))
        #expect(error.description.contains("WireMock refuses this mapping too"))
    }

    @Test func anUnknownRequestMemberIsNamed() throws {
        let error = try #require(problem(#"{"request": {"urlpath": "/a"}}"#))
        #expect(error.jsonPath == "$.request.urlpath")
        #expect(error.description.contains("Did you mean \"urlPath\"?"))
    }

    // Jackson refuses two matchers in one pattern object only by ignoring one; URLStubs refuses.
    @Test func twoMatchersInOneObjectAreRefused() throws {
        let error = try #require(problem(#"{"request": {"headers": {"A": {"equalTo": "x", "contains": "y"}}}}"#))
        #expect(error.jsonPath == "$.request.headers.A")
    }

    @Test func anInvalidRegexIsRefusedAtLoad() throws {
        let error = try #require(problem(#"{"request": {"headers": {"A": {"matches": "(unclosed"}}}}"#))
        #expect(error.jsonPath == "$.request.headers.A.matches")
    }

    @Test func anInvalidJSONPathIsRefusedAtLoad() throws {
        let error = try #require(problem(#"{"request": {"bodyPatterns": [{"matchesJsonPath": "name"}]}}"#))
        #expect(error.jsonPath == "$.request.bodyPatterns[0].matchesJsonPath")
        #expect(error.description.contains("position 1"))
    }

    // Documented: equalToDateTime/before/after with actualFormat, truncateExpected,
    // truncateActual, applyTruncationLast, expectedOffset and expectedOffsetUnit.
    @Test func dateTimeMatchersAndTheirOptions() throws {
        let read = try mapping(
            #"""
            {"request": {"headers": {
              "A": {"after": "2021-05-01T00:00:00Z"},
              "B": {"before": "now", "expectedOffset": 2, "expectedOffsetUnit": "months"},
              "C": {"equalToDateTime": "2021-06-24T00:00:00", "actualFormat": "dd/MM/yyyy"},
              "D": {"equalToDateTime": "now +1 months", "truncateExpected": "last day of month", "applyTruncationLast": true,
                    "truncateActual": "first hour of day"}}}}
            """#)
        #expect(read.request.headers["B"] == .single(.dateTime(.init(.before, expected: "now", expectedOffset: 2, expectedOffsetUnit: "months"))))
        #expect(read.request.headers["C"] == .single(.dateTime(.init(.equalToDateTime, expected: "2021-06-24T00:00:00", actualFormat: "dd/MM/yyyy"))))
        #expect(
            read.request.headers["D"]
                == .single(
                    .dateTime(
                        .init(
                            .equalToDateTime, expected: "now +1 months", truncateExpected: "last day of month", truncateActual: "first hour of day",
                            applyTruncationLast: true))))
        #expect(problem(#"{"request": {"headers": {"A": {"after": "someday"}}}}"#)?.jsonPath == "$.request.headers.A.after")
        #expect(
            problem(#"{"request": {"headers": {"A": {"after": "now", "truncateExpected": "first week"}}}}"#)?.jsonPath
                == "$.request.headers.A.truncateExpected")
    }

    // Documented: and, or, not, absent; numbers with equalToNumber and friends.
    @Test func logicalMatchersAbsenceAndNumbers() throws {
        let read = try mapping(
            #"""
            {"request": {"headers": {
              "A": {"and": [{"matches": "[a-z]+"}, {"contains": "magicvalue"}]},
              "B": {"or": [{"matches": "[a-z]+"}, {"absent": true}]},
              "C": {"not": {"matches": "[a-z]+"}},
              "D": {"greaterThanNumber": "1"},
              "E": {"lessThanEqualNumber": 5.5},
              "F": {"equalTo": "json", "caseInsensitive": true}}}}
            """#)
        #expect(read.request.headers["A"] == .single(.and([.matches("[a-z]+"), .contains("magicvalue")])))
        #expect(read.request.headers["B"] == .single(.or([.matches("[a-z]+"), .absent])))
        #expect(read.request.headers["C"] == .single(.not(.matches("[a-z]+"))))
        #expect(read.request.headers["D"] == .single(.number(.greaterThanNumber, 1)))
        #expect(read.request.headers["E"] == .single(.number(.lessThanEqualNumber, 5.5)))
        #expect(read.request.headers["F"] == .single(.equalTo("json", caseInsensitive: true)))
    }

    @Test(arguments: ["multipartPatterns", "customMatcher", "clientIp"])
    func membersWithoutAnEngineHereAreRefusedByName(member: String) throws {
        let error = try #require(problem(#"{"request": {"\#(member)": {}}}"#))
        #expect(error.jsonPath == "$.request.\(member)")
        #expect(error.description.contains("WireMock"))
    }

    @Test func hostSchemeAndPort() throws {
        let read = try mapping(#"{"request": {"scheme": "https", "host": {"equalTo": "my.example.com"}, "port": 8443}}"#)
        #expect(read.request.scheme == "https")
        #expect(read.request.host == .equalTo("my.example.com", caseInsensitive: false))
        #expect(read.request.port == 8443)
    }
}
