import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import URLStubsRecording
import LoopbackTestServer
@testable import TestSupport

/// A recorded entry is scrubbed part by part (URL, headers, cookies, bodies), then every copy of
/// a secret found is hunted in the rest of the entry, and a changed body's `Content-Length`
/// follows: the exact entry below is what the policy has always written.
@Suite("Scrubbing a recorded entry")
struct HAREntryScrubbingTests {
    // Computed, not a `static let`: LeakSanitizer reports the Data a static HAREntry holds as
    // leaked at exit.
    private static var secretsEverywhere: HAREntry {
        HAREntry(
            startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 12, method: "POST",
            url: URL(string: "https://ada:pw-4242@api.test/login?token=tok-123456&page=2&key=k1")!,
            requestHeaders: [
                "Authorization": "Bearer abcdef123456", "Cookie": "sid=sess-9999; lang=en", "Content-Type": "application/json",
                "Content-Length": "71", "X-Trace": "dG9rLTEyMzQ1Ng==",
            ],
            requestBody: Data(#"{"user":"ada","password":"hunter22","nested":{"token":"tok-123456","n":7}}"#.utf8),
            requestMimeType: "application/json", status: 200, statusText: "OK",
            responseHeaders: [
                "Set-Cookie": "sid=sess-9999; Path=/; HttpOnly", "Set-Cookie": "theme=dark; Path=/", "Content-Type": "application/json",
                "Content-Length": "99",
            ],
            responseBody: Data(
                #"{"access_token":"at-777777","expiresIn":3600,"echo":"Bearer abcdef123456","pin":"k1","note":"hunter22 seen"}"#.utf8),
            responseMimeType: "application/json")
    }

    @Test func aRecordedEntryIsScrubbedExactlyAsItAlwaysWas() {
        let expected = HAREntry(
            startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 12, method: "POST",
            url: URL(string: "https://%3Cscrubbed%3E:%3Cscrubbed%3E@api.test/login?token=%3Cscrubbed%3E&page=2&key=%3Cscrubbed%3E")!,
            requestHeaders: [
                "Authorization": "<scrubbed>", "Cookie": "sid=<scrubbed>; lang=<scrubbed>", "Content-Type": "application/json",
                "Content-Length": "76", "X-Trace": "<scrubbed>",
            ],
            requestBody: Data(#"{"nested":{"n":7,"token":"<scrubbed>"},"password":"<scrubbed>","user":"ada"}"#.utf8),
            requestMimeType: "application/json", status: 200, statusText: "OK",
            responseHeaders: [
                "Set-Cookie": "sid=<scrubbed>; Path=/; HttpOnly", "Set-Cookie": "theme=<scrubbed>; Path=/",
                "Content-Type": "application/json", "Content-Length": "110",
            ],
            responseBody: Data(
                #"{"access_token":"<scrubbed>","echo":"<scrubbed>","expiresIn":3600,"note":"<scrubbed> seen","pin":"<scrubbed>"}"#.utf8),
            responseMimeType: "application/json")
        let scrubbed = Scrubbing.default.scrub(Self.secretsEverywhere)
        #expect(scrubbed.url == expected.url)
        #expect(Array(scrubbed.requestHeaders).map { "\($0.name): \($0.value)" } == Array(expected.requestHeaders).map { "\($0.name): \($0.value)" })
        #expect(scrubbed.requestBody == expected.requestBody, "\(String(decoding: scrubbed.requestBody ?? Data(), as: UTF8.self))")
        #expect(
            Array(scrubbed.responseHeaders).map { "\($0.name): \($0.value)" } == Array(expected.responseHeaders).map { "\($0.name): \($0.value)" })
        #expect(scrubbed.responseBody == expected.responseBody, "\(String(decoding: scrubbed.responseBody, as: UTF8.self))")
        #expect(scrubbed == expected)
        #expect(Scrubbing.nothing.scrub(Self.secretsEverywhere) == Self.secretsEverywhere, "a policy that scrubs nothing changes nothing")
    }

    // The server is a child process (TestServer): these run where Process exists.
    #if os(macOS) || os(Linux)
    /// Through a real session: the cassette a registry records holds no secret header, query
    /// value or JSON member, and the server's echo of them is scrubbed too.
    @Test func aRegistryScrubsWhatItRecords() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let registry = StubRegistry()
        let recorder = try registry.record(to: file, mode: .all, environment: [:])
        var components = URLComponents(url: TestServer.shared.url("/echo"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "token", value: "query-secret-1"), URLQueryItem(name: "page", value: "2")]
        let sent = request(
            components.url!.absoluteString, method: "POST", body: Data(#"{"user":"ada","password":"json-secret-2"}"#.utf8),
            headers: ["Content-Type": "application/json", "Authorization": "Bearer header-secret-3"])
        #expect(await fetch(sent, from: registry).statusCode == 200)
        try recorder.save()
        let entries = try HAR.read(contentsOf: file)
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(entry.requestHeaders.values(for: "Authorization") == ["<scrubbed>"])
        let query = URLComponents(url: entry.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.map(\.name) == ["token", "page"])
        #expect(query.map(\.value) == ["<scrubbed>", "2"])
        #expect(
            entry.requestBody.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: String] } == [
                "user": "ada", "password": "<scrubbed>",
            ])
        let cassette = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        for secret in ["query-secret-1", "json-secret-2", "header-secret-3"] {
            #expect(!cassette.contains(secret), "the cassette holds \(secret)")
        }
        #expect(cassette.contains("ada"), "what is not secret stays")
    }
    #endif
}
