import Foundation
import URLStubs

/// Why the link between a UI test and the app it drives failed, on either side: the app could
/// not take its fake backend from the test that launched it, or lost it (thrown by
/// ``TestRunnerLink/connectIfLaunchedByTest(into:scenarios:fixtures:timeout:environment:)``, failing the app's
/// requests), or the test's `AppBackend` could not reach the app, or the app could not do what
/// it asked (thrown by every `AppBackend` call).
///
/// Each description names what to check: the launch environment variables, the app's launch,
/// the command the app could not run and why.
///
/// ```swift
/// do {
///     try await backend.waitForApp(timeout: 10)
/// } catch TestRunnerLinkError.appNeverConnected(let waited, _, let notes) {
///     print("no app after \(waited) s", notes)
/// }
/// ```
public enum TestRunnerLinkError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The launch environment names a test runner, but not in a form the app can use.
    case invalidEnvironment(String)
    /// Nothing answers at the address the launch environment gives.
    case cannotConnect(address: String, reason: String)
    /// The test runner did not take the connection in time (its accept queue full), or took it
    /// and sent no stubs in time.
    case testRunnerDidNotAnswer(address: String, timeout: TimeInterval)
    /// The test runner refused the app (a stale or wrong token, another app connected).
    case refused(String)
    /// The app and the test runner speak different versions of the link's protocol.
    case protocolMismatch(app: Int, testRunner: Int)
    /// The link broke mid-conversation (a malformed message, the connection closed).
    case broken(String)
    /// The test runner went away after the app connected: every request fails with this.
    case testRunnerDisconnected(String)

    // The test's side: an `AppBackend` call that failed.

    /// No app connected to the `AppBackend` in time (it was not launched with its
    /// `launchEnvironment`, does not connect at launch, or crashed before it could). `notes`
    /// lists connections the backend refused meanwhile (a stale token, another protocol version).
    case appNeverConnected(waited: TimeInterval, environment: String, notes: [String])
    /// The app was connected and went away (it crashed, quit, or was terminated).
    case appDisconnected(reason: String, notes: [String])
    /// The app ran the command and reported a problem: a missing fixture, an unknown scenario,
    /// a wait that timed out (with its report).
    case appFailed(command: String, message: String)
    /// The app did not answer `command` in time.
    case appDidNotAnswer(command: String, timeout: TimeInterval)
    /// A matcher or response that cannot be sent to the app, found before anything was sent.
    case invalidStub(problems: [String])
    /// The `AppBackend` was closed (`close()`).
    case closed

    private static let variables = "\(TestRunnerLink.addressVariable) and \(TestRunnerLink.tokenVariable)"

    /// The whole explanation.
    public var description: String {
        switch self {
        case .invalidEnvironment(let problem):
            return "URLStubs: \(problem). The test sets \(Self.variables) from AppBackend.launchEnvironment; "
                + "remove them to launch the app without a test runner."
        case .cannotConnect(let address, let reason):
            return "URLStubs: could not connect to the test runner at \(address) (\(reason)). "
                + "\(TestRunnerLink.addressVariable) names a test process that has ended or closed its AppBackend: "
                + "launch the app from the running test, with the AppBackend's current launchEnvironment."
        case .testRunnerDidNotAnswer(let address, let timeout):
            return "URLStubs: the test runner at \(address) sent no stubs within \(Self.seconds(timeout)) s. "
                + "Check that \(TestRunnerLink.addressVariable) names this test's AppBackend (an AppBackend of another test, "
                + "a test paused in the debugger, or a test process too busy to take the connection does not answer), "
                + "or pass a longer timeout to connectIfLaunchedByTest."
        case .refused(let reason):
            return "URLStubs: the test runner refused this app: \(reason)"
        case .protocolMismatch(let app, let testRunner):
            return "URLStubs: protocol version mismatch: this app speaks version \(app) of the test-runner link, "
                + "the test runner version \(testRunner). Build the app and the UI tests with the same URLStubs version."
        case .broken(let reason):
            return "URLStubs: the link to the test runner broke: \(reason)"
        case .testRunnerDisconnected(let reason):
            return "URLStubs: the test runner disconnected (\(reason)), so this app's fake backend is gone and no request "
                + "is answered. The UI test that launched the app has ended or closed its AppBackend; relaunch the app from a running test."
        case .appNeverConnected(let waited, let environment, let notes):
            return "URLStubs: no app connected to this AppBackend within \(Self.seconds(waited)) s. Check that the app was launched "
                + "with backend.launchEnvironment merged into XCUIApplication.launchEnvironment before launch() (\(environment)), "
                + "that it calls TestRunnerLink.connectIfLaunchedByTest at launch in the build the test runs (DEBUG), and that it "
                + "did not crash at launch (its console says why it did not connect)." + Self.notes(notes)
        case .appDisconnected(let reason, let notes):
            return "URLStubs: the app disconnected from this AppBackend (\(reason)): it crashed, quit or was terminated. "
                + "A relaunched app reconnects with the stubs declared so far; call waitForApp() after launching it." + Self.notes(notes)
        case .appFailed(let command, let message):
            return "URLStubs: the app could not \(command): \(message)"
        case .appDidNotAnswer(let command, let timeout):
            return "URLStubs: the app did not answer \"\(command)\" within \(Self.seconds(timeout)) s: "
                + "is it stopped in the debugger, or is its main thread blocked in connectIfLaunchedByTest?"
        case .invalidStub(let problems):
            return "URLStubs: this matcher or response cannot be sent to the app: " + problems.joined(separator: "; ")
        case .closed:
            return "URLStubs: this AppBackend is closed; make a new one for the next launch."
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    private static func notes(_ notes: [String]) -> String {
        notes.isEmpty ? "" : "\nMeanwhile:\n" + notes.map { "- " + $0 }.joined(separator: "\n")
    }

    /// `2` or `0.30`: a duration in seconds as the descriptions say it.
    package static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }
}

extension TestRunnerLinkError {
    /// The case's name, for the failing stub's name.
    var shortName: String {
        switch self {
        case .invalidEnvironment: return "invalid launch environment"
        case .cannotConnect: return "cannot connect"
        case .testRunnerDidNotAnswer: return "no answer"
        case .refused: return "refused"
        case .protocolMismatch: return "protocol version mismatch"
        case .broken: return "link broken"
        case .testRunnerDisconnected: return "test runner disconnected"
        // The test's side: an app never fails its requests with these.
        case .appNeverConnected: return "app never connected"
        case .appDisconnected: return "app disconnected"
        case .appFailed: return "app failed"
        case .appDidNotAnswer: return "app did not answer"
        case .invalidStub: return "invalid stub"
        case .closed: return "backend closed"
        }
    }
}
