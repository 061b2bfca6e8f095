import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// A fixture path that is no readable regular file (a folder, a FIFO, a file this process may
/// not read) is a `FixtureError` of kind `.unreadable` naming the path and the reason, from
/// every `StubResponse(fixture:)` spelling and every extension, promptly (a FIFO is never
/// opened); a missing one is `.notFound`. The readers behind the 0.1 spellings (which
/// URLStubsMigration keeps) throw the same `FixtureError`.
@Suite("Fixture files that cannot be read")
struct FixtureFileProblemTests {
    /// What `work` threw (or "no error"), or `nil` when it had not finished within `seconds`:
    /// run on a thread of its own, so a read that waits forever fails the test instead of
    /// hanging it.
    private func outcome(within seconds: TimeInterval = 30, of work: @escaping @Sendable () throws -> Void) async -> String? {
        final class Once: @unchecked Sendable {
            let lock = NSLock()
            var continuation: CheckedContinuation<String?, Never>?
            func resume(_ value: String?) {
                lock.lock()
                let pending = continuation
                continuation = nil
                lock.unlock()
                pending?.resume(returning: value)
            }
        }
        let once = Once()
        return await withCheckedContinuation { continuation in
            once.continuation = continuation
            Thread {
                do {
                    try work()
                    once.resume("no error")
                } catch {
                    once.resume("\(type(of: error)): \(error)")
                }
            }.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { once.resume(nil) }
        }
    }

    @Test(arguments: ["feed.response", "feed.sse", "feed.json"])
    func aFIFONamedLikeAFixtureFailsPromptlyWithFixtureError(name: String) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent(name)
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let returned = Locked<Double?>(nil)
        let message = await outcome {
            // Timed on the thread that reads: the test's task may wait long for a pool thread.
            let started = Date()
            defer { returned.withLock { $0 = Date().timeIntervalSince(started) } }
            _ = try StubResponse(fixture: fifo)
        }
        let text = try #require(message, "StubResponse(fixture:) on a FIFO did not return within 30 s")
        #expect(try #require(returned.withLock { $0 }) < 30)
        #expect(text.hasPrefix("FixtureError: "), "\(text)")
        #expect(text.contains(fifo.path) && text.contains("is a FIFO (named pipe) or another special file, not a regular file"), "\(text)")

        // Through a session: the handler's error fails the request.
        let registry = StubRegistry()
        registry.stub(isPath("/feed")) { _ in try StubResponse(fixture: fifo) }
        let result = await fetch("https://api.test/feed", from: registry)
        let error = try #require(result.error as? FixtureError, "\(String(describing: result.error))")
        #expect(error.kind == .unreadable && error.source == fifo.path)
    }

    @Test(arguments: ["page.response", "page.sse", "page.json"])
    func aFolderNamedLikeAFixtureIsUnreadableNotMissing(name: String) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let registry = StubRegistry()
        registry.stub(isPath("/page")) { _ in try StubResponse(fixture: directory) }
        let result = await fetch("https://api.test/page", from: registry)
        let error = try #require(result.error as? FixtureError, "\(String(describing: result.error))")
        #expect(error.kind == .unreadable)
        #expect(error.source == directory.path)
        #expect(error.description.contains("is a folder, not a file: pass the path of the file inside it"), "\(error)")
    }

    @Test(.enabled(if: getuid() != 0, "root reads any file"), arguments: ["locked.response", "locked.sse", "locked.json"])
    func anUnreadableFixtureIsAFixtureErrorNamingThePathAndReason(name: String) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data("HTTP/1.1 200 OK\r\n\r\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path) }
        let registry = StubRegistry()
        registry.stub(isPath("/locked")) { _ in try StubResponse(fixture: file) }
        let result = await fetch("https://api.test/locked", from: registry)
        let error = try #require(result.error as? FixtureError, "\(String(describing: result.error))")
        #expect(error.kind == .unreadable && error.source == file.path)
        #expect(error.description.contains("cannot be read") && error.description.contains("check that the file's permissions"), "\(error)")
    }

    @Test func aMissingFixtureIsNotFoundWithTheClosestNames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("data: a\n\n".utf8).write(to: folder.appendingPathComponent("prices.sse"))
        let error = #expect(throws: FixtureError.self) { try StubResponse(fixture: folder.appendingPathComponent("price.sse")) }
        #expect(error?.kind == .notFound)
        #expect(error?.suggestions == ["prices.sse"])
    }

    /// The domain moved: a file the 0.1 readers cannot read was `StubError.fileUnreadable`.
    @Test func theOldSpellingsThrowFixtureErrorAndDoNotWaitOnAFIFO() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("feed.response")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let message = await outcome { _ = try StubResponse(httpMessageFileAt: fifo) }
        let text = try #require(message, "StubResponse(httpMessageFileAt:) on a FIFO did not return within 30 s")
        #expect(text.hasPrefix("FixtureError: "), "\(text)")
        #expect(text.contains(fifo.path) && text.contains("not a regular file"), "\(text)")
        let directory = folder.appendingPathComponent("feed.sse")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let error = #expect(throws: FixtureError.self) { try StubResponse(eventStreamFileAt: directory, statusCode: 200, headers: [:]) }
        #expect(error?.kind == .unreadable && error?.source == directory.path)
        #expect(error?.description.contains("is a folder, not a file: pass the path of the file inside it") == true, "\(String(describing: error))")
    }

    /// A web URL where a file's URL belongs says so, whole: not a missing file named after its
    /// last path component in a folder named after its path.
    @Test(arguments: ["http://www.iana.org/domains/example/", "https://api.test/users.response", "https://api.test/feed.sse"])
    func aURLThatIsNotAFileURLIsNamedWhole(address: String) {
        let url = URL(string: address)!
        let error = #expect(throws: FixtureError.self) { try StubResponse(fixture: url) }
        #expect(error?.kind == .unreadable && error?.source == address, "\(String(describing: error))")
        #expect(error?.description.contains("\(address) is not a file URL") == true, "\(String(describing: error))")
        let lookup = #expect(throws: FixtureError.self) { try Fixture.url("users.json", inDirectory: url) }
        #expect(lookup?.description.contains("is not a file URL") == true, "\(String(describing: lookup))")
    }
}
