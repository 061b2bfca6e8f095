import Foundation
import URLStubs

/// Scenarios asked for by names that no scenario has (`URLSTUBS_SCENARIO`, a launcher, a UI
/// test's `activate`): thrown as `StubError.library(_:)`, listing the names there are.
///
/// ```swift
/// do {
///     try ScenarioLauncher.activate(names: ["sold-out"], available: scenarios, into: registry)
/// } catch StubError.library(ScenarioFailure.unknownScenarios(let names, let known)) {
///     print("no \(names); there are \(known)")
/// }
/// ```
public enum ScenarioFailure: LibraryFailure {
    /// Scenarios were asked for by `names` no scenario has; `known` lists the names there are.
    case unknownScenarios([String], known: [String])

    /// The failure's number under `StubError.errorDomain` (35).
    public var code: Int { 35 }

    /// The unknown names, and the known ones.
    public var description: String {
        switch self {
        case .unknownScenarios(let names, let known): return Self.unknownMessage(names, known: known)
        }
    }

    /// `URLStubs: unknown scenario "a". Known scenarios: "b", "c".`
    static func unknownMessage(_ names: [String], known: [String]) -> String {
        "URLStubs: unknown scenario\(names.count == 1 ? "" : "s") "
            + names.map { "\"\($0)\"" }.joined(separator: ", ")
            + ". Known scenarios: " + (known.isEmpty ? "none" : known.map { "\"\($0)\"" }.joined(separator: ", ")) + "."
    }
}
