import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsMultipart
@testable import TestSupport

/// Multipart uploads: the parser, and `hasMultipartPart` through a real session whichever way
/// the body is sent.
@Suite("Multipart")
struct MultipartTests {
    private static func avatarForm() -> MultipartForm {
        var form = MultipartForm()
        form.add("title", "Holiday")
        form.add("metadata", #"{"tags":["sea","sun"],"public":true}"#)
        form.add("avatar", filename: "me.png", contentType: "image/png", patternData(2_000))
        return form
    }

    // MARK: The parser

    @Test func parsesWhatClientsSend() throws {
        let form = Self.avatarForm()
        let body = try MultipartBody(form.data, contentType: form.contentType)
        #expect(body.mediaType == "multipart/form-data")
        #expect(body.parts.map(\.name) == ["title", "metadata", "avatar"])
        #expect(body.parts[2].filename == "me.png")
        #expect(body.parts[2].contentType == "image/png")
        #expect(body.parts[2].body == patternData(2_000))
        #expect(String(decoding: body.parts[0].body, as: UTF8.self) == "Holiday")
    }

    @Test func toleratesPreambleLineFeedsQuotedBoundariesAndFoldedHeaders() throws {
        let text =
            "preamble to ignore\n--a b\nContent-Disposition: form-data;\n name=\"folded\"\n\nvalue one\n--a b  \n"
            + "Content-Disposition: form-data; name=\"file\"; filename*=UTF-8''na%C3%AFve.txt\n\n\n--a b--\nepilogue"
        let body = try MultipartBody(Data(text.utf8), contentType: #"multipart/form-data; charset=utf-8; boundary="a b""#)
        #expect(body.parts.map(\.name) == ["folded", "file"])
        #expect(String(decoding: body.parts[0].body, as: UTF8.self) == "value one")
        #expect(body.parts[1].filename == "naïve.txt")
        #expect(body.parts[1].body.isEmpty)
    }

    @Test func aBoundaryLookalikeInsideAPartIsContent() throws {
        let text = "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nline\r\n--xyzzy not a delimiter\r\n--xyz--\r\n"
        let body = try MultipartBody(Data(text.utf8), contentType: "multipart/form-data; boundary=xyz")
        #expect(body.parts.count == 1)
        #expect(String(decoding: body.parts[0].body, as: UTF8.self) == "line\r\n--xyzzy not a delimiter")
    }

    @Test(arguments: [
        ("multipart/form-data", "--x\r\n\r\n--x--", "names no boundary"),
        ("multipart/form-data; boundary=x", "no delimiter here", "never contains the delimiter \"--x\""),
        (
            "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\ntruncated",
            "part 1 is not followed by a delimiter"
        ),
        ("multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"", "never end with an empty line"),
        ("multipart/form-data; boundary=x", "--x\r\nno colon here\r\n\r\nbody\r\n--x--", "expected a header line \"Name: value\""),
        ("multipart/form-data; boundary=x", "--xjunk", "expected a line break after \"--x\""),
        ("multipart/form-data; boundary=x", "--x", "without the closing \"--x--\""),
    ])
    func unreadableBodiesSayWhy(contentType: String, body: String, reason: String) {
        #expect {
            try MultipartBody(Data(body.utf8), contentType: contentType)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    // MARK: Matchers through a session

    @Test(arguments: BodyTransport.allCases)
    func partsAreMatchedHoweverTheBodyIsSent(transport: BodyTransport) async {
        let registry = StubRegistry()
        registry.stub(
            isPath("/upload") && hasMultipartPart(named: "avatar", filename: "me.png", contentType: "image/png")
                && hasMultipartPart(named: "title", text: "Holiday")
                && hasMultipartPart(named: "metadata", json: ["public": true, "tags": ["sea", "sun"]])
                && hasMultipartPart(named: "avatar", data: patternData(2_000)), name: "avatar upload"
        ) { _ in
            StubResponse(data: Data("uploaded".utf8), statusCode: 201)
        }
        let form = Self.avatarForm()
        let upload = request("https://api.test/upload", method: "POST", headers: ["Content-Type": form.contentType])
        let result = await send(upload, body: form.data, via: transport, to: registry)
        #expect(result.statusCode == 201, "\(String(describing: result.error))")
        #expect(result.body == "uploaded")

        var other = Self.avatarForm()
        other.boundary = form.boundary
        other.parts[0].body = Data("Work".utf8)
        other.parts[2].filename = "you.jpg"
        let missed = await send(upload, body: other.data, via: transport, to: registry)
        guard case .unmatchedRequest(let report)? = missed.stubError else {
            Issue.record("expected a report, got \(String(describing: missed.error))"); return
        }
        #expect(report.contains(#"multipart part "avatar": expected filename "me.png", got "you.jpg""#))
        #expect(report.contains(#"multipart part "title": expected text "Holiday", got "Work""#))
        #expect(
            report.contains(
                #"multipart/form-data parts: "title" (4 bytes), "metadata" (36 bytes), "avatar" (filename "you.jpg", image/png, 2000 bytes)"#))
        #expect(report.contains(#"hasMultipartPart(named: "avatar", filename: "you.jpg", contentType: "image/png")"#))
        #expect(!report.contains(other.boundary), "the boundary is never part of a comparison or a snippet")
    }

    @Test func aBodyThatClaimsMultipartButCannotBeReadIsExplained() async {
        let registry = StubRegistry()
        registry.stub(hasMultipartPart(named: "file"), name: "file upload") { _ in StubResponse(data: Data()) }
        let broken = request(
            "https://api.test/upload", method: "POST", body: Data("--abc\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\ncut off".utf8),
            headers: ["Content-Type": "multipart/form-data; boundary=abc"])
        let result = await fetch(broken, from: registry)
        guard case .unmatchedRequest(let report)? = result.stubError else {
            Issue.record("expected a report, got \(String(describing: result.error))"); return
        }
        #expect(report.contains("but the body claims multipart/form-data and cannot be read: part 1 is not followed by a delimiter \"--abc\""))
        #expect(report.contains("the body claims multipart/form-data but cannot be read"))

        let notMultipart = await fetch(
            request(
                "https://api.test/upload", method: "POST", body: Data("{}".utf8),
                headers: ["Content-Type": "application/json"]), from: registry)
        guard case .unmatchedRequest(let jsonReport)? = notMultipart.stubError else {
            Issue.record("expected a report, got \(String(describing: notMultipart.error))"); return
        }
        #expect(jsonReport.contains(#"got a body that is not multipart (Content-Type "application/json")"#))
    }

    @Test func partMatchingRules() {
        var form = MultipartForm()
        form.add("files[]", filename: "a.txt", contentType: "text/plain; charset=utf-8", Data("A".utf8))
        form.add("files[]", filename: "b.txt", contentType: "text/plain; charset=utf-8", Data("B".utf8))
        let upload = StubRequest(request("https://api.test/u", method: "POST", body: form.data, headers: ["Content-Type": form.contentType]))
        #expect(hasMultipartPart(named: "files[]", filename: "b.txt").matches(upload), "any part with the name may match")
        #expect(hasMultipartPart(named: "files[]", contentType: "TEXT/PLAIN").matches(upload), "type without case, extra parameters allowed")
        #expect(hasMultipartPart(named: "files[]", contentType: "text/plain; charset=UTF-8").matches(upload))
        #expect(!hasMultipartPart(named: "files[]", contentType: "text/plain; charset=latin1").matches(upload))
        #expect(!hasMultipartPart(named: "files[]", filename: "c.txt").matches(upload))
        #expect(
            hasMultipartPart(named: "missing").mismatches(for: upload) == [
                #"expected a multipart part named "missing", got parts "files[]", "files[]""#
            ])
        #expect(hasMultipartPart(named: "x", json: Date()).problems.first?.contains("not JSON") == true)
        // Several contents: the part must satisfy each.
        #expect(hasMultipartPart(named: "files[]", data: Data("B".utf8), text: "B").matches(upload))
        #expect(!hasMultipartPart(named: "files[]", data: Data("A".utf8), text: "B").matches(upload))
        #expect(
            hasMultipartPart(named: "files[]", filename: "b.txt", text: "B", json: 1).mismatches(for: upload).first?
                .contains("expected JSON 1") == true)
    }
}
