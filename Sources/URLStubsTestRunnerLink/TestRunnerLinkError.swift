import Foundation
@_spi(AddOns) import URLStubs

/// Why the app could not take its fake backend from the test that launched it, or lost it.
///
/// Each description names the launch environment variables and what to check.
public enum TestRunnerLinkError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The launch environment names a test runner, but not in a form the app can use.
    case invalidEnvironment(String)
    /// Nothing answers at the address the launch environment gives.
    case cannotConnect(address: String, reason: String)
    /// The test runner did not take the connection in time (its accept queue full), or took it
    /// and sent no stubs in time.
    case noAnswer(address: String, timeout: TimeInterval)
    /// The test runner refused the app (a stale or wrong token, another app connected).
    case refused(String)
    /// The app and the test runner speak different versions of the link's protocol.
    case protocolMismatch(app: Int, testRunner: Int)
    /// The link broke mid-conversation (a malformed message, the connection closed).
    case broken(String)
    /// The test runner went away after the app connected: every request fails with this.
    case testRunnerDisconnected(String)

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
        case .noAnswer(let address, let timeout):
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
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }
}
