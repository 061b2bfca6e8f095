// A stand-in for an app launched by a UI test that drives its fake backend live: it connects
// to the test's AppBackend at launch (TestRunnerLink, from the launch environment), loads one
// URL at launch with URLSession.shared, then obeys commands on stdin and prints what it got.
// The AppBackend tests run it as a child process.
//
// usage: urlstubs-app-probe <fixtures folder>
// stdin, one command a line:
//   get <tag> <url>       load with URLSession.shared; prints "<tag>: <status> <body>" or "<tag> failed: <error>"
//   stream <tag> <url>    load with a delegate; prints "<tag> chunk: <text>" per delivery, then "<tag> done"
//   quit                  exit
// URLSTUBS_PROBE_TIMEOUT: seconds connectIfLaunchedByTest waits for the first stubs (default 10).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Prints and flushes at once: stdout to a pipe is fully buffered.
func say(_ text: String) {
    print(text.replacingOccurrences(of: "\n", with: "\\n"))
    fflush(nil)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    say("usage: urlstubs-app-probe <fixtures folder>")
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
do {
    let link = try TestRunnerLink.connectIfLaunchedByTest(
        into: .shared, scenarios: scenarios, fixtures: .folder(URL(fileURLWithPath: arguments[1])), timeout: timeout)
    say(link == nil ? "link: none" : "link: connected")
} catch {
    say("link error: \(error)")
}

func describe(_ error: any Error) -> String {
    (error as NSError).localizedDescription
}

func load(_ tag: String, _ url: URL) async {
    do {
        let (data, response) = try await URLSession.shared.data(from: url)
        say("\(tag): \((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self))")
    } catch {
        say("\(tag) failed: \(describe(error))")
    }
}

/// Prints each delivery of a streamed body as it comes.
final class ChunkPrinter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let tag: String
    init(tag: String) { self.tag = tag }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        say("\(tag) chunk: \(String(decoding: data, as: UTF8.self))")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        say(error.map { "\(tag) failed: \(describe($0))" } ?? "\(tag) done")
        session.finishTasksAndInvalidate()
    }
}

func stream(_ tag: String, _ url: URL) {
    let configuration = URLSessionConfiguration.ephemeral
    StubRegistry.shared.install(into: configuration)
    let session = URLSession(configuration: configuration, delegate: ChunkPrinter(tag: tag), delegateQueue: nil)
    session.dataTask(with: url).resume()
}

await load("launch", URL(string: "https://api.shop.test/launch")!)
while let line = readLine() {
    let words = line.split(separator: " ").map(String.init)
    guard let verb = words.first else { continue }
    if verb == "quit" { break }
    guard words.count == 3, let url = URL(string: words[2]) else {
        say("unknown command: \(line)")
        continue
    }
    let tag = words[1]
    switch verb {
    case "get": Task.detached { await load(tag, url) }
    case "stream": stream(tag, url)
    default: say("unknown command: \(line)")
    }
}
// Nothing the probe loaded outlives it (LeakSanitizer checks the child at exit).
for name in StubRegistry.shared.activeScenarios { StubRegistry.shared.deactivate(name) }
StubRegistry.shared.removeAll()
exit(0)
