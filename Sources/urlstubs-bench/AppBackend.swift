import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsTestRunnerLink

/// The test-runner link (a UI test driving its app's fake backend), in this process: the app's
/// end is the real `TestRunnerLink`, connected from a thread of its own into a registry; the
/// test's end speaks the link's protocol directly over loopback TCP (the bench cannot link
/// `URLStubsTesting`, which brings XCTest and Swift Testing; `AppBackend` adds one
/// continuation per call to what is measured here).
///
/// - `appBackend.stubToAppMs`: from the test sending a stub until the app's next request,
///   made when the app acknowledged it, has received that stub's body.
/// - `appBackend.requestOverheadMs`: a request answered by a stub the link added, minus one
///   answered by the same stub in a plain registry, pair by pair (requests never cross the link).
func runAppBackend(rounds: Int) async throws -> [Figure] {
    progress("appBackend: \(rounds) stubs sent to the app")
    let (listener, port) = try LoopbackSocket.listen()
    defer { listener.close() }
    let environment = [TestRunnerLink.addressVariable: "127.0.0.1:\(port)", TestRunnerLink.tokenVariable: "bench-token"]
    let linked = StubRegistry()
    let connecting = Thread {
        do {
            _ = try TestRunnerLink.connectIfLaunchedByTest(into: linked, environment: environment)
        } catch {
            progress("appBackend: \(error)")
        }
    }
    connecting.start()
    guard let test = try listener.accept(timeout: 10) else { throw BenchError("the app's end never connected") }
    defer { test.close() }
    _ = try WireMessage.decode(try WireFrame.read(from: test, timeout: 10))
    var welcome = WireMessage(.welcome)
    welcome.protocolVersion = WireMessage.protocolVersion
    welcome.setupCount = 0
    try WireFrame.send(welcome, on: test)
    _ = try WireMessage.decode(try WireFrame.read(from: test, timeout: 10))

    let url = URL(string: "https://app.bench.local/item")!
    let linkedSession = linked.makeSession()
    defer { linkedSession.finishTasksAndInvalidate() }
    var stubToApp: [Double] = []
    for index in 0..<(rounds + rounds / 10) {
        let started = now()
        var command = WireMessage(.addStub, id: index)
        command.stubID = "item"
        command.declaration =
            StubDeclaration(
                name: "item", request: RequestPattern(method: "GET", path: .equalTo("/item")),
                response: ResponseDefinition(headers: ["Content-Type": "text/plain; charset=utf-8"], body: .text("\(index)")),
                source: StubDeclaration.Source(file: "bench", line: 1)
            ).json
        try WireFrame.send(command, on: test)
        let reply = try WireMessage.decode(try WireFrame.read(from: test, timeout: 10))
        guard reply.type == "done", reply.id == index else { throw BenchError("the app answered \(reply.type): \(reply.message ?? "")") }
        let (data, _) = try await linkedSession.data(from: url)
        guard String(decoding: data, as: UTF8.self) == "\(index)" else { throw BenchError("the app's request did not see stub \(index)") }
        // The first tenth warms up and is not counted.
        if index >= rounds / 10 { stubToApp.append((now() - started) * 1000) }
    }

    progress("appBackend: \(rounds) request pairs, linked and plain")
    let plain = StubRegistry()
    plain.stub(isMethod("GET") && isPath("/item"), name: "item") { _ in
        var headers: HeaderFields = ["Content-Type": "text/plain; charset=utf-8"]
        headers["X-Plain"] = nil
        return StubResponse(data: Data("plain".utf8), headers: headers)
    }
    let plainSession = plain.makeSession()
    defer { plainSession.finishTasksAndInvalidate() }
    var overhead: [Double] = []
    for index in 0..<(rounds + rounds / 10) {
        let first = now()
        _ = try await linkedSession.data(from: url)
        let second = now()
        _ = try await plainSession.data(from: url)
        let third = now()
        if index >= rounds / 10 { overhead.append(((second - first) - (third - second)) * 1000) }
    }
    withExtendedLifetime((linked, plain)) {}
    return [
        Figure(name: "appBackend.rounds", value: Double(stubToApp.count), unit: "stubs"),
        Figure(name: "appBackend.stubToAppMs.p50", value: percentile(stubToApp, 0.5), unit: "ms", target: target("< 5") { $0 < 5 }),
        Figure(name: "appBackend.stubToAppMs.p99", value: percentile(stubToApp, 0.99), unit: "ms"),
        Figure(
            name: "appBackend.requestOverheadMs.p50", value: percentile(overhead, 0.5), unit: "ms", target: target("< 5") { $0 < 5 }),
    ]
}
