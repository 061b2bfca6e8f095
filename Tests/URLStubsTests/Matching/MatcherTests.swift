import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// Each matcher is checked twice: as a value (fast, every edge case) and through a real
/// session (the request the protocol sees is the one the matcher gets).
@Suite("Matchers")
struct MatcherTests {
    private func accepts(
        _ matcher: RequestMatcher, _ url: String, method: String = "GET",
        body: Data? = nil, headers: [String: String] = [:]
    ) -> Bool {
        matcher.matches(StubRequest(request(url, method: method, body: body, headers: headers)))
    }

    @Test func urlMatchers() {
        #expect(accepts(isScheme("https"), "https://a.test/x"))
        #expect(!accepts(isScheme("https"), "http://a.test/x"))
        #expect(accepts(isHost("API.example.com"), "https://api.EXAMPLE.com:8443/x"))
        #expect(!accepts(isHost("api.example.com"), "https://api.example.org/x"))
        #expect(accepts(isPath("/users"), "https://a.test/users?page=2"))
        #expect(!accepts(isPath("/users"), "https://a.test/users/1"))
        #expect(accepts(isPath("/"), "https://a.test"))
        #expect(accepts(isPath("/a b"), "https://a.test/a%20b"))
        #expect(accepts(pathStartsWith("/api/"), "https://a.test/api/v1"))
        #expect(!accepts(pathStartsWith("/api/"), "https://a.test/apix"))
        #expect(accepts(pathEndsWith(".json"), "https://a.test/data/users.json?x=1"))
        #expect(!accepts(pathEndsWith(".json"), "https://a.test/users.jsonp"))
        #expect(accepts(pathMatches("^/users/[0-9]+$"), "https://a.test/users/42"))
        #expect(!accepts(pathMatches("^/users/[0-9]+$"), "https://a.test/users/ada"))
        #expect(accepts(isExtension("PNG"), "https://a.test/img/logo.png"))
        #expect(!accepts(isExtension("png"), "https://a.test/img/logo.jpg"))
        #expect(accepts(isAbsoluteURLString("https://h.test/p?q=1&r=2"), "https://h.test/p?r=2&q=1"))
        #expect(!accepts(isAbsoluteURLString("https://h.test/p?q=1"), "https://h.test/p?q=2"))
        #expect(accepts(urlMatches("example\\.(com|org)/v[0-9]"), "https://api.example.org/v2/x"))
    }

    @Test func methodMatchers() {
        let cases: [(RequestMatcher, String)] = [
            (isMethod(.get), "GET"), (isMethod(.post), "POST"), (isMethod(.put), "PUT"),
            (isMethod(.patch), "PATCH"), (isMethod(.delete), "DELETE"), (isMethod(.head), "HEAD"),
        ]
        for (matcher, method) in cases {
            #expect(accepts(matcher, "https://a.test/", method: method), "\(matcher)")
            #expect(!accepts(matcher, "https://a.test/", method: method == "GET" ? "POST" : "GET"), "\(matcher)")
        }
        #expect(accepts(isMethod("options"), "https://a.test/", method: "OPTIONS"))
    }

    @Test func queryAndHeaderMatchers() {
        let query = containsQueryParams(["q": "swift", "page": nil])
        #expect(accepts(query, "https://a.test/s?page=3&q=swift&extra=1"))
        #expect(accepts(query, "https://a.test/s?page&q=swift"))
        #expect(!accepts(query, "https://a.test/s?q=swift"))
        #expect(!accepts(query, "https://a.test/s?q=rust&page=1"))
        #expect(accepts(hasHeaderNamed("authorization"), "https://a.test/", headers: ["Authorization": "Bearer x"]))
        #expect(!accepts(hasHeaderNamed("Authorization"), "https://a.test/"))
        #expect(accepts(hasHeaderNamed("Accept", value: "application/json"), "https://a.test/", headers: ["accept": "application/json"]))
        #expect(!accepts(hasHeaderNamed("Accept", value: "application/json"), "https://a.test/", headers: ["Accept": "text/html"]))
    }

