// TestSupport: the helpers every test target of this package shares, one idea per file.
//
// - `Fetch.swift`: `fetch(_:from:using:)` and `FetchAPI`, the ways app code reads a response
//   (completion handler, async, delegate, the Apple model); behaviour tests run through each.
//   `FetchResult`, `DelegateRecorder`, `patternData`, `request(_:)` and `sharedStubsActivated`.
// - `AppleLoadingModel.swift` (Linux): the model of Apple's loading client, which drives
//   `StubURLProtocol` as CFNetwork does, so the Apple loading path runs here; its header lists
//   each rule and where it comes from. `StreamConnection.swift`: a streaming read through a
//   delegate, of a real session or of the model, and `FetchAPI.streamingAPIs`;
//   `EventSourceClient.swift`: a server-sent-events client as an app writes one.
// - `BodyTransport.swift`: the ways app code hands a request body to `URLSession`
//   (`send(_:body:via:to:)`), and `MultipartForm`.
// - `ChildProcess.swift`: a child process run to its end with a time limit
//   (`runChildProcess`), or one test of this binary run as a child (`runTestInChildProcess`),
//   for whatever may crash or hang. `SpawnedProcess` itself is in `LoopbackTestServer`.
// - `OwnThread.swift`: `onItsOwnThread` and `StartedOnItsOwnThread`, for work that blocks or
//   takes long (see the rule below). `WaitUntil.swift`: polls a condition that hooks on other
//   queues make true.
// - `FailureCapturingTestCase.swift`: an XCTest case that captures its own failures, to check
//   what a helper records. `GraphQLClient.swift`: a client that sends GraphQL the way Apollo
//   iOS does. `TemporaryFiles.swift`, `ClosedPort.swift`, `ResidentMemory.swift`,
//   `NestedJSON.swift`: a temporary cassette or folder, a loopback port nothing listens on,
//   this process's RSS, JSON nested past the reader's limit. `EventLog.swift`: a list hooks
//   append to from any queue.
// - Here: `fixturesFolder` (the repository's Fixtures folder) and `builtExecutable(_:)`.
//
// The rule: tests never block a thread they do not own. Swift's cooperative pool has one thread
// per core, and dispatch's worker pool also runs URLSession's queues and the library's own, so a
// test that waits on either for seconds (a child process, a big parse, a semaphore) stalls other
// tests' networking. Such waits run on a thread of their own (`onItsOwnThread`); timers use
// `asyncAfter`, which blocks nothing. The one exception is `SpawnedProcessTests`, which starts
// a child from a dispatch worker on purpose, to check the child's signal mask.
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
