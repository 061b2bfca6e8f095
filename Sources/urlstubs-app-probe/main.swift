// A stand-in for an app launched by a UI test that drives its fake backend live: it connects
// to the test's AppBackend at launch (TestRunnerLink, from the launch environment), loads one
// URL at launch with URLSession.shared, then obeys commands on stdin and prints what it got.
// The AppBackend tests run it as a child process.
//
// usage: urlstubs-app-probe <fixtures folder>
// stdin, one command a line:
//   get <tag> <url>       load with URLSession.shared; prints "<tag>: <status> <body>" or
//                         "<tag> failed: <URLError code> <description>"
//   count <tag> <url>     load with URLSession.shared; prints "<tag>: <status> <n> bytes, first "<byte>""
//   env <tag> <NAME>      prints "<tag>: <NAME> is set" or "… is not set" (the process environment)
//   stream <tag> <url>    load with a delegate; prints "<tag> chunk: <text>" per delivery, then "<tag> done"
//   quit                  exit
// URLSTUBS_PROBE_TIMEOUT: seconds connectIfLaunchedByTest waits for the first stubs (default 10).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsScenarios
import URLStubsTestRunnerLink

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    Probe.say("usage: urlstubs-app-probe <fixtures folder>")
    exit(64)
}

/// The app's own scenarios, which the test switches between.
let scenarios = [
    Scenario("sold-out") { stubs in
        stubs.stub(isPath("/api/cart")) { _ in StubResponse(string: "sold out", statusCode: 409) }
    },
    Scenario("in-stock") { stubs in
        stubs.stub(isPath("/api/cart")) { _ in StubResponse(string: "in stock") }
    },
]
let timeout = ProcessInfo.processInfo.environment["URLSTUBS_PROBE_TIMEOUT"].flatMap(TimeInterval.init) ?? 10
/// The link, let go of before exit (LeakSanitizer checks the child at exit).
var link: TestRunnerLink?
do {
    link = try TestRunnerLink.connectIfLaunchedByTest(
        into: .shared,
        scenarios: LinkScenarios(names: scenarios.map(\.name)) { name, registry in
            try ScenarioLauncher.activate(names: [name], available: scenarios, into: registry)
        }, fixtures: .folder(URL(fileURLWithPath: arguments[1])), timeout: timeout)
    Probe.say(link == nil ? "link: none" : "link: connected")
} catch {
    Probe.say("link error: \(error)")
}

await withCheckedContinuation { (launched: CheckedContinuation<Void, Never>) in
    Probe.load("launch", URL(string: "https://api.shop.test/launch")!) { launched.resume() }
}
await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    Thread {
        Probe.obeyCommands()
        done.resume()
    }.start()
}
// Nothing the probe loaded outlives it (LeakSanitizer checks the child at exit).
link?.disconnect()
link = nil
for name in StubRegistry.shared.activeScenarios { StubRegistry.shared.deactivate(name) }
StubRegistry.shared.removeAll()
StubRegistry.shared.resetJournal()  // its entries hold the stubs that answered
exit(0)