    @Test func bodyMatchers() {
        #expect(accepts(hasBody(Data("x".utf8)), "https://a.test/", method: "POST", body: Data("x".utf8)))
        #expect(!accepts(hasBody(Data("x".utf8)), "https://a.test/", method: "POST", body: Data("y".utf8)))
        let json = hasJSONBody(["name": "abc", "tags": ["a", "b"], "n": 1, "ok": true])
        #expect(accepts(json, "https://a.test/", method: "POST", body: Data(#"{"ok":true,"n":1.0,"tags":["a","b"],"name":"abc"}"#.utf8)))
        #expect(!accepts(json, "https://a.test/", method: "POST", body: Data(#"{"ok":1,"n":1,"tags":["a","b"],"name":"abc"}"#.utf8)))
        #expect(!accepts(json, "https://a.test/", method: "POST", body: Data("not json".utf8)))
        #expect(accepts(bodyMatches("\"id\":\\s*[0-9]+"), "https://a.test/", method: "POST", body: Data(#"{"id": 12}"#.utf8)))
        let form = hasFormBody(["user": "ada lovelace", "remember": nil])
        #expect(accepts(form, "https://a.test/", method: "POST", body: Data("remember&user=ada+lovelace&x=%2F".utf8)))
        #expect(!accepts(form, "https://a.test/", method: "POST", body: Data("user=ada".utf8)))
    }

    @Test func operatorsCombine() {
        let matcher = isHost("a.test") && (isPath("/x") || isPath("/y")) && !isMethod(.delete)
        #expect(accepts(matcher, "https://a.test/x"))
        #expect(accepts(matcher, "https://a.test/y", method: "POST"))
        #expect(!accepts(matcher, "https://a.test/y", method: "DELETE"))
        #expect(!accepts(matcher, "https://b.test/x"))
        #expect(!accepts(matcher, "https://a.test/z"))
        #expect(matcher.description.contains("host is \"a.test\""))
        let failures = (isHost("a.test") && isPath("/x")).mismatches(for: StubRequest(request("https://b.test/y")))
        #expect(failures.count == 2)
    }

    @Test func customMatcherSeesTheRequest() {
        let port = RequestMatcher("port 8080") { request in request.url?.port == 8080 }
        #expect(accepts(port, "http://a.test:8080/"))
        #expect(!accepts(port, "http://a.test/"))
        #expect(port.mismatches(for: StubRequest(request("http://a.test/"))) == ["expected port 8080"])
    }

    @Test func pathPatternCapturesParameters() throws {
        let pattern = try PathPattern("/users/:id/posts/:post")
        #expect(pattern.match("/users/42/posts/7") == ["id": "42", "post": "7"])
        #expect(pattern.match("/users/42/posts") == nil)
        #expect(pattern.match("/users//posts/7") == nil)
        #expect(try PathPattern("/files/**").match("/files/a/b/c") == [:])
        #expect(try PathPattern("/a/*/c").match("/a/b/c") == [:])
        #expect(try PathPattern("/a/*/c").match("/a/b/d") == nil)
    }

    @Test(arguments: [
        ("users/:id", 1, "must start with"),
        ("/users/:", 8, "needs a name"),
        ("/a/:id/b/:id", 10, "appears twice"),
        ("/a/**/b", 4, "last segment"),
        ("/a/b*", 4, "stand alone"),
        ("/a/:i-d", 4, "letters, digits"),
    ])
    func pathPatternSyntaxErrors(pattern: String, column: Int, message: String) {
        #expect {
            try PathPattern(pattern)
        } throws: { error in
            guard let error = error as? PathPatternError else { return false }
            return error.column == column && error.message.contains(message) && "\(error)".contains(pattern)
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func pathParametersReachTheResponseClosure(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isHost("api.test") && isPath("/users/:id/posts/:post")) { request in
            StubResponse(data: Data("user \(request.pathParameters["id"] ?? "?") post \(request.pathParameters["post"] ?? "?")".utf8))
        }
        let result = await fetch("https://api.test/users/ada/posts/12", from: registry, using: api)
        #expect(result.body == "user ada post 12")
    }

