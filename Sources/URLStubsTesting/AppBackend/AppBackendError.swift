import Foundation
import URLStubs
@_spi(TestRunnerLink) import URLStubsTestRunnerLink

/// Why an ``AppBackend`` call failed, with what to check.
public enum AppBackendError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// No app connected in time (it was not launched with ``AppBackend/launchEnvironment``,
    /// does not connect at launch, or crashed before it could). `notes` lists connections the
    /// backend refused meanwhile (a stale token, another protocol version).
    case appNeverConnected(waited: TimeInterval, environment: String, notes: [String])
    /// The app was connected and went away (it crashed, quit, or was terminated).
    case appDisconnected(reason: String, notes: [String])
    /// The app ran the command and reported a problem: a missing fixture, an unknown scenario,
    /// a wait that timed out (with its report).
    case appFailed(command: String, message: String)
    /// The app did not answer in time.
    case noAnswer(command: String, timeout: TimeInterval)
    /// A matcher or response that cannot be sent, found before anything was sent.
    case invalidStub(problems: [String])
    /// ``AppBackend/close()`` was called.
    case closed

    /// The whole explanation.
    public var description: String {
        switch self {
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
        case .noAnswer(let command, let timeout):
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

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }
}
