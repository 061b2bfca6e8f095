import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubsTesting

/// `StubRegistry.current` read where no trait set a registry records its issue in the test that
/// read it, at the `@Test` line the message asks to change, not inside URLStubsTesting.
@Suite("StubRegistry.current outside the trait")
struct CurrentRegistryLocationTests {
    /// The locations of the issues a known-issue block matched.
    private final class Locations: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Testing.SourceLocation?] = []
        var all: [Testing.SourceLocation?] { lock.withLock { stored } }
        func append(_ location: Testing.SourceLocation?) { lock.withLock { stored.append(location) } }
    }

    @Test func theIssueLandsAtTheTestThatReadIt() throws {
        let test = try #require(Test.current)
        let locations = Locations()
        withKnownIssue {
            _ = StubRegistry.current
        } matching: { issue in
            locations.append(issue.sourceLocation)
            return issue.comments.map(\.rawValue).joined().contains("add .stubbed to this @Test")
        }
        #expect(locations.all.map { $0?.fileID } == [test.sourceLocation.fileID])
        #expect(locations.all.map { $0?.line } == [test.sourceLocation.line])
    }

    /// A helper the test calls reads it: the issue is still the test's, at its `@Test` line.
    @Test func readFromAHelperTheIssueLandsAtTheTest() throws {
        let test = try #require(Test.current)
        let locations = Locations()
        withKnownIssue {
            _ = Self.sessionForTheClient()
        } matching: { issue in
            locations.append(issue.sourceLocation)
            return true
        }
        #expect(locations.all.map { $0.map { "\($0.fileID):\($0.line)" } } == ["\(test.sourceLocation.fileID):\(test.sourceLocation.line)"])
    }

    private static func sessionForTheClient() -> URLSession {
        StubRegistry.current.makeSession()
    }
}
