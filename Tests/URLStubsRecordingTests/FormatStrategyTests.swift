import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport
import URLStubsRecording

/// The seams a format module plugs into besides the report: scrubbing a body of its media type
/// and a query value, with the secrets it finds hunted elsewhere in the exchange, and telling
/// HAR replay when a live request is a recorded one. The format here is `application/x-pin`
/// (text where `pin:` precedes a secret, compared without regard to case), which no other test
/// sends, so registering it process-wide changes nothing else.
@Suite("Format strategies")
struct FormatStrategyTests {
    struct PinStrategy: ScrubbingStrategy, ReplayStrategy {
        var precedence: Int { 100 }

        static func isPin(_ mimeType: String?) -> Bool { mimeType?.hasPrefix("application/x-pin") == true }

        /// The words after `pin:` in `text`.
        static func pins(in text: String) -> [Substring] {
            text.split(separator: " ").filter { $0.hasPrefix("pin:") }.map { $0.dropFirst(4) }
        }

        static func scrubbing(_ text: String, with scrubbing: Scrubbing) -> String {
            text.split(separator: " ", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("pin:") ? "pin:" + scrubbing.placeholder : String($0) }.joined(separator: " ")
        }

        func scrub(body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Data? {
            guard Self.isPin(mimeType) else { return nil }
            return Data(Self.scrubbing(String(decoding: body, as: UTF8.self), with: scrubbing).utf8)
        }

        func secrets(inBody body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Set<String>? {
            guard Self.isPin(mimeType) else { return nil }
            return Set(Self.pins(in: String(decoding: body, as: UTF8.self)).map(String.init))
        }

        func scrub(queryValue value: String, named name: String, with scrubbing: Scrubbing) -> String? {
            name == "pin-text" ? Self.scrubbing(value, with: scrubbing) : nil
        }

        func secrets(inQueryValue value: String, named name: String, with scrubbing: Scrubbing) -> Set<String> {
            name == "pin-text" ? Set(Self.pins(in: value).map(String.init)) : []
        }

        func replayIdentity(of request: StubRequest, sent: StubRequest?, volatile: VolatileFields) -> ReplayIdentity? {
            guard Self.isPin(request.value(forHTTPHeaderField: "Content-Type")) else { return nil }
            let text = String(decoding: request.body ?? Data(), as: UTF8.self).lowercased()
            return ReplayIdentity(format: "pin", key: text, summary: "pin text \(text)", payload: text) { live in
                guard let actual = live?.payload as? String else { return nil }
                return actual == text ? [] : ["expected the pin text \"\(text)\", got \"\(actual)\""]
            }
        }
    }

    init() { RequestStrategies.register(PinStrategy()) }

    @Test func aFormatScrubsItsBodyAndQueryValueAndItsSecretsWhereverTheyAre() {
        let exchange = ExchangeParts(
            url: URL(string: "https://pin.test/login?pin-text=pin:1111%20ok")!,
            requestHeaders: ["Content-Type": "application/x-pin"], requestBody: Data("hello pin:424242".utf8),
            requestMimeType: "application/x-pin", responseBody: Data(#"{"echo": "424242", "other": "1111"}"#.utf8),
            responseMimeType: "application/json")
        let scrubbed = Scrubbing.default.scrub(exchange)
        #expect(scrubbed.requestBody.map { String(decoding: $0, as: UTF8.self) } == "hello pin:<scrubbed>")
        #expect(!scrubbed.url.absoluteString.contains("1111"), "\(scrubbed.url)")
        #expect(String(decoding: scrubbed.responseBody, as: UTF8.self) == #"{"echo": "<scrubbed>", "other": "<scrubbed>"}"#)
    }

    @Test func replayComparesAFormatsRequestsByItsIdentity() async throws {
        let recorded = HAREntry(
            method: "POST", url: URL(string: "https://pin.test/say")!,
            requestHeaders: ["Content-Type": "application/x-pin"], requestBody: Data("HELLO".utf8),
            requestMimeType: "application/x-pin", status: 200, responseBody: Data("hi".utf8), responseMimeType: "text/plain")
        let registry = StubRegistry()
        let stubs = registry.stubs(fromHAREntries: [recorded], named: "pin.har")
        #expect(stubs.first?.name?.contains("(pin text hello)") == true, "\(stubs.map(\.name))")
        func say(_ text: String) -> URLRequest {
            request("https://pin.test/say", method: "POST", body: Data(text.utf8), headers: ["Content-Type": "application/x-pin"])
        }
        #expect(await fetch(say("hello"), from: registry).body == "hi", "the format's identity ignores case")
        let miss = await fetch(say("bye"), from: registry)
        guard case .unmatchedRequest(let report)? = miss.stubError else {
            Issue.record("expected an unmatched request, got \(String(describing: miss.error))"); return
        }
        #expect(report.contains(#"expected the pin text "hello", got "bye""#), "\(report)")
    }
}
