// A stand-in for an app launched by a UI test: it picks its fake backend from its launch
// environment (URLSTUBS_SCENARIO) or arguments (-URLStubsScenario), then loads one URL with
// URLSession.shared and prints what it got. The scenario tests run it as a child process.
// usage: urlstubs-scenario-probe <scenarios folder> <url> [-URLStubsScenario names]
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsScenarios

/// Prints and flushes at once: stdout to a pipe is fully buffered, and a sanitizer's exit
/// (LeakSanitizer ends the process with _exit) would drop whatever is still buffered.
func say(_ text: String) {
    print(text)
    fflush(nil)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let url = URL(string: arguments[2]) else {
    say("usage: urlstubs-scenario-probe <scenarios folder> <url> [-URLStubsScenario names]")
    exit(64)
}
/// Loads the folders and activates what the launch asked for, in a function of its own so
/// the scenarios it did not activate are released before the process exits.
func activateRequestedScenarios() throws -> [String] {
    let scenarios = try Scenario.folders(in: URL(fileURLWithPath: arguments[1]))
    return try ScenarioLauncher.activate(available: scenarios).map(\.name)
}

do {
    say("scenarios: \(try activateRequestedScenarios().joined(separator: ","))")
} catch {
    say("error: \(error)")
    exit(2)
}
var status: Int32 = 0
do {
    let (data, response) = try await URLSession.shared.data(from: url)
    say("status: \((response as? HTTPURLResponse)?.statusCode ?? 0)")
    say("body: \(String(decoding: data, as: UTF8.self))")
} catch {
    say("failed: \(error.localizedDescription)")
    status = 1
}
// Nothing the probe loaded outlives it: LeakSanitizer checks the child process at exit, and
// it reported a response body the shared registry still held then as a direct leak (it did
// not find the reference; our guess is a reference stored with enum tag bits).
for name in StubRegistry.shared.activeScenarios { StubRegistry.shared.deactivate(name) }
StubRegistry.shared.removeAll()
exit(status)
