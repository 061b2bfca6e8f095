#if canImport(XCTest)
import Foundation
import XCTest
import URLStubs

extension XCTestCase {
    /// A registry for this test: verified and emptied when the test tears down, with every
    /// problem recorded as a failure of this test at the line of the stub it concerns (an
    /// unexpected request at the line of this call, with the closest stubs and a stub to paste).
    ///
    /// A test that throws is verified too (tear-down runs after a thrown error), as with the
    /// Swift Testing trait: an unexpected request is often why it threw. On Linux, XCTest
    /// reports the thrown error itself at `<EXPR>:0` (swift-corelibs-xctest gives every thrown
    /// error that location); the problems recorded here carry their lines.
    ///
    /// ```swift
    /// final class ProfileTests: XCTestCase {
    ///     func testLoadsProfile() async throws {
    ///         let registry = makeStubRegistry()
    ///         registry.stub(isPath("/me")) { _ in try StubResponse(json: ["name": "Ada"]) }.expect(.once)
    ///         let client = ProfileClient(session: registry.makeSession())
    ///         let profile = try await client.load()
    ///         XCTAssertEqual(profile.name, "Ada")
    ///     }   // tearDown: verify(), failures at the stub's line
    /// }
    /// ```
    ///
    /// Or once for every test, in `setUp()` (tear-down blocks run before `tearDown()`):
    ///
    /// ```swift
    /// final class ProfileTests: XCTestCase {
    ///     private var registry: StubRegistry!
    ///     override func setUp() {
    ///         super.setUp()
    ///         registry = makeStubRegistry()
    ///     }
    ///     override func tearDown() {
    ///         registry = nil   // verified already
    ///         super.tearDown()
    ///     }
    /// }
    /// ```
    public func makeStubRegistry(
        unmatchedRequests: UnmatchedRequestPolicy = .fail, verifyOnTearDown: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) -> StubRegistry {
        KnownStrategies.register()
        let registry = StubRegistry(unmatchedRequests: unmatchedRequests)
        let handoff = TearDownHandoff((testCase: self, registry: registry))
        addTeardownBlock {
            guard let (testCase, registry) = handoff.take() else { return }
            defer { registry.removeAll() }
            guard verifyOnTearDown else { return }
            testCase.recordProblems(of: registry, file: file, line: line)
        }
        return registry
    }

    /// A registry served over loopback HTTP for this test (``URLStubsServer/StubServer``), for
    /// clients that do not load through `URLSession` (`WKWebView`, `AVPlayer`, another
    /// process): its `registry` is made as ``makeStubRegistry(unmatchedRequests:verifyOnTearDown:file:line:)``
    /// makes one, and the server stops at tear-down, before the registry is verified.
    ///
    /// ```swift
    /// final class WebPageTests: XCTestCase {
    ///     func testShowsTheProfilePage() throws {
    ///         let server = try makeStubServer()
    ///         server.registry.stub(isPath("/profile")) { _ in StubResponse(string: "<h1>Ada</h1>") }
    ///         let page = server.url("/profile")   // give this to the web view
    ///         _ = page
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - unmatchedRequests: What to do with a request no stub matches; by default it fails
    ///     (a `404` with the near-miss report over the wire).
    ///   - verifyOnTearDown: Whether tear-down verifies the registry.
    ///   - port: The port on 127.0.0.1; 0 (the default) lets the system pick one.
    ///   - file: Where problems that concern no stub are recorded (this call, by default).
    ///   - line: Where problems that concern no stub are recorded (this call, by default).
    /// - Throws: `StubServerError` when the port cannot be bound.
    public func makeStubServer(
        unmatchedRequests: UnmatchedRequestPolicy = .fail, verifyOnTearDown: Bool = true, port: UInt16 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> StubServer {
        let registry = makeStubRegistry(unmatchedRequests: unmatchedRequests, verifyOnTearDown: verifyOnTearDown, file: file, line: line)
        let server = try registry.serve(port: port)
        // Tear-down blocks run last-in first-out: the server stops before the registry is verified.
        let handoff = TearDownHandoff(server)
        addTeardownBlock { handoff.take()?.stop() }
        return server
    }

    /// Verifies `registry` and records each problem as a failure of this test: at the line of
    /// the stub it concerns, else at `file`:`line` (where the registry was made).
    func recordProblems(of registry: StubRegistry, file: StaticString, line: UInt) {
        for problem in registry.verify().problems {
            if let location = problem.location {
                recordStubFailure(problem.message, filePath: location.filePath, line: location.line)
            } else {
                XCTFail(problem.message, file: file, line: line)
            }
        }
    }

    private func recordStubFailure(_ message: String, filePath: String, line: Int) {
        #if canImport(ObjectiveC)
        let location = XCTSourceCodeLocation(filePath: filePath, lineNumber: line)
        let issue = XCTIssue(
            type: .assertionFailure, compactDescription: message,
            sourceCodeContext: XCTSourceCodeContext(location: location))
        record(issue)
        #else
        recordFailure(withDescription: message, inFile: filePath, atLine: line, expected: true)
        #endif
    }
}
#endif
