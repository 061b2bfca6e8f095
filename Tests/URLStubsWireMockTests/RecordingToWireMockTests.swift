import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackTestServer
import Testing
@testable import TestSupport
import URLStubs
import URLStubsRecording
import URLStubsWireMock

// The server is a child process (TestServer): this test runs where Process exists.
#if os(macOS) || os(Linux)
/// Record once, share with Android and web: a recording of a real server, written as a
/// WireMock folder, answers the app as the recording does.
@Suite("A recording written as a WireMock folder")
struct RecordingToWireMockTests {
    @Test func aRecordingWrittenAsAWireMockFolderAnswersAsTheRecordingDoes() async throws {
        let server = TestServer.shared
        let cassette = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: cassette.deletingLastPathComponent()) }
        let paths = ["/json?n=1", "/text", "/bytes?count=300", "/echo"]
        // The echo is a POST with a JSON body: its mapping matches the body as JSON.
        func made(_ path: String, body: String = #"{"order": 7, "items": ["tea"]}"#) -> URLRequest {
            guard path == "/echo" else { return request(server.url(path).absoluteString) }
            var post = request(server.url(path).absoluteString, method: "POST")
            post.httpBody = Data(body.utf8)
            post.setValue("application/json", forHTTPHeaderField: "Content-Type")
            return post
        }
        let live = StubRegistry()
        let recorder = try live.record(to: cassette, mode: .all, environment: [:])
        var recorded: [FetchResult] = []
        for path in paths { recorded.append(await fetch(made(path), from: live)) }
        try recorder.save()
        #expect(recorded.allSatisfy { $0.statusCode == 200 }, "\(recorded.map(\.statusCode))")

        // The recording as declarations, then as a WireMock folder.
        let fromRecording = StubRegistry()
        try fromRecording.stub(HAR.declarations(contentsOf: cassette))
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try fromRecording.writeWireMockFolder(to: folder)
        let mappingFiles = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path)
        #expect(mappingFiles.count == paths.count, "\(mappingFiles)")

        // Read back as WireMock would: every request gets the recorded answer.
        let shared = StubRegistry()
        try shared.stubs(fromWireMock: folder)
        for (path, original) in zip(paths, recorded) {
            let replayed = await fetch(made(path), from: shared)
            #expect(replayed.statusCode == original.statusCode, "\(path)")
            #expect(replayed.data == original.data, "\(path): the recorded body, byte for byte")
            #expect(
                replayed.response?.value(forHTTPHeaderField: "Content-Type") == original.response?.value(forHTTPHeaderField: "Content-Type"),
                "\(path)")
        }
        // Requests the recording never saw are not answered from it: another path, another
        // value of a recorded query parameter. (A query parameter the recording did not have is
        // not refused: WireMock's `urlPath` leaves unnamed parameters free.)
        for unseenPath in ["/slow", "/json?n=2"] {
            let unseen = await fetch(request(server.url(unseenPath).absoluteString), from: shared)
            #expect(unseen.stubError != nil, "\(unseenPath): \(String(describing: unseen.error))")
        }
        // The same JSON written another way is the same body; another order is another.
        let reformatted = await fetch(made("/echo", body: #"{ "items" : ["tea"], "order" : 7 }"#), from: shared)
        #expect(reformatted.data == recorded[3].data)
        let another = await fetch(made("/echo", body: #"{"order": 8, "items": ["tea"]}"#), from: shared)
        #expect(another.stubError != nil, "\(String(describing: another.error))")
    }
}
#endif
