import Foundation
import URLStubs

/// The app's own scenarios a UI test may switch (`AppBackend.activate(_:)` and `deactivate(_:)`
/// in URLStubsTesting), given to
/// ``TestRunnerLink/connectIfLaunchedByTest(into:scenarios:fixtures:timeout:environment:)``:
/// their names, and the one closure that activates one.
///
/// The link imports no scenario library: a scenario built in code holds closures, which cannot
/// cross to the app, so the app, which has its scenarios, activates them itself:
///
/// ```swift
/// import URLStubsScenarios
///
/// let scenarios = [Scenario("sold-out") { stubs in … }, Scenario("in-stock") { stubs in … }]
/// try TestRunnerLink.connectIfLaunchedByTest(
///     into: .shared,
///     scenarios: LinkScenarios(names: scenarios.map(\.name)) { name, registry in
///         try ScenarioLauncher.activate(names: [name], available: scenarios, into: registry)
///     })
/// ```
///
/// A name the test asks for that is not one of the names fails its call with
/// a `StubError` that lists them. Deactivating removes the stubs the
/// registry keeps under the scenario's name, as `StubRegistry.deactivate(_:)` does.
public struct LinkScenarios: Sendable {
    /// The names the test may activate and deactivate.
    let names: [String]
    let activate: @Sendable (_ name: String, _ registry: StubRegistry) throws -> Void

    /// Scenarios named `names`, activated by `activate` (given one of `names` and the link's
    /// registry; what it throws fails the test's call with its description).
    public init(names: [String], activate: @escaping @Sendable (_ name: String, _ registry: StubRegistry) throws -> Void) {
        self.names = names
        self.activate = activate
    }

    /// Activates `name` in `registry`.
    func activate(_ name: String, in registry: StubRegistry) throws {
        guard names.contains(name) else { throw StubError.library(LinkFailure.unknownScenario(name, known: names.sorted())) }
        try activate(name, registry)
    }

    /// Removes the stubs of the active scenario `name`; `false` when it was not active.
    func deactivate(_ name: String, in registry: StubRegistry) throws -> Bool {
        guard names.contains(name) else { throw StubError.library(LinkFailure.unknownScenario(name, known: names.sorted())) }
        guard let stubs = registry.replaceStubGroup(named: name, with: nil) else { return false }
        stubs.forEach { registry.remove($0) }
        return true
    }
}
