import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// A request that reaches the real network and fails there (the server is down) fails the app
/// with the network's error, rebuilt with its secrets scrubbed: Foundation's error carries the
/// request's URL, and the app's error goes into a test log.
@Suite("Network errors are scrubbed")
struct NetworkErrorScrubbingTests {
    private static let secret = "SECRET-4711-VALUE"

    private static func requestToClosedPort() throws -> URLRequest {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(try closedLoopbackPort())/users/1?token=\(secret)&page=1")!)
        request.setValue("Bearer \(secret)-BEARER", forHTTPHeaderField: "Authorization")
        return request
    }

    /// Everything a log may print of `error`: its description, its localized description and
    /// its user info, through the underlying errors.
    private static func printedForms(of error: any Error) -> [String] {
        var forms = [String(describing: error), error.localizedDescription, String(reflecting: error)]
        var next: NSError? = error as NSError
        while let current = next {
            forms.append("\(current)")
            forms.append("\(current.userInfo)")
            forms += current.userInfo.values.map { "\($0)" }
            next = current.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return forms
    }

    private static func expectScrubbed(_ error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try #require(error, sourceLocation: sourceLocation)
        for form in printedForms(of: error) {
            #expect(!form.contains("SECRET"), "the error leaks the secret: \(form)", sourceLocation: sourceLocation)
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost, "\(error)", sourceLocation: sourceLocation)
        #expect((error as NSError).domain == NSURLErrorDomain, sourceLocation: sourceLocation)
        let failingURL = try #require((error as? URLError)?.failingURL, "the failing URL stays", sourceLocation: sourceLocation)
        #expect(failingURL.path == "/users/1", sourceLocation: sourceLocation)
        #expect(failingURL.query?.contains("page=1") == true, "what is not secret stays: \(failingURL)", sourceLocation: sourceLocation)
        // NSURLErrorFailingURLStringErrorKey, by its value: corelibs deprecates the constant.
        let failingURLString = (error as NSError).userInfo["NSErrorFailingURLStringKey"] as? String
        #expect(failingURLString?.contains("token=<scrubbed>&page=1") == true, "\(failingURLString ?? "none")", sourceLocation: sourceLocation)
    }

    @Test(arguments: [FetchAPI.completionHandler, .asyncData, .delegate])
    func aPassthroughToAServerThatIsDownFailsWithoutTheSecret(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/users/1")) { _ in .passthrough(.statusCode(503)) }
        let finished = EventLog()
        registry.afterFinish { _, _, _, error in finished.append(error.map { "\($0)" } ?? "no error") }
        let result = await fetch(try Self.requestToClosedPort(), from: registry, using: api)
        try Self.expectScrubbed(result.error)
        try await waitUntil { !finished.events.isEmpty }
        #expect(finished.events.allSatisfy { !$0.contains("SECRET") }, "afterFinish sees the scrubbed error: \(finished.events)")
    }

    @Test func theErrorStillCatchesByItsCode() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in .passthrough() }
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        do {
            _ = try await session.data(for: try Self.requestToClosedPort())
            Issue.record("the request succeeded")
        } catch URLError.cannotConnectToHost {
            // As an app would handle it.
        } catch {
            Issue.record("caught \(error) instead of URLError.cannotConnectToHost")
        }
    }

    @Test func aRecordingRegistryFailsWithoutTheSecret() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-network-errors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = StubRegistry()
        _ = try registry.record(to: folder.appendingPathComponent("down.har"), mode: .all, environment: [:])
        try Self.expectScrubbed(await fetch(try Self.requestToClosedPort(), from: registry, using: .asyncData).error)
    }

    @Test func theRegistrysOwnRulesApply() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in .passthrough() }
        registry.scrubbing = .default.adding(queryParameters: ["session"])
        let port = try closedLoopbackPort()
        let result = await fetch(URLRequest(url: URL(string: "http://127.0.0.1:\(port)/a?session=SECRET-SESSION&page=2")!), from: registry)
        let error = try #require(result.error)
        for form in Self.printedForms(of: error) {
            #expect(!form.contains("SECRET"), "the error leaks the secret: \(form)")
        }
        #expect((error as? URLError)?.failingURL?.query?.contains("page=2") == true)
    }
}
