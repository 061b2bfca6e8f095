// Re-exported: a test that imports URLStubsTesting can name StubServer (`.stubbed(serving:)`).
@_exported import URLStubsServer

#if canImport(Testing)
import Foundation
import Testing
import URLStubs
import URLStubsServer

/// A Swift Testing trait that gives each test (each case of a parameterized test) a fresh
/// `StubRegistry`, verifies it when the test ends, and throws it away.
///
/// Problems found by `StubRegistry.verify()` are recorded as issues
/// of the running test, at the line where the offending stub was declared (unexpected
/// requests at the test itself). Each issue's headline names the stub and what was expected
/// (`"profile" (MyAppTests/ProfileTests.swift:12) was expected exactly once, answered 0 times`); an
/// unexpected request's issue carries the closest stubs and a stub to paste.
///
/// ```swift
/// @Test(.stubbed) func loadsProfile() async throws {
///     let registry = StubRegistry.current
///     registry.stub(isPath("/me")) { _ in try StubResponse(json: ["name": "Ada"]) }.expect(.once)
///     let client = ProfileClient(session: registry.makeSession())
///     #expect(try await client.load().name == "Ada")
/// }
///
/// @Test(.stubs { registry in
///     registry.stub(isPath("/me")) { _ in try StubResponse(json: ["name": "Ada"]) }
/// })
/// func alsoLoadsProfile() async throws { … }
/// ```
///
/// - Important: A test that throws is verified too, and both are reported: the thrown error
///   and the verification's problems. An unexpected request or an unused stub is often why
///   the test threw (the app swallowed an unmatched request and the test then found no data),
///   and XCTest's `makeStubRegistry()` behaves the same way, since tear-down runs after a
///   thrown error.
public struct StubsTrait: TestTrait, SuiteTrait, TestScoping {
    let unmatchedRequests: UnmatchedRequestPolicy
    let verifies: Bool
    /// Also serves the registry over loopback HTTP for the test (``URLStubsServer/StubServer/current``).
    var serves = false
    let setup: @Sendable (StubRegistry) throws -> Void
    /// Where verification problems go: issues of the running test, or, in the trait's own
    /// tests, a list (so the suite passes without "known issues").
    let recordProblem: @Sendable (_ problem: VerificationProblem, _ location: Testing.SourceLocation, _ testThrew: Bool) -> Void

    init(
        unmatchedRequests: UnmatchedRequestPolicy, verifies: Bool,
        recordProblem: @escaping @Sendable (VerificationProblem, Testing.SourceLocation, Bool) -> Void = StubsTrait.recordIssue,
        setup: @escaping @Sendable (StubRegistry) throws -> Void
    ) {
        self.unmatchedRequests = unmatchedRequests
        self.verifies = verifies
        self.recordProblem = recordProblem
        self.setup = setup
    }

    /// Applies to every test of a suite that carries it.
    public var isRecursive: Bool { true }

    /// A scope per test case: suites themselves get none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StubsTrait? {
        testCase == nil ? nil : self
    }

    /// Runs the test with its own registry as ``URLStubs/StubRegistry/current``, then verifies it, even
    /// when the test threw (the error is rethrown after the problems are recorded).
    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        KnownStrategies.register()
        let registry = StubRegistry(unmatchedRequests: unmatchedRequests)
        try setup(registry)
        defer { registry.removeAll() }
        guard serves else {
            try await Self.run(function, with: registry, for: test, verifies: verifies, recordProblem: recordProblem)
            return
        }
        // Stopped before verification, so a request still open ends (as cancelled) first.
        let server = try registry.serve()
        try await TestScope.$server.withValue(server) {
            try await Self.run(function, with: registry, for: test, verifies: verifies, afterTest: { server.stop() }, recordProblem: recordProblem)
        }
    }

    /// Runs `function` with `registry` as ``URLStubs/StubRegistry/current``; then, even when it threw,
    /// runs `afterTest` and records each problem of `registry.verify()` at the line of the stub
    /// it concerns (else the test's), and rethrows the test's error, or else the one
    /// `afterTest` threw (when both threw, `afterTest`'s is recorded as an issue of its own).
    /// Shared with ``CassetteTrait``.
    static func run(
        _ function: @Sendable () async throws -> Void, with registry: StubRegistry, for test: Test, verifies: Bool = true,
        afterTest: () throws -> Void = {},
        recordProblem: (VerificationProblem, Testing.SourceLocation, Bool) -> Void = StubsTrait.recordIssue,
        recordError: (any Error, Testing.SourceLocation) -> Void = { Issue.record($0, sourceLocation: $1) }
    ) async throws {
        var thrown: (any Error)?
        do {
            try await TestScope.$registry.withValue(registry) {
                try await function()
            }
        } catch {
            thrown = error
        }
        var afterTestError: (any Error)?
        do {
            try afterTest()
        } catch {
            afterTestError = error
        }
        if verifies {
            for problem in registry.verify().problems {
                let location =
                    problem.location.map {
                        Testing.SourceLocation(fileID: $0.fileID, filePath: $0.filePath, line: $0.line, column: 1)
                    } ?? test.sourceLocation
                recordProblem(problem, location, thrown != nil)
            }
        }
        if let thrown {
            if let afterTestError { recordError(afterTestError, test.sourceLocation) }
            throw thrown
        }
        if let afterTestError { throw afterTestError }
    }

    /// Records `problem` so that Swift Testing's headline is the problem itself.
    ///
    /// `Issue.record(_ comment:)` would print "Issue recorded" as the headline and the problem
    /// below it; an issue recorded for an error prints the error's description as the headline
    /// ("Caught error: URLStubs: "profile" (MyAppTests/ProfileTests.swift:12) was expected exactly once,
    /// answered 0 times"). The details go in the comment, printed below it.
    @Sendable static func recordIssue(_ problem: VerificationProblem, at location: Testing.SourceLocation, testThrew: Bool) {
        let comment = commentLines(for: problem, testThrew: testThrew)
        Issue.record(
            BrokenStubExpectation(summary: problem.summary),
            comment.isEmpty ? nil : Comment(rawValue: comment.joined(separator: "\n")),
            sourceLocation: location)
    }

    /// The lines under an issue's headline.
    static func commentLines(for problem: VerificationProblem, testThrew: Bool) -> [String] {
        var lines: [String] = []
        if problem.message.count > problem.summary.count { lines.append(String(problem.message.dropFirst(problem.summary.count + 1))) }
        if testThrew {
            lines.append("(URLStubs verified the test although it threw: a problem here may be why it threw.)")
        }
        return lines
    }
}

