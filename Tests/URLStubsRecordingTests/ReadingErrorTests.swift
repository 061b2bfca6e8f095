import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport
import URLStubsRecording

/// Errors that keep their cause: the JSON reader's reason and position, a document nested too
/// deep said as such, and a cassette or scenario path that is no regular file named, with what
/// to do, in the library's own error (never a raw `NSError`, never a hang on a FIFO).
@Suite("Reading errors name their cause")
struct ReadingErrorTests {
    private static var cutHAR: Data { Data("{\"log\": {\"entries\": [\n  {\"request\" \"x\"}\n]}}".utf8) }

    @Test func theReaderSaysWhatItExpectedAndWhere() throws {
        let problem = try #require(JSONBytesReader.problem(in: Self.cutHAR))
        #expect(problem.description == "expected ':' after the member name at line 2, column 14 (byte 35)")
        let tooDeep = try #require(JSONBytesReader.problem(in: nestedJSON(600)))
        #expect(tooDeep.isTooDeep)
        #expect(tooDeep.description == "nested deeper than 512 levels at line 1, column 513 (byte 512)")
        #expect(JSONBytesReader.problem(in: nestedJSON(512)) == nil, "512 levels are read")
        #expect(JSONBytesReader.problem(in: Data("{\"a\": 1} x".utf8))?.reason == "unexpected text after the JSON value")
        #expect(JSONBytesReader.problem(in: Data("\"abc".utf8))?.reason == "a string that is never closed by a double quote")
    }

    @Test func aHARThatIsNotJSONGivesTheReasonAndPosition() throws {
        let error = #expect(throws: FixtureError.self) { try HAR.read(Self.cutHAR, source: "cut.har") }
        let message = try #require(error).description
        #expect(message == "cut.har: $: expected valid JSON: expected ':' after the member name at line 2, column 14 (byte 35)")
        #expect(!message.contains("could not be completed"))
        let deep = #expect(throws: FixtureError.self) { try HAR.read(nestedJSON(600), source: "deep.har") }
        #expect(
            try #require(deep).description
                == "deep.har: $: expected JSON nested at most 512 levels deep, but the text is nested deeper than 512 levels at line 1, column 513 (byte 512)"
        )
    }

    @Test func aJSONBodyNestedTooDeepIsReportedAsSuchNotAsNotJSON() async throws {
        let deep = nestedJSON(600)
        let reasons = hasJSONBody(["a": 1]).mismatches(for: StubRequest(request("https://api.test/x", method: "POST", body: deep)))
        #expect(reasons.contains { $0.contains("a JSON body nested deeper than 512 levels at line 1, column 513 (byte 512)") }, "\(reasons)")
        #expect(!reasons.contains { $0.contains("not JSON") }, "\(reasons)")
        let broken = hasJSONBody(containing: ["a": 1]).mismatches(
            for: StubRequest(request("https://api.test/x", method: "POST", body: Data("{\"a\": 1 \"b\": 2}".utf8))))
        #expect(
            broken.contains { $0.contains("a body that is not JSON (expected ',' or '}' after an object member at line 1, column 9 (byte 8))") },
            "\(broken)")
    }

    @Test func aCassettePathThatIsAFolderIsAFixtureErrorSayingWhatToDo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassette = folder.appendingPathComponent("fetchUser.har")
        try FileManager.default.createDirectory(at: cassette, withIntermediateDirectories: true)
        let error = #expect(throws: FixtureError.self) { try HAR.read(contentsOf: cassette) }
        let message = try #require(error).description
        #expect(message.contains(cassette.path), "\(message)")
        #expect(message.contains("is a folder, not a file: pass the path of the file inside it"), "\(message)")
        #expect(!message.contains("Code=256"))
        // A recorder replaying it, or about to record into it, says the same.
        for mode in RecordMode.allCases {
            let refused = #expect(throws: FixtureError.self) { try StubRegistry().record(to: cassette, mode: mode, environment: [:]) }
            #expect(refused?.description == message, "\(mode)")
        }
    }

    @Test func aCassettePathThatIsAFIFOIsAFixtureErrorAndNeverOpened() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("session.har")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        // On its own thread: a read that opened the FIFO would wait forever for a writer.
        let message = try await onItsOwnThread { () -> String in
            do {
                _ = try HAR.read(contentsOf: fifo)
                return "no error"
            } catch {
                return "\(type(of: error)): \(error)"
            }
        }
        #expect(message.hasPrefix("FixtureError: "), "\(message)")
        #expect(message.contains(fifo.path), "\(message)")
        #expect(message.contains("is a FIFO (named pipe) or another special file, not a regular file"), "\(message)")
    }

    @Test(.enabled(if: getuid() != 0, "root reads any file"))
    func anUnreadableCassetteIsAFixtureErrorSayingWhatToDo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassette = folder.appendingPathComponent("locked.har")
        try HAR.write([]).write(to: cassette)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: cassette.path)
        let error = #expect(throws: FixtureError.self) { try HAR.read(contentsOf: cassette) }
        let message = try #require(error).description
        #expect(message.contains(cassette.path) && message.contains("cannot be read"), "\(message)")
        #expect(message.contains("check that the file's permissions"), "\(message)")
    }

}
