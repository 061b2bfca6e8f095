import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsScenarios
@testable import TestSupport

/// A scenario path that is no folder, and a manifest that is no regular file or no JSON, are
/// named in a `FixtureError` that says what to do (never a raw `NSError`, never a hang on a
/// FIFO).
@Suite("Scenario folders that cannot be read")
struct ScenarioFolderReadingErrorTests {
    @Test func scenarioPathsThatAreNoFolderSayWhatToDo() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("happy")
        try Data("{}".utf8).write(to: file)
        let fifo = folder.appendingPathComponent("piped")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        for (path, expected) in [
            (file, "the path is a file, not a folder: pass the scenario's folder"),
            (fifo, "the path is a FIFO, a socket or a device, not a folder"),
            (folder.appendingPathComponent("missing"), "the folder does not exist"),
        ] {
            let message = try await onItsOwnThread { () -> String in
                do {
                    _ = try Scenario.folder(path)
                    return "no error"
                } catch let error as FixtureError where error.kind == .invalidFolder {
                    return error.description
                } catch {
                    return "another error: \(error)"
                }
            }
            #expect(message.contains(path.path) && message.contains(expected), "\(message)")
        }
    }

    @Test func aScenarioManifestThatIsAFIFOOrNotJSONSaysWhy() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("happy")
        try FileManager.default.createDirectory(at: scenario.appendingPathComponent("api"), withIntermediateDirectories: true)
        try Data("{\"ok\": true".utf8).write(to: scenario.appendingPathComponent("api/GET.json"))
        #expect(mkfifo(scenario.appendingPathComponent("scenario.json").path, 0o644) == 0)
        let message = try await onItsOwnThread { () -> String in
            do {
                _ = try Scenario.folder(scenario)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message.contains("scenario.json is a FIFO (named pipe) or another special file"), "\(message)")
        #expect(
            message.contains("api/GET.json: the file is not valid JSON: expected ',' or '}' after an object member at line 1, column 12 (byte 11)"),
            "\(message)")
        #expect(!message.contains("could not be completed"), "\(message)")
        try FileManager.default.removeItem(at: scenario.appendingPathComponent("scenario.json"))
        try nestedJSON(600).write(to: scenario.appendingPathComponent("scenario.json"))
        let deep = #expect(throws: FixtureError.self) { try Scenario.folder(scenario) }
        #expect(
            String(describing: try #require(deep)).contains(
                "scenario.json: expected a JSON object, but the file is nested deeper than 512 levels at line 1"))
    }

    @Test func aDelayThatIsNoNumberOfSecondsIsNamedWhereItIs() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("slow")
        try FileManager.default.createDirectory(at: scenario.appendingPathComponent("api"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: scenario.appendingPathComponent("api/user.json"))
        try Data(#"{"delay": -1, "files": {"api/user.json": {"delay": "soon"}}}"#.utf8)
            .write(to: scenario.appendingPathComponent("scenario.json"))
        let message = try await onItsOwnThread { () -> String in
            do {
                _ = try Scenario.folder(scenario)
                return "no error"
            } catch let error as FixtureError where error.kind == .invalidFolder {
                return error.description
            } catch {
                return "another error: \(error)"
            }
        }
        #expect(message.contains(#"scenario.json: "delay" must be a number of seconds"#), "\(message)")
        #expect(message.contains(#"scenario.json: files["api/user.json"].delay must be a number of seconds"#), "\(message)")
    }
}
