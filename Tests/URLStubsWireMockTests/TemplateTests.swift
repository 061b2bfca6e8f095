import Foundation
import Testing
import URLStubs
import URLStubsWireMock

/// Response templates, against WireMock's response-templating documentation, one behaviour each.
@Suite("WireMock templates")
struct TemplateTests {
    /// Computed, not a `static let`: LeakSanitizer reports the body `Data` of a lazily
    /// initialized static as leaked at exit.
    static var request: WireMockTemplateRequest {
        WireMockTemplateRequest(
            method: "POST",
            url: URL(string: "https://my.example.com:8080/contacts/12345/addresses/99876?search=WireMock&things=1&things=2&things=3")!,
            headers: [("X-Request-Id", "abc"), ("ManyThings", "one"), ("ManyThings", "two"), ("Cookie", "JSESSIONID=s1; theme=dark")],
            body: Data(
                #"{"outer": {"inner": "Stuff"}, "names": ["a", "b"], "n": 42, "things": [{"name": "x", "price": 5}, {"name": "y", "price": 15}]}"#
                    .utf8),
            pathParameters: ["contactId": "12345"])
    }
    static let fixedNow = Date(timeIntervalSince1970: 1_623_770_177)  // 2021-06-15T15:16:17Z

    func render(_ text: String, _ request: WireMockTemplateRequest = request, environment: WireMockTemplate.Environment? = nil) throws -> String {
        try WireMockTemplate(text).render(request, environment: environment ?? .init(now: Self.fixedNow, randomSeed: 7))
    }

    // The request model: url, path (whole, a segment, a path template variable),
    // pathSegments, query (first value, an index), method, host, port, scheme, baseUrl,
    // headers (any case, an index, [awkward] names), cookies, body, bodyAsBase64.
    @Test func theRequestModel() throws {
        #expect(try render("{{request.url}}") == "/contacts/12345/addresses/99876?search=WireMock&things=1&things=2&things=3")
        #expect(try render("{{request.path}}") == "/contacts/12345/addresses/99876")
        #expect(try render("{{request.path.[0]}} {{request.path.3}}") == "contacts 99876")
        #expect(try render("{{request.path.contactId}}") == "12345")
        #expect(try render("{{request.pathSegments.[2]}}") == "addresses")
        #expect(try render("{{request.query.search}}") == "WireMock")
        #expect(try render("{{request.method}} {{request.host}} {{request.port}} {{request.scheme}}") == "POST my.example.com 8080 https")
        #expect(try render("{{request.baseUrl}}") == "https://my.example.com:8080")
        #expect(try render("{{request.headers.x-request-id}} {{request.headers.[X-Request-Id]}}") == "abc abc")
        #expect(try render("{{request.headers.ManyThings.[1]}}") == "two")
        #expect(try render("{{request.cookies.JSESSIONID}} {{request.cookies.theme}}") == "s1 dark")
        #expect(try render("{{request.body}}").hasPrefix(#"{"outer""#))
        #expect(try render("{{request.bodyAsBase64}}") == Self.request.body!.base64EncodedString())
        #expect(try render("[{{request.headers.Missing}}]") == "[]")
    }

