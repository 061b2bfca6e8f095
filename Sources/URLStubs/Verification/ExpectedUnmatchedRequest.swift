import Foundation

/// A declaration that some requests are meant to match no stub: a test of the app's handling
/// of an unknown endpoint, a check that the near-miss report names the right stub.
///
/// Made by ``StubRegistry/expectUnmatched(_:_:fileID:filePath:line:)``. The requests still
/// fail (or pass through) exactly as before; ``StubRegistry/verify(includePassedThrough:)``
/// counts them here instead of reporting them as unexpected, and reports this declaration
/// when the count breaks `count`.
public struct ExpectedUnmatchedRequest: Sendable, CustomStringConvertible {
    /// Which unmatched requests are expected.
    public let matcher: RequestMatcher
    /// How many of them are expected.
    public let count: ExpectedCount
    /// Where the declaration was written.
    public let location: StubLocation

    /// `unmatched request where path is "/missing" (MyAppTests/UserTests.swift:12)`.
    public var description: String { "unmatched request where \(matcher) (\(location))" }
}

extension StubRegistry {
    /// Declares that requests accepted by `matcher` are meant to match no stub, so
    /// ``verify(includePassedThrough:)`` (and the `.stubbed` trait or `makeStubRegistry()`,
    /// which call it) does not report them as unexpected.
    ///
    /// The request still fails with the near-miss report (or goes to the network, for a
    /// `.passthrough` registry): this only changes what verification says. Declare it where the
    /// test makes the request on purpose.
    ///
    /// ```swift
    /// @Test(.stubbed) func unknownUserShowsAnError() async throws {
    ///     let registry = StubRegistry.current
    ///     registry.expectUnmatched(isPath("/users/999"))        // on purpose; .once, .atLeast(2)…
    ///     let client = UserClient(session: registry.makeSession())
    ///     await #expect(throws: URLError.self) { try await client.user(id: 999) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - matcher: Which unmatched requests are expected.
    ///   - count: How many are expected; by default at least one, so a declaration whose
    ///     request never came is reported at this line.
    ///   - fileID: Where the declaration is, for reports; filled in by default.
    ///   - filePath: The same file's full path, for test frameworks; filled in by default.
    ///   - line: The declaration's line; filled in by default.
    /// - Important: A request that some stub answers is not unmatched, whatever `matcher` says.
    ///   Other ways to keep an unmatched request out of the report: ``resetJournal()`` after it,
    ///   or no verification at all (`.stubs(verify: false) { … }`,
    ///   `makeStubRegistry(verifyOnTearDown: false)`).
    @discardableResult
    public func expectUnmatched(
        _ matcher: RequestMatcher, _ count: ExpectedCount = .atLeastOnce,
        fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line
    ) -> ExpectedUnmatchedRequest {
        let expectation = ExpectedUnmatchedRequest(
            matcher: matcher, count: count,
            location: StubLocation(fileID: fileID, filePath: filePath, line: line))
        addExpectedUnmatchedRequest(expectation)
        return expectation
    }
}
