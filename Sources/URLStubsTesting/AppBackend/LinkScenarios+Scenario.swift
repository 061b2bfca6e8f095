import Foundation
import URLStubs
import URLStubsScenarios
import URLStubsTestRunnerLink

extension TestRunnerLink {
    /// Connects the app's end with the scenarios `scenarios` built with URLStubsScenarios,
    /// activated by name as `ScenarioLauncher.activate(names:available:into:)` does: for a test
    /// that plays the app in its own process.
    @discardableResult
    public static func connectIfLaunchedByTest(
        into registry: StubRegistry = .shared, scenarios: [Scenario], fixtures: AppFixtures = .bundle(.main),
        timeout: TimeInterval = 10, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> TestRunnerLink? {
        try connectIfLaunchedByTest(
            into: registry,
            scenarios: LinkScenarios(names: scenarios.map(\.name)) { name, registry in
                try ScenarioLauncher.activate(names: [name], available: scenarios, into: registry)
            }, fixtures: fixtures, timeout: timeout, environment: environment)
    }
}
