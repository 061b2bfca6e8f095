import Foundation
@testable import URLStubs
@testable import URLStubsTestRunnerLink
import URLStubsScenarios
@testable import TestSupport

// The app's end of the test-runner link in the test process, for the link's suites: on a thread
// of its own, answering a registry of the test's.

/// The app's end, connected as an app's launch would: on a thread of its own, since it blocks
/// until the first stubs arrive.
func connectApp(_ environment: [String: String], registry: StubRegistry, timeout: TimeInterval = 30) async throws -> TestRunnerLink? {
    try await startApp(environment, registry: registry, timeout: timeout).value
}

/// The app's end, connecting from now on while the test speaks the runner's end by hand; its
/// fixtures are in the folder `fixtures`.
func startApp(
    _ environment: [String: String], registry: StubRegistry, fixtures: URL = fixturesFolder, timeout: TimeInterval = 30
) -> StartedOnItsOwnThread<TestRunnerLink?> {
    let scenarios = [
        Scenario("sold-out") { stubs in stubs.stub(isPath("/api/cart")) { _ in StubResponse(string: "sold out", statusCode: 409) } }
    ]
    return StartedOnItsOwnThread {
        try TestRunnerLink.connectIfLaunchedByTest(
            into: registry, scenarios: scenarios, fixtures: .folder(fixtures), timeout: timeout, environment: environment)
    }
}

/// The error `work` throws, as text (`""` when it throws none).
func errorText(_ work: () async throws -> Void) async -> String {
    do {
        try await work()
        return ""
    } catch {
        return "\(error)"
    }
}
