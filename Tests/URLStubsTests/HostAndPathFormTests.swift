import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// Hosts compare in their ASCII (`xn--`) form; paths compare percent-decoded except for `%2F`.
@Suite("Internationalized hosts and encoded slashes")
struct HostAndPathFormTests {
    /// Vectors from RFC 3492 section 7.1, and the usual German example.
    @Test(arguments: [
        ("bücher", "bcher-kva"),
        ("münchen", "mnchen-3ya"),
        (
            "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}",
            "egbpdaj6bu4bxfgehfvwxn"
        ),
        ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
        ("3年b組金八先生", "3b-ww4c5e180e575a65lsy2b"),
        ("安室奈美恵-with-super-monkeys", "-with-super-monkeys-pc58ag80a8qai00g7n9n"),
        ("почемужеонинеговорятпорусски", "b1abfaaepdrnnbgefbadotcwatmq2g4l"),
    ])
    func punycodeMatchesRFC3492(label: String, encoded: String) {
        #expect(Punycode.encode(Array(label.unicodeScalars)) == encoded)
    }

    @Test func hostsAreComparedInTheirASCIIForm() {
        #expect(asciiHost("Bücher.Example") == "xn--bcher-kva.example")
        #expect(asciiHost("xn--bcher-kva.example") == "xn--bcher-kva.example")
        // A decomposed ü (u + combining diaeresis) is composed first.
        #expect(asciiHost("bu\u{0308}cher.example") == "xn--bcher-kva.example")
        #expect(asciiHost("api.test") == "api.test")
    }

    @Test(arguments: FetchAPI.allCases)
    func unicodeAndPunycodeHostsMatchEitherSpelling(api: FetchAPI) async throws {
        for stubbedHost in ["bücher.example", "xn--bcher-kva.example", "BÜCHER.example"] {
            let registry = StubRegistry()
            registry.stub(isHost(stubbedHost) && isPath("/books")) { _ in StubResponse(data: Data("found".utf8)) }
            for requested in ["https://bücher.example/books", "https://xn--bcher-kva.example/books", "https://BÜCHER.EXAMPLE/books"] {
                let result = await fetch(URLRequest(url: try #require(URL(string: requested))), from: registry, using: api)
                #expect(result.body == "found", "isHost(\"\(stubbedHost)\") against \(requested): \(String(describing: result.error))")
            }
            let other = await fetch("https://buecher.example/books", from: registry, using: api)
            #expect(other.statusCode == nil)
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func encodedSlashIsNotAPathSeparator(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/a/b")) { _ in StubResponse(data: Data("two segments".utf8)) }
        registry.stub(isPath("/a%2Fb")) { _ in StubResponse(data: Data("one segment".utf8)) }
        registry.stub(isPath("/files/:name")) { request in StubResponse(data: Data("file \(request.pathParameters["name"] ?? "")".utf8)) }
        registry.stub(isPath("/with space")) { _ in StubResponse(data: Data("space".utf8)) }
        #expect(await fetch("https://api.test/a/b", from: registry, using: api).body == "two segments")
        #expect(await fetch("https://api.test/a%2Fb", from: registry, using: api).body == "one segment")
        #expect(await fetch("https://api.test/a%2fb", from: registry, using: api).body == "one segment")
        // One segment, so it fits `:name`; the captured value is decoded.
        #expect(await fetch("https://api.test/files/x%2Fy", from: registry, using: api).body == "file x/y")
        #expect(await fetch("https://api.test/files/x%41y", from: registry, using: api).body == "file xAy")
        #expect(await fetch("https://api.test/with%20space", from: registry, using: api).body == "space")
    }

    @Test func pathMatchersSeeTheEncodedSlash() {
        func matches(_ matcher: RequestMatcher, _ url: String) -> Bool {
            matcher.matches(StubRequest(URLRequest(url: URL(string: url)!)))
        }
        #expect(!matches(isPath("/a/b"), "https://api.test/a%2Fb"))
        #expect(matches(pathStartsWith("/a%2F"), "https://api.test/a%2fb"))
        #expect(!matches(pathStartsWith("/a/"), "https://api.test/a%2Fb"))
        #expect(matches(isPath("/ü"), "https://api.test/%C3%BC"))
        // Escapes that do not decode to UTF-8 are compared as written.
        #expect(matches(isPath("/%FF"), "https://api.test/%FF"))
    }
}
