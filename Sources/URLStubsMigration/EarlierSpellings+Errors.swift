import Foundation
import URLStubs
import URLStubsScenarios

// The error types 0.2 folded into one type per domain (a stub, a file, the traffic a test
// expected), each name kept as a deprecated alias of the type that now holds its problems.
// A construction keeps compiling through a static function named like the retired case; a
// pattern that binds a retired case's values (`catch StubError.fileNotFound(let path)`) cannot,
// since the cases are gone: read the new type's `kind` and properties instead.

/// What a wait for requests that did not come in time threw in 0.1: the
/// `VerificationReport` a wait now throws, whose one problem (of kind
/// `VerificationProblem.Kind.waitTimedOut`) says what was awaited, what came and the closest
/// other requests; its description reads as before.
@available(*, deprecated, renamed: "VerificationReport", message: "a wait that gives up throws a VerificationReport (problem kind .waitTimedOut)")
public typealias RequestWaitTimeout = VerificationReport

extension VerificationReport {
    /// For a wait that gave up, the requests that did match, fewer than awaited: the
    /// `.waitTimedOut` problem's `count`, and its message lists them.
    @available(*, deprecated, message: "read problems: the .waitTimedOut problem's count is how many matched, its message lists them")
    public var matched: [JournalEntry] { timedOutWait?.matched ?? [] }

    /// For a wait that gave up, every other request the registry had seen, oldest first: the
    /// `.waitTimedOut` problem's message lists the closest, its `request` is the closest one.
    @available(*, deprecated, message: "read problems: the .waitTimedOut problem's request is the closest other request, its message lists them")
    public var others: [JournalEntry] { timedOutWait?.others ?? [] }
}

/// A cassette that could not be written: a `FixtureError` of kind `FixtureError/Kind/unwritable`,
/// whose `source` is the cassette's path and `found` what the system said.
@available(*, deprecated, renamed: "FixtureError", message: "one error for a file that cannot be used; read its kind (.unwritable)")
public typealias CassetteWriteError = FixtureError

/// Problems with scenarios: a folder's problems are a `FixtureError` of kind
/// `FixtureError/Kind/invalidFolder` (its `found` lists them, one a line); unknown names are
/// `ScenarioFailure.unknownScenarios(_:known:)` (as `StubError.library`).
@available(
    *, deprecated, renamed: "FixtureError",
    message:
        "a scenario folder's problems are a FixtureError (kind .invalidFolder); unknown names are StubError.library(ScenarioFailure.unknownScenarios)"
)
public typealias ScenarioError = FixtureError

extension FixtureError {
    /// For a file that could not be written, what the system said: `found`.
    @available(*, deprecated, renamed: "found")
    public var reason: String { found }

    /// The problems of the scenario folder at `path`, as `Scenario.folder(_:name:fileID:filePath:line:)`
    /// throws them: a `FixtureError` of kind `.invalidFolder`.
    @available(*, deprecated, message: "a scenario folder's problems are a FixtureError of kind .invalidFolder")
    public static func invalidFolder(path: String, problems: [String]) -> FixtureError {
        invalidFolder(path, readAs: "scenario folder", problems: problems)
    }

    /// Scenario names no scenario has: `ScenarioFailure.unknownScenarios(_:known:)` (as `StubError.library`).
    @available(*, deprecated, message: "an unknown scenario name is StubError.library(ScenarioFailure.unknownScenarios(_:known:))")
    public static func unknownScenarios(_ names: [String], known: [String]) -> StubError {
        .library(ScenarioFailure.unknownScenarios(names, known: known))
    }
}

extension StubError {
    /// A file that does not exist: a `FixtureError` of kind `FixtureError/Kind/notFound`, with
    /// the folder searched and the closest names in it, as the library throws it.
    @available(*, deprecated, message: "a missing file is a FixtureError: catch let error as FixtureError where error.kind == .notFound")
    public static func fileNotFound(path: String) -> FixtureError {
        Fixture.notFoundError(at: URL(fileURLWithPath: path))
    }

    /// A file that could not be read: a `FixtureError` of kind `FixtureError/Kind/unreadable`
    /// naming the path and `reason`.
    @available(*, deprecated, message: "an unreadable file is a FixtureError: catch let error as FixtureError where error.kind == .unreadable")
    public static func fileUnreadable(path: String, reason: String) -> FixtureError {
        FixtureError.unreadable(path, expected: "a readable file, but \(path) could not be read: \(reason)")
    }
}