    // WireMock 2's requestLine model: method, scheme, host, port, path, pathSegments, query, baseUrl.
    @Test func theRequestLine() throws {
        #expect(
            try render(
                "{{request.requestLine.method}} {{request.requestLine.scheme}} {{request.requestLine.host}} {{request.requestLine.port}} {{request.requestLine.path}}"
            )
                == "POST https my.example.com 8080 /contacts/12345/addresses/99876")
        #expect(try render("{{request.requestLine.pathSegments.[1]}} {{request.requestLine.query.search}}") == "12345 WireMock")
        #expect(try render("{{request.requestLine.baseUrl}}") == "https://my.example.com:8080")
    }

    // "Values that can be one or many": no index gives the first; 0, first, 1, last; [-1] as
    // WireMock's ListOrSingle counts it (size - 1 + index: the second to last).
    @Test func valuesThatCanBeOneOrMany() throws {
        #expect(try render("{{request.query.things}}") == "1")
        #expect(try render("{{request.query.things.0}} {{request.query.things.first}}") == "1 1")
        #expect(try render("{{request.query.things.1}} {{request.query.things.[-1]}} {{request.query.things.last}}") == "2 2 3")
    }

    // Transformer parameters are read as parameters.<name>.
    @Test func parameters() throws {
        let environment = WireMockTemplate.Environment(parameters: ["MyCustomParameter": .string("Parameter Value")])
        #expect(try render("{{parameters.MyCustomParameter}}", environment: environment) == "Parameter Value")
    }

    // now: ISO 8601 in UTC without fractions; offset; format (Java pattern, epoch in ms, unix
    // in s); timezone.
    @Test func now() throws {
        #expect(try render("{{now}}") == "2021-06-15T15:16:17Z")
        #expect(try render("{{now offset='3 days'}}") == "2021-06-18T15:16:17Z")
        #expect(try render("{{now offset='-24 seconds'}}") == "2021-06-15T15:15:53Z")
        #expect(try render("{{now offset='10 years' format='yyyy-MM-dd'}}") == "2031-06-15")
        #expect(try render("{{now format='epoch'}}") == "1623770177000")
        #expect(try render("{{now format='unix'}}") == "1623770177")
        #expect(try render("{{now timezone='Australia/Sydney' format='yyyy-MM-dd HH:mm:ssZ'}}") == "2021-06-16 01:16:17+1000")
        #expect(try render("{{now timezone='Australia/Sydney'}}") == "2021-06-16T01:16:17+10:00")
        #expect(try render("{{now format='EEE, dd MMM yyyy HH:mm:ss z'}}") == "Tue, 15 Jun 2021 15:16:17 UTC")
    }

    // parseDate (ISO 8601, RFC 1123, a format, unix, epoch) wrapped in date; truncateDate.
    @Test func parseDateDateAndTruncateDate() throws {
        let dated = WireMockTemplateRequest(
            url: URL(string: "https://a.test/")!,
            headers: [("MyDate", "Tue, 15 Jun 2021 15:16:17 GMT"), ("Day", "24/06/2021"), ("Unix", "1623770177")])
        #expect(try render("{{date (parseDate request.headers.MyDate)}}", dated) == "2021-06-15T15:16:17Z")
        #expect(try render("{{date (parseDate request.headers.Day format='dd/MM/yyyy') format='yyyy-MM-dd'}}", dated) == "2021-06-24")
        #expect(try render("{{date (parseDate request.headers.Unix format='unix')}}", dated) == "2021-06-15T15:16:17Z")
        #expect(try render("{{date (truncateDate (parseDate request.headers.MyDate) 'first day of month')}}", dated) == "2021-06-01T00:00:00Z")
        #expect(try render("{{date (parseDate request.headers.MyDate) offset='1 months' format='yyyy-MM'}}", dated) == "2021-07")
    }

    // jsonPath: a value, a sub-document as JSON, a default, an array; the body read as JSON.
    @Test func jsonPath() throws {
        #expect(try render("{{jsonPath request.body '$.outer.inner'}}") == "Stuff")
        #expect(try render("{{jsonPath request.body '$.outer'}}") == #"{"inner":"Stuff"}"#)
        #expect(try render("{{jsonPath request.body '$.size' default='M'}}") == "M")
        #expect(try render("{{jsonPath request.body '$.n'}}") == "42")
        #expect(try render("{{jsonPath request.body '$.things[?(@.price > 10)].name'}}") == #"["y"]"#)
        #expect(try render("{{#each (jsonPath request.body '$.names')}}{{this}};{{/each}}") == "a;b;")
        let notJSON = WireMockTemplateRequest(url: URL(string: "https://a.test/")!, body: Data("nope".utf8))
        #expect(try render("{{jsonPath request.body '$.a'}}", notJSON) == "[ERROR: nope is not valid JSON]")
    }

    // regexExtract: the first match; groups into a variable; a default; no match: an error.
    @Test func regexExtract() throws {
        let input = WireMockTemplateRequest(url: URL(string: "https://a.test/")!, body: Data("abc-DEF-123 xyz".utf8))
        #expect(try render("{{regexExtract request.body '[A-Z]+'}}", input) == "DEF")
        #expect(
            try render("{{regexExtract request.body '([a-z]+)-([A-Z]+)-([0-9]+)' 'parts'}}{{parts.0}},{{parts.1}},{{parts.2}}", input)
                == "abc,DEF,123")
        #expect(try render("{{regexExtract 'abc' '[0-9]+' default='my default value'}}") == "my default value")
        #expect(try render("{{regexExtract 'abc' '[0-9]+'}}") == "[ERROR: Nothing matched [0-9]+]")
    }

    // A backtracking expression stops at its time budget instead of hanging the render.
    @Test func regexExtractHasATimeBudget() throws {
        let start = Date()
        let text = try render("{{regexExtract '\(String(repeating: "a", count: 40))' '(a+)+c'}}")
        #expect(text.contains("time budget") || text.hasPrefix("[ERROR"))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    // randomValue: length, type, uppercase (lowercase otherwise, as WireMock's helper does);
    // a seed repeats a render.
    @Test func randomValue() throws {
        let alphanumeric = try render("{{randomValue length=33 type='ALPHANUMERIC'}}")
        #expect(alphanumeric.count == 33 && alphanumeric.allSatisfy { $0.isLowercase || $0.isNumber })
        #expect(try render("{{randomValue length=12 type='ALPHANUMERIC' uppercase=true}}").allSatisfy { $0.isUppercase || $0.isNumber })
        #expect(try render("{{randomValue length=10 type='NUMERIC'}}").allSatisfy(\.isNumber))
        #expect(try render("{{randomValue length=55 type='ALPHABETIC'}}").allSatisfy(\.isLetter))
        #expect(try render("{{randomValue length=32 type='HEXADECIMAL' uppercase=true}}").allSatisfy { "0123456789ABCDEF".contains($0) })
        #expect(UUID(uuidString: try render("{{randomValue type='UUID'}}")) != nil)
        #expect(try render("{{randomValue}}").count == 36)
        #expect(try render("{{randomValue length=20}}") == (try render("{{randomValue length=20}}")), "the same seed, the same value")
        let other = try render("{{randomValue length=20}}", environment: .init(now: Self.fixedNow, randomSeed: 8))
        #expect(other != (try render("{{randomValue length=20}}")))
    }

    // math: + - * / %, whole operands give whole results, decimals give decimals.
    @Test func math() throws {
        #expect(try render("{{math 1 '+' 2}} {{math 4 '-' 2}} {{math 2 '*' 3}} {{math 8 '/' 2}} {{math 10 '%' 3}}") == "3 2 6 4 1")
        #expect(try render("{{math '1.5' '+' 1}}") == "2.5")
        #expect(try render("{{math (jsonPath request.body '$.n') '+' 1}}") == "43")
    }

    // size: a string's length, a list's or a map's count.
    @Test func size() throws {
        #expect(try render("{{size 'abcde'}}") == "5")
        #expect(try render("{{size request.query.things}}") == "3")
        #expect(try render("{{size (jsonPath request.body '$.outer')}}") == "1")
    }

    // if/else, unless, else if; eq with indexed one-or-many values (WireMock's note: the
    // non-indexed form is the list, never equal to text).
    @Test func conditionals() throws {
        #expect(try render("{{#if request.query.search}}yes{{else}}no{{/if}}") == "yes")
        #expect(try render("{{#if request.query.missing}}yes{{else}}no{{/if}}") == "no")
        #expect(try render("{{#unless request.query.missing}}absent{{/unless}}") == "absent")
        #expect(try render("{{#eq request.query.search.[0] 'WireMock'}}same{{else}}other{{/eq}}") == "same")
        #expect(try render("{{#eq request.query.search 'WireMock'}}same{{else}}other{{/eq}}") == "other")
        #expect(try render("{{#eq request.method 'GET'}}get{{else eq request.method 'POST'}}post{{else}}other{{/eq}}") == "post")
        #expect(try render("{{eq 1 1}} {{neq 1 2}} {{gt 3 2}} {{lt 'a' 'b'}}") == "true true true true")
    }

    // each: this, @index, @key, @first/@last; else when empty.
    @Test func each() throws {
        #expect(try render("{{#each request.query.things}}{{@index}}={{this}} {{/each}}") == "0=1 1=2 2=3 ")
        #expect(try render("{{#each (jsonPath request.body '$.outer')}}{{@key}}:{{this}}{{/each}}") == "inner:Stuff")
        #expect(try render("{{#each (jsonPath request.body '$.things')}}{{name}}{{#if @last}}.{{else}},{{/if}}{{/each}}") == "x,y.")
        #expect(try render("{{#each request.query.none}}x{{else}}empty{{/each}}") == "empty")
    }

    // Comments render nothing; \{{ is a literal; ~ trims whitespace beside a tag.
    @Test func commentsEscapesAndWhitespaceControl() throws {
        #expect(try render("a{{! a comment }}b{{!-- {{not a tag}} --}}c") == "abc")
        #expect(try render(#"\{{request.method}}"#) == "{{request.method}}")
        #expect(try render("a   {{~request.method~}}   b") == "aPOSTb")
    }

    // {{{raw}}} is never escaped; {{escaped}} is escaped only with WireMock 2's escaping
    // (WireMock 3 disables it by default: wiremock issue 2779).
    @Test func htmlEscaping() throws {
        let html = WireMockTemplateRequest(url: URL(string: "https://a.test/")!, body: Data(#"<a href="x">'&'=`</a>"#.utf8))
        #expect(try render("{{request.body}}", html) == #"<a href="x">'&'=`</a>"#)
        let escaping = WireMockTemplate.Environment(escapesHTML: true)
        #expect(
            try render("{{request.body}}", html, environment: escaping) == "&lt;a href&#x3D;&quot;x&quot;&gt;&#x27;&amp;&#x27;&#x3D;&#x60;&lt;/a&gt;")
        #expect(try render("{{{request.body}}}", html, environment: escaping) == #"<a href="x">'&'=`</a>"#)
    }

    // String helpers from Handlebars.java.
    @Test func stringHelpersAndLookup() throws {
        #expect(try render("{{upper 'abc'}} {{lower 'ABC'}} {{capitalize 'hello world'}} [{{trim '  x  '}}]") == "ABC abc Hello World [x]")
        let arrays = WireMockTemplateRequest(url: URL(string: "https://a.test/stuff?ids[]=111&ids[]=222&ids[]=333")!)
        #expect(try render("{{lookup request.query 'ids[].1'}}", arrays) == "222")
    }

    // Load-time errors: a template that does not parse, or names an unknown helper, names the
    // source, the JSON path and the position.
    @Test func errorsAtLoadNameThePosition() throws {
        func error(_ text: String) -> FixtureError? {
            do {
                _ = try WireMockTemplate(text, source: "users.json", jsonPath: "$.response.body")
                return nil
            } catch { return error as? FixtureError }
        }
        let unknown = try #require(error("Hi {{nwo format='yyyy'}}"))
        #expect(unknown.source == "users.json")
        #expect(unknown.jsonPath == "$.response.body")
        #expect(unknown.description.contains("line 1, column 6"))
        #expect(unknown.description.contains("\"nwo\""))
        #expect(try #require(error("{{#if a}}x")).description.contains("never closed"))
        #expect(try #require(error("{{#if a}}x{{/each}}")).description.contains("closes the {{#if}}"))
        #expect(try #require(error("line one\n  {{request.path")).description.contains("line 2, column 3"))
        #expect(try #require(error("{{jsonPath request.body 'name'}}")).description.contains("jsonPath"))
        #expect(try #require(error("{{now format='yyyy-MM-dd qq'}}")).description.contains("'q'"))
        #expect(try #require(error("{{randomValue type='EMOJI'}}")).description.contains("EMOJI"))
    }

    // A mapping's templates are read at load, with the member's JSON path in errors.
    @Test func aMappingsTemplatesAreReadAtLoad() throws {
        let read = try mapping(
            #"{"request": {}, "response": {"body": "{{request.path.[0]}}", "headers": {"X-Id": "{{request.headers.X-Request-Id}}"}, "transformers": ["response-template"]}}"#
        )
        let templates = try WireMockResponseTemplates(read.response, source: "m.json")
        #expect(templates.body?.render(Self.request) == "contacts")
        #expect(templates.headers["X-Id"]?.first?.render(Self.request) == "abc")
        let broken = try mapping(#"{"request": {}, "response": {"headers": {"X-Id": "{{oops 1}}"}, "transformers": ["response-template"]}}"#)
        do {
            _ = try WireMockResponseTemplates(broken.response, source: "m.json", jsonPath: "$.mappings[3]")
            Issue.record("expected an error")
        } catch let error as FixtureError {
            #expect(error.jsonPath == "$.mappings[3].response.headers.X-Id")
        }
        let json = try mapping(
            #"{"request": {}, "response": {"jsonBody": {"id": "{{request.path.contactId}}"}, "transformers": ["response-template"]}}"#)
        #expect(try WireMockResponseTemplates(json.response, source: "m.json").body?.render(Self.request) == #"{"id":"12345"}"#)
    }

    // A template without tags renders as its text, without a renderer.
    @Test func aStaticTemplateIsItsText() throws {
        let template = try WireMockTemplate(#"{"static": true}"#)
        #expect(template.isStatic)
        #expect(template.render(Self.request) == #"{"static": true}"#)
        #expect(try WireMockTemplate("a{{! note }}b").isStatic)
    }
}
