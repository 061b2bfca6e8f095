import Foundation
import Testing

@testable import URLStubsServer

@Suite("The server's request parser")
struct HTTPRequestParserTests {
    /// The events `text` makes, fed in pieces of `piece` bytes (0: whole).
    private func events(_ text: String, piece: Int = 0, headerLimit: Int = 1024, bodyLimit: Int = 4096) -> [String] {
        var parser = HTTPRequestParser(maximumHeaderBytes: headerLimit, maximumBodyBytes: bodyLimit)
        let bytes = Array(text.utf8)
        var found: [String] = []
        var offset = 0
        repeat {
            let end = piece == 0 ? bytes.count : min(bytes.count, offset + piece)
            bytes[offset..<end].withUnsafeBytes { parser.append($0) }
            offset = end
            while let event = parser.next() {
                switch event {
                case .request(let request):
                    found.append("\(request.method) \(request.target) \(String(decoding: request.body, as: UTF8.self))")
                case .expectsContinue: break
                case .rejected(let rejection): found.append("\(rejection.status)")
                }
            }
        } while offset < bytes.count
        return found
    }

    @Test func pipelinedRequestsWithBodiesComeOutInOrderHoweverTheBytesAreSplit() {
        let text =
            "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
            + "POST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2;x\r\nde\r\n1\r\nf\r\n0\r\nTrailer: t\r\n\r\n"
            + "\r\nGET /c HTTP/1.0\n\n"
        let expected = ["POST /a abc", "POST /b def", "GET /c "]
        #expect(events(text) == expected)
        #expect(events(text, piece: 1) == expected)
        #expect(events(text, piece: 5) == expected)
    }

    /// A head exactly at the limit is taken whether it arrives whole or byte by byte; one byte
    /// more is refused either way.
    @Test func aHeadAtTheLimitIsTakenHoweverItArrives() {
        let base = "GET / HTTP/1.1\r\nHost: h\r\nX: "
        // The limit counts the whole head, its blank line included.
        let atLimit = base + String(repeating: "v", count: 1024 - 4 - base.utf8.count) + "\r\n\r\n"
        #expect(events(atLimit) == ["GET / "])
        #expect(events(atLimit, piece: 1) == ["GET / "])
        let overLimit = base + String(repeating: "v", count: 1025 - 4 - base.utf8.count) + "\r\n\r\n"
        #expect(events(overLimit) == ["431"])
        #expect(events(overLimit, piece: 1) == ["431"])
    }

    /// A request line longer than the limit is 414, whole or in pieces.
    @Test func aRequestLinePastTheLimitIs414HoweverItArrives() {
        let text = "GET /\(String(repeating: "p", count: 1100)) HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(events(text) == ["414"])
        #expect(events(text, piece: 1) == ["414"])
    }

    @Test func ambiguousFramingIsRefused() {
        #expect(events("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n") == ["400"])
        #expect(events("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") == ["400"])
        #expect(events("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n") == ["501"])
        #expect(events("GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n folded\r\n\r\n") == ["400"])
        #expect(events("GET / HTTP/1.1\r\n\r\n") == ["400"])
        #expect(events("GET / HTTP/2.0\r\nHost: h\r\n\r\n") == ["505"])
    }

    /// `Connection` options, however they are spaced and cased (the common case costs no
    /// Foundation call).
    @Test func connectionOptionsDecideKeepAlive() {
        func keepsAlive(_ version: Int, _ values: [String]) -> Bool {
            ParsedHTTPRequest(
                method: "GET", target: "/", minorVersion: version, headers: values.map { ("Connection", $0) }, body: Data(),
                announcedBody: false
            ).keepsAlive
        }
        #expect(keepsAlive(1, []))
        #expect(keepsAlive(1, ["keep-alive"]))
        #expect(!keepsAlive(1, [" Keep-Alive ,\tCLOSE"]))
        #expect(!keepsAlive(1, ["upgrade", "close"]))
        #expect(!keepsAlive(0, []))
        #expect(keepsAlive(0, ["KEEP-ALIVE"]))
        #expect(!keepsAlive(0, ["keep-alived"]))
    }
}
