import Foundation
import URLStubs

/// Chooses scenarios when an app starts, from its launch environment or arguments: the way
/// a UI test (a separate process) tells a DEBUG app which backend state to fake.
///
/// ```swift
/// // App start, DEBUG builds only:
/// #if DEBUG
/// if let folder = Bundle.main.url(forResource: "Scenarios", withExtension: nil) {  // an app bundle's folder
///     try ScenarioLauncher.activate(from: .processInfo, available: try Scenario.folders(in: folder), into: .shared)
/// }
/// #endif
///
/// // UI test:
/// app.launchEnvironment["URLSTUBS_SCENARIO"] = "empty-cart,slow-network"
/// ```
public enum ScenarioLauncher {
    /// `URLSTUBS_SCENARIO=empty-cart,slow-network`.
    public static let environmentVariable = "URLSTUBS_SCENARIO"
    /// `-URLStubsScenario empty-cart,slow-network` (launch arguments win over the environment).
    public static let launchArgument = "-URLStubsScenario"
    /// `URLSTUBS_SEED=42` replaces every selected scenario's profile seed, to replay a run.
    public static let seedVariable = "URLSTUBS_SEED"

    /// The scenario names asked for, in order (empty when none).
    public static func requestedNames(in processInfo: ProcessInfo = .processInfo) -> [String] {
        requestedNames(arguments: processInfo.arguments, environment: processInfo.environment)
    }

    static func requestedNames(arguments: [String], environment: [String: String]) -> [String] {
        var value = environment[environmentVariable]
        if let index = arguments.firstIndex(of: launchArgument), index + 1 < arguments.count {
            value = arguments[index + 1]
        }
        return (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Activates the scenarios the launch asked for, in the order given (later ones take
    /// precedence), and returns them. For `URLSession.shared` on Linux, call this before
    /// anything uses the shared session.
    /// - Throws: ``ScenarioFailure/unknownScenarios(_:known:)`` (as `StubError.library`), listing the known
    ///   names.
    @discardableResult
    public static func activate(
        from processInfo: ProcessInfo = .processInfo, available: [Scenario],
        into registry: StubRegistry = .shared
    ) throws -> [Scenario] {
        try activate(
            names: requestedNames(in: processInfo), seed: processInfo.environment[seedVariable].flatMap(UInt64.init),
            available: available, into: registry)
    }

    /// Activates scenarios by name, in order (for apps that read the names from their own
    /// settings); `seed` replaces the profiles' seeds.
    /// - Throws: ``ScenarioFailure/unknownScenarios(_:known:)`` (as `StubError.library`), listing the known
    ///   names.
    @discardableResult
    public static func activate(
        names: [String], seed: UInt64? = nil, available: [Scenario],
        into registry: StubRegistry = .shared
    ) throws -> [Scenario] {
        let unknown = names.filter { name in !available.contains { $0.name == name } }
        guard unknown.isEmpty else { throw StubError.library(ScenarioFailure.unknownScenarios(unknown, known: available.map(\.name).sorted())) }
        let chosen = names.compactMap { name in available.first { $0.name == name } }
        for var scenario in chosen {
            if let seed, scenario.profile != nil { scenario.profile?.seed = seed }
            registry.activate(scenario)
        }
        if registry === StubRegistry.shared, !chosen.isEmpty { StubRegistry.activateForSharedSession() }
        return chosen
    }
}
