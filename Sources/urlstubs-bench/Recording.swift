import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsRecording

#if os(macOS) || os(Linux)
/// Recording real traffic into a cassette: `exchanges` sequential requests of `bodyBytes` each
/// to the loopback server, recorded in `.all` mode, then saved.
///
/// - `record<N>x<K>KB.seconds`: the whole run, save included.
/// - `record.perExchangeMs.first` / `.last`: the median time of the first and of the last 50
///   exchanges (request to response), and their ratio (target ≤ 2: each exchange costs the
///   same however many were recorded before it).
/// - `record.catchUpSeconds`: how long the writer (scrubbing, appending to the partial file)
///   still needed after the last response.
/// - `record.saveSeconds`: the one atomic write of the cassette at the end.
func runRecording(exchanges: Int, bodyBytes: Int, directory: URL) async throws -> [Figure] {
    progress("starting the loopback server for recording…")
    let server = try LoopbackServer(directory: directory)
    defer { server.stop() }
    let cassette = directory.appendingPathComponent("recording.har")
    let registry = StubRegistry()
    let recorder = try registry.record(to: cassette, mode: .all, environment: [:], testName: "urlstubs-bench")
    let session = registry.makeSession()
    defer { session.finishTasksAndInvalidate() }
    var durations: [Double] = []
    let started = now()
    for index in 0..<exchanges {
        if index % 250 == 0 { progress("recording \(index + 1)/\(exchanges)") }
        let url = URL(string: "http://127.0.0.1:\(server.port)/text/\(bodyBytes)?exchange=\(index)")!
        let before = now()
        let (data, _) = try await session.data(for: URLRequest(url: url))
        durations.append(now() - before)
        guard data.count == bodyBytes else { throw BenchError("recording: \(data.count) bytes instead of \(bodyBytes)") }
    }
    let drainStarted = now()
    _ = recorder.recordedEntries.count  // waits for the writer to catch up
    let saveStarted = now()
    try recorder.save()
    let finished = now()
    server.stop()
    let recorded = try HAR.read(contentsOf: cassette).count
    guard recorded == exchanges else { throw BenchError("recording: \(recorded) entries saved instead of \(exchanges)") }
    let window = min(50, max(1, exchanges / 10))
    let first = median(Array(durations.prefix(window))) * 1000
    let last = median(Array(durations.suffix(window))) * 1000
    let name = "record\(exchanges)x\(bodyBytes / 1024)KB.seconds"
    return [
        Figure(name: name, value: finished - started, unit: "s"),
        Figure(name: "record.perExchangeMs.first", value: first, unit: "ms"),
        Figure(name: "record.perExchangeMs.last", value: last, unit: "ms"),
        Figure(name: "record.perExchangeMs.last/first", value: last / first, unit: "ratio", target: target("≤ 2") { $0 <= 2 }),
        Figure(name: "record.catchUpSeconds", value: saveStarted - drainStarted, unit: "s"),
        Figure(name: "record.saveSeconds", value: finished - saveStarted, unit: "s"),
    ]
}
#endif
