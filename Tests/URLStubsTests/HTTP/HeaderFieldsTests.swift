import Foundation
import Testing
import URLStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import TestSupport

/// The one header model: ordered fields, names without case, repeated fields kept; what the
/// app receives through URLSession from such a response.
@Suite struct HeaderFieldsTests {
    @Test func aLiteralKeepsOrderAndRepeatedNames() {
        let headers: HeaderFields = ["B": "2", "Set-Cookie": "a=1", "A": "1", "set-cookie": "b=2"]
        #expect(headers.map(\.name) == ["B", "Set-Cookie", "A", "set-cookie"])
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers["set-cookie"] == "a=1, b=2")
        #expect(headers["a"] == "1")
        #expect(headers["missing"] == nil)
        #expect(headers.contains(name: "b") && !headers.contains(name: "C"))
        #expect(headers.description == "B: 2\nSet-Cookie: a=1\nA: 1\nset-cookie: b=2")
    }

    @Test func settingANameReplacesEveryFieldOfItWhereTheFirstStood() {
        var headers: HeaderFields = ["Accept": "x", "Vary": "a", "Host": "h", "vary": "b"]
        headers["VARY"] = "c"
        #expect(headers.map(\.name) == ["Accept", "VARY", "Host"])
        #expect(headers.values(for: "vary") == ["c"])
        headers["Accept"] = nil
        #expect(headers.map(\.name) == ["VARY", "Host"])
        headers["New"] = "n"
        #expect(headers.last?.name == "New")
        headers.append(name: "new", value: "m")
        #expect(headers.values(for: "New") == ["n", "m"])
        headers.removeAll(named: "NEW")
        #expect(headers.count == 2)
    }

    @Test func equalityIgnoresTheCaseOfNamesButNotOrderOrValues() {
        let one: HeaderFields = ["Content-Type": "a", "X": "1"]
        #expect(one == ["content-type": "a", "x": "1"])
        #expect(one.hashValue == HeaderFields(["content-type": "a", "x": "1"]).hashValue)
        #expect(one != ["X": "1", "Content-Type": "a"])
        #expect(one != ["Content-Type": "A", "X": "1"])
    }

    @Test func aDictionaryGivesFieldsOrderedByName() {
        let headers = HeaderFields(["b": "2", "C": "3", "a": "1"])
        #expect(headers.map(\.name) == ["a", "b", "C"])
    }

    @Test(arguments: FetchAPI.allCases)
    func repeatedFieldsReachTheAppJoinedAndEachCookieIsStored(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/login")) { _ in
            StubResponse(
                string: "welcome",
                headers: ["Vary": "Accept", "Set-Cookie": "session=s1; Path=/", "vary": "Origin", "Set-Cookie": "theme=dark; Path=/"])
        }
        registry.stub(isPath("/me")) { request in StubResponse(string: request.value(forHTTPHeaderField: "Cookie") ?? "none") }
        let configuration = URLSessionConfiguration.ephemeral
        let login = await fetch(request("https://api.test/login"), from: registry, using: api, configuration: configuration)
        #expect(login.response?.value(forHTTPHeaderField: "Vary") == "Accept, Origin")
        let cookies = configuration.httpCookieStorage?.cookies(for: URL(string: "https://api.test/")!) ?? []
        #expect(Set(cookies.map(\.name)) == ["session", "theme"])
        let me = await fetch(request("https://api.test/me"), from: registry, using: api, configuration: configuration)
        #expect(me.body.contains("session=s1") && me.body.contains("theme=dark"))
    }

    @Test func aStubSeesTheRequestsFieldsAsHeaders() async {
        let registry = StubRegistry()
        registry.stub(isPath("/echo")) { request in
            StubResponse(string: request.headers.map { "\($0.name.lowercased())=\($0.value)" }.filter { $0.hasPrefix("x-") }.joined(separator: " "))
        }
        let result = await fetch(request("https://api.test/echo", headers: ["X-B": "2", "X-A": "1"]), from: registry)
        #expect(result.body == "x-a=1 x-b=2")
    }
}
