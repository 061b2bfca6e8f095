import Foundation
import URLStubs

/// Loads a WireMock folder when an app starts, from its launch environment or arguments: the
/// way a UI test (a separate process) tells a DEBUG app which mappings to answer with, as
/// `ScenarioLauncher` does for scenarios.
///
/// ```swift
/// // App start, DEBUG builds only:
/// #if DEBUG
/// try WireMockLauncher.activate(into: .shared)
/// #endif
///
/// // UI test:
/// app.launchEnvironment["URLSTUBS_WIREMOCK"] = "/path/to/wiremock"
/// ```
public enum WireMockLauncher {
    /// `URLSTUBS_WIREMOCK=/path/to/folder`.
    public static let environmentVariable = "URLSTUBS_WIREMOCK"
    /// `-URLStubsWireMock /path/to/folder` (launch arguments win over the environment).
    public static let launchArgument = "-URLStubsWireMock"
    /// `URLSTUBS_SEED=42` seeds the delays drawn from `delayDistribution`, to replay a run.
    public static let seedVariable = "URLSTUBS_SEED"

    /// The folder the launch asked for; `nil` when it asked for none. A relative path is read
    /// from the app bundle's resources when it is there, else from the current directory.
    public static func requestedFolder(in processInfo: ProcessInfo = .processInfo, bundle: Bundle = .main) -> URL? {
        requestedFolder(arguments: processInfo.arguments, environment: processInfo.environment, bundle: bundle)
    }

    static func requestedFolder(arguments: [String], environment: [String: String], bundle: Bundle) -> URL? {
        var value = environment[environmentVariable]
        if let index = arguments.firstIndex(of: launchArgument), index + 1 < arguments.count { value = arguments[index + 1] }
        guard let path = value?.trimmingCharacters(in: .whitespaces), !path.isEmpty else { return nil }
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        if let resources = bundle.resourceURL?.appendingPathComponent(path), FileManager.default.fileExists(atPath: resources.path) {
            return resources
        }
        return URL(fileURLWithPath: path)
    }

    /// Registers the mappings of the folder the launch asked for and returns their stubs;
    /// nothing (an empty list) when it asked for none. For `URLSession.shared` on Linux, call
    /// this before anything uses the shared session.
    ///
    /// - Throws: `FixtureError` naming each file and JSON path that cannot be read or served.
    @discardableResult
    public static func activate(
        from processInfo: ProcessInfo = .processInfo, bundle: Bundle = .main, globalTemplating: Bool = false, into registry: StubRegistry = .shared
    ) throws -> [StubDescriptor] {
        try activate(
            arguments: processInfo.arguments, environment: processInfo.environment, bundle: bundle, globalTemplating: globalTemplating,
            into: registry)
    }

    static func activate(
        arguments: [String], environment: [String: String], bundle: Bundle, globalTemplating: Bool, into registry: StubRegistry
    ) throws -> [StubDescriptor] {
        guard let folder = requestedFolder(arguments: arguments, environment: environment, bundle: bundle) else { return [] }
        let seed = environment[seedVariable].flatMap(UInt64.init)
        let stubs = try registry.stubs(fromWireMock: folder, globalTemplating: globalTemplating, seed: seed)
        if registry === StubRegistry.shared, !stubs.isEmpty { StubRegistry.activateForSharedSession() }
        return stubs
    }
}
