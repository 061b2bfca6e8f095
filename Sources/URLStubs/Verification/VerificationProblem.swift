import Foundation

/// One problem found by ``StubRegistry/verify(includePassedThrough:)``, or the one of a wait
/// that gave up (``Kind/waitTimedOut``).
public struct VerificationProblem: Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A stub answered more or less often than its ``ExpectedCount`` (``stub``; ``count`` is
        /// how many times it answered).
        case unmetExpectation
        /// A stub's matcher could not be built (``stub``).
        case invalidStub
        /// Unmatched requests declared with ``StubRegistry/expectUnmatched(_:_:fileID:filePath:line:)``
        /// came more or less often (``count`` times).
        case unmetUnmatchedExpectation
        /// A request no stub matched (``request``, which came ``count`` times; `nil` for the
        /// line counting those beyond the distinct ones listed).
        case unexpectedRequest
        /// A replayed recording's entry that the test never requested (``stub``).
        case unusedRecordedEntry
        /// An exchange broke a contract that an add-on checks (URLStubsOpenAPI: the API's
        /// OpenAPI document); ``stub`` answered it, ``count`` is how many times it happened.
        case contractViolation
        /// ``StubRegistry/install(into:)`` was given a configuration it cannot stub (a
        /// background one), whose requests reach the network; ``count`` is how many times.
        case unstubbableConfiguration
        /// A wait for requests gave up before they all came
        /// (``StubRegistry/waitForRequests(matching:count:timeout:)``,
        /// ``ResponseGate/waitForRequest(timeout:)``, `LiveStream.waitForConnection(timeout:)`,
        /// `LiveStream.waitForRoom(timeout:)`): ``summary`` says what was awaited, ``count``
        /// how many of them arrived, ``message`` lists those and every other request the
        /// registry saw, closest first, with why the matcher refused each; ``request`` is the
        /// closest of those others.
        case waitTimedOut
    }

    /// What went wrong.
    public let kind: Kind
    /// One line: what broke (`"login" (MyAppTests/LoginTests.swift:12) was expected exactly once,
    /// answered 0 times`, `unexpected request: GET https://… (no stub matched)`).
    public let summary: String
    /// More lines, for an unexpected request: the closest stubs, why each refused, and a stub
    /// that would have matched. ``message`` holds them after the ``summary``.
    package let details: String?
    /// Where the problem was declared (the stub, the ``ExpectedUnmatchedRequest``), `nil` for
    /// an unexpected request and a wait.
    public let location: StubLocation?
    /// The stub concerned, if any.
    public let stub: StubDescriptor?
    /// The unexpected request, as the journal keeps it; for a wait that gave up, the other
    /// request closest to what it awaited.
    public let request: JournalEntry?
    /// How many times it happened: answers of the stub, requests seen, times an unexpected
    /// request came, or awaited requests that did arrive.
    public let count: Int

    init(
        kind: Kind, summary: String, details: String? = nil, location: StubLocation?, stub: StubDescriptor? = nil, request: JournalEntry? = nil,
        count: Int = 1
    ) {
        self.kind = kind
        self.summary = summary
        self.details = details
        self.location = location
        self.stub = stub
        self.request = request
        self.count = count
    }

    /// The whole text: the ``summary``, then, for an unexpected request, the closest stubs, why
    /// each refused, and a stub that would have matched, on the following lines.
    public var message: String { details.map { summary + "\n" + $0 } ?? summary }

    /// Same as ``message``.
    public var description: String { message }
}
