// TestSupport: the helpers every test target of this package shares: the ways app code reads a
// response (`fetch`, `FetchAPI`), the model of Apple's loading client (`AppleLoadingModel`), a
// raw streaming connection, request bodies by transport, child processes, threads of their own,
// temporary files, a closed loopback port, and the repository's Fixtures folder.
//
// Test targets import it with `@testable import TestSupport`: the helpers are test code, kept
// internal so they never read as API (SwiftPM's debug builds compile every target for testing).
// A helper one test target alone uses stays in that target's `Support/` folder; the loopback HTTP
// server and the child-process runner live in `LoopbackTestServer`, next to this target.
import Foundation

/// The top-level Fixtures folder of the repository.
let fixturesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

/// The executable target `name` of this package (a probe app), built next to the tests: in the
/// folder of the test binary on Linux, of the test bundle on macOS (where the binary running the
/// tests is Xcode's `xctest` or SwiftPM's testing helper); `nil` when it was not built.
func builtExecutable(_ name: String) -> URL? {
    [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent(),
    ].map { $0.appendingPathComponent(name) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// A class of this module, whose bundle is the test bundle on macOS.
private final class BundleMarker {}
