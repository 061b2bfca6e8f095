// A stand-in for an app launched by a UI test: it picks its fake backend from its launch
// environment (URLSTUBS_SCENARIO) or arguments (-URLStubsScenario), then loads one URL with
// URLSession.shared and prints what it got. The scenario tests run it as a child process.
// usage: urlstubs-scenario-probe <scenarios folder> <url> [-URLStubsScenario names]
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

let arguments = CommandLine.arguments
guard arguments.count >= 3, let url = URL(string: arguments[2]) else {
    print("usage: urlstubs-scenario-probe <scenarios folder> <url> [-URLStubsScenario names]")
    exit(64)
}
do {
    let scenarios = try Scenario.folders(in: URL(fileURLWithPath: arguments[1]))
    let active = try ScenarioLauncher.activate(available: scenarios)
    print("scenarios: \(active.map(\.name).joined(separator: ","))")
} catch {
    print("error: \(error)")
    exit(2)
}
do {
    let (data, response) = try await URLSession.shared.data(from: url)
    print("status: \((response as? HTTPURLResponse)?.statusCode ?? 0)")
    print("body: \(String(decoding: data, as: UTF8.self))")
} catch {
    print("failed: \(error.localizedDescription)")
    exit(1)
}
