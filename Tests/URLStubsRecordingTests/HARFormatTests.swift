import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording

/// What HAR reading refuses and how HAR writing looks.
@Suite("HAR status codes and written layout")
struct HARFormatTests {
    private func archive(status: String) -> Data {
        Data(#"{"log":{"entries":[{"request":{"method":"GET","url":"https://a.test/"},"response":{"status":\#(status),"content":{}}}]}}"#.utf8)
    }

    @Test(arguments: [
        (#""200""#, #"got the string "200""#),
        ("200.5", "got 200.5"),
        ("-5", "got -5"),
        ("600", "got 600"),
        ("null", "a number"),
    ])
    func statusMustBeAWholeNumberInRange(status: String, detail: String) {
        #expect {
            try HAR.read(archive(status: status), source: "s.har")
        } throws: { error in
            guard let error = error as? FixtureError else { return false }
            return error.jsonPath == "$.log.entries[0].response.status" && error.expected.contains(detail)
                && error.description.hasPrefix("s.har: $.log.entries[0].response.status: ")
        }
    }

    @Test func wholeNumbersAndFailedRequestsAreRead() throws {
        #expect(try HAR.read(archive(status: "201"))[0].status == 201)
        #expect(try HAR.read(archive(status: "404.0"))[0].status == 404)
        #expect(try HAR.read(archive(status: "0"))[0].failure != nil)
    }

    @Test func writtenArchiveHasNoBlankLinesInEmptyObjectsOrArrays() throws {
        let entry = HAREntry(
            method: "GET", url: URL(string: "https://a.test/x")!, status: 200,
            responseBody: Data("ok".utf8), responseMimeType: "text/plain")
        let text = String(decoding: HAR.write([entry]), as: UTF8.self)
        #expect(!text.contains("\n\n"), "\(text)")
        #expect(text.contains(#""cache" : {}"#) || text.contains(#""cache": {}"#))
        #expect(text.contains(#""cookies" : []"#) || text.contains(#""cookies": []"#))
        #expect(try HAR.read(Data(text.utf8)).count == 1)
    }

    @Test func collapsingLeavesStringsAlone() throws {
        let value = JSONValue.object(["text": .string("{\n  \n}"), "list": .array([]), "nested": .object(["empty": .object([:])])])
        let text = String(decoding: value.serialized(pretty: true), as: UTF8.self)
        #expect(try JSONValue(data: Data(text.utf8)) == value)
        #expect(!text.contains("\n\n"))
    }
}