/// The error whose description is the headline of a verification issue.
struct BrokenStubExpectation: Error, CustomStringConvertible {
    let summary: String
    var description: String { "URLStubs: \(summary)" }
}

extension Trait where Self == StubsTrait {
    /// A fresh registry per test (``URLStubs/StubRegistry/current``), verified when the test ends.
    /// Unmatched requests fail with a near-miss report.
    public static var stubbed: StubsTrait {
        StubsTrait(unmatchedRequests: .fail, verifies: true) { _ in }
    }

    /// A fresh registry per test with the given unmatched-request policy (failing, as for
    /// ``stubbed``, by default), verified when the test ends (unless `verify` is `false`).
    ///
    /// With `serving: true`, the registry also answers over a loopback HTTP server for the
    /// test (``URLStubsServer/StubServer/current``), stopped when the test ends, for clients
    /// that do not load through `URLSession` (`WKWebView`, `AVPlayer`, another process).
    ///
    /// ```swift
    /// @Test(.stubbed(unmatchedRequests: .passthrough)) func usesTheRealNetworkForTheRest() async throws { … }
    /// @Test(.stubbed(verify: false)) func makesRequestsNobodyChecks() async throws { … }
    /// @Test(.stubbed(serving: true)) func servesAWebView() async throws {
    ///     let pageURL = try StubServer.current.url("/page")
    ///     _ = pageURL
    /// }
    /// ```
    public static func stubbed(unmatchedRequests: UnmatchedRequestPolicy = .fail, verify: Bool = true, serving: Bool = false) -> StubsTrait {
        var trait = StubsTrait(unmatchedRequests: unmatchedRequests, verifies: verify) { _ in }
        trait.serves = serving
        return trait
    }

    /// A fresh registry per test, set up by `setup` before the test runs and verified after
    /// (unless `verify` is `false`).
    ///
    /// ```swift
    /// @Test(.stubs { registry in
    ///     registry.stub(isPath("/me")) { _ in try StubResponse(json: ["name": "Ada"]) }
    /// })
    /// func showsTheProfile() async throws { … }
    /// ```
    public static func stubs(
        unmatchedRequests: UnmatchedRequestPolicy = .fail, verify: Bool = true,
        _ setup: @escaping @Sendable (StubRegistry) throws -> Void
    ) -> StubsTrait {
        StubsTrait(unmatchedRequests: unmatchedRequests, verifies: verify, setup: setup)
    }
}

extension StubServer {
    /// The server of the running test, which has `.stubbed(serving: true)`: it answers with
    /// ``URLStubs/StubRegistry/current``'s stubs and stops when the test ends.
    ///
    /// ```swift
    /// @Test(.stubbed(serving: true)) func showsTheProfilePage() async throws {
    ///     StubRegistry.current.stub(isPath("/profile")) { _ in StubResponse(string: "<h1>Ada</h1>") }
    ///     let page = try StubServer.current.url("/profile")   // give this to the web view
    ///     _ = page
    /// }
    /// ```
    ///
    /// - Throws: Outside such a test, an error saying to add the trait.
    public static var current: StubServer {
        get throws {
            if let server = TestScope.server { return server }
            throw StubServerError(
                description:
                    "URLStubs: StubServer.current is only set inside a test with the .stubbed(serving: true) trait: add it to this @Test (or to its @Suite), or start one with try registry.serve()"
            )
        }
    }
}

extension StubRegistry {
    /// The registry of the running test (see the `.stubbed` trait). Outside such a test it
    /// records an issue saying so and returns a fresh registry, rather than crashing.
    ///
    /// The issue lands at the running test's `@Test` line, where the trait goes (a property
    /// cannot learn the line that read it), also when a helper of the test read it.
    public static var current: StubRegistry {
        if let registry = TestScope.registry { return registry }
        let message: Comment =
            "StubRegistry.current is only set inside a test with the .stubbed or .stubs { } trait: add .stubbed to this @Test (or to its @Suite)"
        if let test = Test.current {
            Issue.record(message, sourceLocation: test.sourceLocation)
        } else {
            Issue.record(message)
        }
        return StubRegistry()
    }
}
#endif