    @Test func invalidRegexIsReportedNotSilent() async {
        let matcher = pathMatches("^/users/([0-9]+$")
        #expect(!matcher.problems.isEmpty)
        #expect(matcher.problems[0].contains("invalid regular expression"))
        let registry = StubRegistry()
        registry.stub(pathMatches("^/users/([0-9]+$"), name: "broken regex") { _ in StubResponse(data: Data()) }
        let result = await fetch("https://api.test/users/1", from: registry)
        guard case .invalidMatcher(let stub, let problems)? = result.stubError else {
            Issue.record("expected invalidMatcher, got \(String(describing: result.error))")
            return
        }
        #expect(stub.contains("broken regex"))
        #expect(stub.contains("MatcherTests.swift"))
        #expect(problems.first?.contains("^/users/([0-9]+$") == true)
    }

    @Test func invalidURLPatternInIsPathIsReported() async {
        let registry = StubRegistry()
        registry.stub(isPath("/users/:/x"), name: "bad pattern") { _ in StubResponse(data: Data()) }
        let result = await fetch("https://api.test/users/1/x", from: registry)
        guard case .invalidMatcher(_, let problems)? = result.stubError else {
            Issue.record("expected invalidMatcher, got \(String(describing: result.error))")
            return
        }
        #expect(problems.first?.contains("column 8") == true)
    }

    @Test(arguments: FetchAPI.allCases)
    func everyMatcherKindThroughASession(api: FetchAPI) async {
        let registry = StubRegistry()
        let cases: [(RequestMatcher, URLRequest)] = [
            (isScheme("http") && isPath("/scheme"), request("http://s.test/scheme")),
            (isHost("host.test"), request("https://host.test/any")),
            (pathStartsWith("/prefix/"), request("https://s.test/prefix/deep/path")),
            (pathEndsWith("/suffix"), request("https://s.test/deep/suffix")),
            (pathMatches("^/regex/[a-z]+$"), request("https://s.test/regex/abc")),
            (isExtension("csv"), request("https://s.test/report.csv")),
            (isAbsoluteURLString("https://s.test/abs?b=2&a=1"), request("https://s.test/abs?a=1&b=2")),
            (isMethod(.put) && isPath("/put"), request("https://s.test/put", method: "PUT", body: Data("p".utf8))),
            (isMethod(.patch) && isPath("/patch"), request("https://s.test/patch", method: "PATCH", body: Data("p".utf8))),
            (isMethod(.delete) && isPath("/delete"), request("https://s.test/delete", method: "DELETE")),
            (isMethod(.head) && isPath("/head"), request("https://s.test/head", method: "HEAD")),
            (containsQueryParams(["q": "swift"]) && isPath("/search"), request("https://s.test/search?q=swift")),
            (hasHeaderNamed("X-Token", value: "t1") && isPath("/header"), request("https://s.test/header", headers: ["X-Token": "t1"])),
            (hasBody(Data("exact".utf8)) && isPath("/body"), request("https://s.test/body", method: "POST", body: Data("exact".utf8))),
            (hasJSONBody(["a": 1]) && isPath("/json"), request("https://s.test/json", method: "POST", body: Data(#"{"a":1}"#.utf8))),
            (hasFormBody(["k": "v"]) && isPath("/form"), request("https://s.test/form", method: "POST", body: Data("k=v".utf8))),
        ]
        for (index, (matcher, _)) in cases.enumerated() {
            registry.stub(matcher, name: "case \(index)") { _ in StubResponse(data: Data("case \(index)".utf8)) }
        }
        for (index, (matcher, request)) in cases.enumerated() {
            let result = await fetch(request, from: registry, using: api)
            #expect(result.statusCode == 200, "\(matcher): \(String(describing: result.error))")
            if request.httpMethod != "HEAD" {
                #expect(result.body == "case \(index)", "\(matcher)")
            }
        }
    }
}
