#if canImport(Testing)
import Foundation
import Testing
import URLStubs

/// A Swift Testing trait that gives each test (each case of a parameterized test) a fresh
/// `StubRegistry`, verifies it when the test ends, and throws it away.
///
/// Problems found by `StubRegistry.verify()` are recorded as issues
/// of the running test, at the line where the offending stub was declared (unexpected
/// requests at the test itself).
///
/// ```swift
/// @Test(.stubbed) func loadsProfile() async throws {
///     let registry = StubRegistry.current
///     registry.stub(isPath("/me")) { _ in try StubResponse(jsonObject: ["name": "Ada"]) }.expect(.once)
///     let client = ProfileClient(session: registry.makeSession())
///     #expect(try await client.load().name == "Ada")
/// }
///
/// @Test(.stubs { registry in
///     registry.stub(isPath("/me")) { _ in try StubResponse(jsonObject: ["name": "Ada"]) }
/// })
/// func alsoLoadsProfile() async throws { … }
/// ```
public struct StubsTrait: TestTrait, SuiteTrait, TestScoping {
    let unmatchedRequests: UnmatchedRequestPolicy
    let verifies: Bool
    let setup: @Sendable (StubRegistry) throws -> Void

    /// Applies to every test of a suite that carries it.
    public var isRecursive: Bool { true }

    /// A scope per test case: suites themselves get none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StubsTrait? {
        testCase == nil ? nil : self
    }

    /// Runs the test with its own registry as ``StubScope/registry``, then verifies it.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let registry = StubRegistry(unmatchedRequests: unmatchedRequests)
        try setup(registry)
        defer { registry.removeAll() }
        try await StubScope.$registry.withValue(registry) {
            try await function()
        }
        guard verifies else { return }
        for problem in registry.verify().problems {
            let location = problem.location.map {
                Testing.SourceLocation(fileID: $0.fileID, filePath: $0.filePath, line: $0.line, column: 1)
            } ?? test.sourceLocation
            Issue.record(Comment(rawValue: problem.message), sourceLocation: location)
        }
    }
}

extension Trait where Self == StubsTrait {
    /// A fresh registry per test (``URLStubs/StubRegistry/current``), verified when the test ends.
    /// Unmatched requests fail with a near-miss report.
    public static var stubbed: StubsTrait {
        StubsTrait(unmatchedRequests: .fail, verifies: true) { _ in }
    }

    /// A fresh registry per test, set up by `setup` before the test runs and verified after.
    public static func stubs(unmatchedRequests: UnmatchedRequestPolicy = .fail, verify: Bool = true,
                             _ setup: @escaping @Sendable (StubRegistry) throws -> Void) -> StubsTrait {
        StubsTrait(unmatchedRequests: unmatchedRequests, verifies: verify, setup: setup)
    }
}

extension StubRegistry {
    /// The registry of the running test (see the `.stubbed` trait). Outside such a test it
    /// records an issue saying so and returns a fresh registry, rather than crashing.
    public static var current: StubRegistry {
        if let registry = StubScope.registry { return registry }
        Issue.record("StubRegistry.current is only set inside a test with the .stubbed or .stubs { } trait")
        return StubRegistry()
    }
}
#endif
