import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// Reports quote what a request carried, but never all of a large one: each line is cut to
/// 1 KB, saying how much it left out, whatever the body, path or header.
@Suite("Reports stay small")
struct ReportSizeTests {
    private static let limit = 8 * 1024

    private static func registryWithNearMisses() -> StubRegistry {
        let registry = StubRegistry()
        registry.stub(isPath("/upload") && hasJSONBody(["kind": "photo"]), name: "photo upload") { _ in StubResponse(statusCode: 201) }
        registry.stub(isPath("/upload") && hasBody(Data("small".utf8)), name: "small upload") { _ in StubResponse(statusCode: 201) }
        return registry
    }

    @Test func aTwoMegabyteUnmatchedUploadGivesSmallReports() async throws {
        let registry = Self.registryWithNearMisses()
        let text = String(repeating: "x", count: 2_000_000)
        let body = try JSONSerialization.data(withJSONObject: ["kind": "video", "payload": text])
        let result = await fetch(request("https://api.test/upload", method: "POST", body: body), from: registry)
        let error = try #require(result.stubError)
        #expect(error.description.utf8.count < Self.limit, "\(error.description.utf8.count) bytes")
        #expect(error.description.contains("bytes more"))
        #expect(result.error?.localizedDescription.utf8.count ?? .max < Self.limit)

        let report = registry.verify()
        #expect(!report.isSuccess)
        #expect(report.description.utf8.count < Self.limit, "\(report.description.utf8.count) bytes")
        #expect(registry.journal.first?.description.utf8.count ?? .max < 2 * 1024)
        // The journal still holds the request, within its body limit.
        #expect(registry.journal.first?.request.body?.count == registry.journalBodyLimit)
    }

    @Test func aOneMegabytePathGivesSmallReports() async throws {
        let registry = Self.registryWithNearMisses()
        let path = "/" + String(repeating: "segment/", count: 131_072)
        let result = await fetch("https://api.test\(path)", from: registry)
        let error = try #require(result.stubError)
        #expect(error.description.utf8.count < Self.limit, "\(error.description.utf8.count) bytes")
        #expect(registry.verify().description.utf8.count < Self.limit)
    }

    @Test func aWaitThatTimesOutQuotesLittleOfWhatItSaw() async throws {
        let registry = StubRegistry(unmatchedRequests: .passthrough)
        registry.stub(isPath("/upload")) { _ in StubResponse(statusCode: 201) }
        let body = Data(String(repeating: "y", count: 2_000_000).utf8)
        _ = await fetch(request("https://api.test/upload", method: "POST", body: body), from: registry)
        let timeout = await #expect(throws: VerificationReport.self) {
            try await registry.waitForRequests(matching: isPath("/upload") && hasBody(Data("z".utf8)), timeout: 0.2)
        }
        let description = try #require(timeout?.description)
        #expect(description.utf8.count < Self.limit, "\(description.utf8.count) bytes")
    }

    @Test func cutLinesKeepWholeCharactersAndSayWhatIsLeft() {
        let line = String(repeating: "é", count: 600)  // 1,200 bytes
        let cut = ReportText.bounded(line)
        #expect(cut.hasPrefix(String(repeating: "é", count: 512)))
        #expect(cut.hasSuffix("… (176 bytes more)"))
        #expect(ReportText.bounded("short") == "short")
        #expect(ReportText.boundingLines("a\n" + line).split(separator: "\n").count == 2)
    }
}
