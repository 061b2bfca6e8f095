// The full run's per-request rounds, its streamed downloads and its paced bodies.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

#if os(macOS) || os(Linux)
/// Sequential async requests, the four scenarios interleaved round by round so that
/// background load hits them alike.
func runRequests(rounds: Int, requests: Int, directory: URL) async throws -> [Figure] {
    let loopbackRequests = max(10, requests / 4)
    progress("starting the loopback server…")
    let server = try LoopbackServer(directory: directory)
    defer { server.stop() }
    let (stubbed, registry1) = stubbedScenario(name: "stubbed", others: 0)
    let (constant, registryConstant) = constantScenario(name: "stubbedConstant")
    let (stubbed10k, registry10k) = stubbedScenario(name: "stubbed10k", others: 10_000)
    let (sharedPath, registryShared) = sharedPathScenario(name: "stubbed10kSharedPath")
    let (declared, registryDeclared) = try declaredScenario(name: "declared", others: 0)
    let (declared1k, registryDeclared1k) = try declaredScenario(name: "declared1k", others: 1_000)
    let scenarios = [
        baselineScenario(), hopFloorScenario(), stubbed, constant, stubbed10k, sharedPath, declared, declared1k, loopbackScenario(server: server),
    ]
    var samples: [String: [Double]] = [:]
    var cpuSamples: [String: [Double]] = [:]
    progress("warming up…")
    for scenario in scenarios {
        _ = try await scenario.run(scenario.name == "loopback" ? 100 : 500)
    }
    for round in 0..<rounds {
        if round % 25 == 0 { progress("round \(round + 1)/\(rounds)") }
        // A different scenario goes first each round, so none always follows the loopback
        // server's bursts of work.
        for offset in 0..<scenarios.count {
            let scenario = scenarios[(round + offset) % scenarios.count]
            let count = scenario.name == "loopback" ? loopbackRequests : requests
            let (wall, cpu) = try await scenario.run(count)
            samples[scenario.name, default: []].append(wall)
            cpuSamples[scenario.name, default: []].append(cpu)
        }
    }
    server.stop()
    withExtendedLifetime((registry1, registryConstant, registry10k, registryShared, registryDeclared, registryDeclared1k)) {}
    /// The median of the per-round ratios: each round's scenarios ran a few milliseconds
    /// apart, so the machine's slow drifts (other builds on shared cores) cancel out.
    func ratio(_ top: String, _ bottom: String) -> Double {
        median(zip(samples[top]!, samples[bottom]!).map { $0 / $1 })
    }
    func cpuRatio(_ top: String, _ bottom: String) -> Double {
        median(zip(cpuSamples[top]!, cpuSamples[bottom]!).map { $0 / $1 })
    }
    /// Per round, (one-liner + bare hop − baseline) / baseline: what the closure form would
    /// cost if running the closure off the loading context cost nothing beyond the bare hop.
    func closureFloor() -> Double {
        let rounds = cpuSamples["baseline"]!.indices
        return median(
            rounds.map { round in
                let baseline = cpuSamples["baseline"]![round]
                return (cpuSamples["stubbedConstant"]![round] + cpuSamples["hopFloor"]![round] - baseline) / baseline
            })
    }
    return [
        Figure(name: "baseline", value: median(samples["baseline"]!), unit: "µs/request"),
        Figure(name: "stubbed", value: median(samples["stubbed"]!), unit: "µs/request"),
        Figure(name: "stubbedConstant", value: median(samples["stubbedConstant"]!), unit: "µs/request"),
        Figure(name: "stubbed10k", value: median(samples["stubbed10k"]!), unit: "µs/request"),
        Figure(name: "stubbed10kSharedPath", value: median(samples["stubbed10kSharedPath"]!), unit: "µs/request"),
        Figure(name: "loopback", value: median(samples["loopback"]!), unit: "µs/request"),
        Figure(name: "stubbed/baseline", value: ratio("stubbed", "baseline"), unit: "ratio"),
        Figure(name: "stubbedConstant/baseline", value: ratio("stubbedConstant", "baseline"), unit: "ratio"),
        Figure(name: "stubbed10k/stubbed", value: ratio("stubbed10k", "stubbed"), unit: "ratio", target: target("≤ 1.3") { $0 <= 1.3 }),
        Figure(
            name: "stubbed10kSharedPath/stubbed", value: ratio("stubbed10kSharedPath", "stubbed"), unit: "ratio",
            target: target("≤ 1.3") { $0 <= 1.3 }),
        Figure(name: "declared/stubbedConstant", value: ratio("declared", "stubbedConstant"), unit: "ratio"),
        Figure(name: "declared1k/declared", value: ratio("declared1k", "declared"), unit: "ratio", target: target("≤ 1.3") { $0 <= 1.3 }),
        Figure(name: "loopback/stubbed", value: ratio("loopback", "stubbed"), unit: "ratio", target: target("≥ 6") { $0 >= 6 }),
        Figure(name: "loopback/baseline", value: ratio("loopback", "baseline"), unit: "ratio"),
        // Process CPU time (all threads): steady on a noisy shared host, where wall time is
        // not. The loopback server's work is in another process, so it has no CPU figure.
        Figure(name: "baseline.cpu", value: median(cpuSamples["baseline"]!), unit: "µs CPU/request"),
        Figure(name: "stubbed.cpu", value: median(cpuSamples["stubbed"]!), unit: "µs CPU/request"),
        Figure(name: "stubbedConstant.cpu", value: median(cpuSamples["stubbedConstant"]!), unit: "µs CPU/request"),
        Figure(name: "stubbed10k.cpu", value: median(cpuSamples["stubbed10k"]!), unit: "µs CPU/request"),
        Figure(name: "stubbed10kSharedPath.cpu", value: median(cpuSamples["stubbed10kSharedPath"]!), unit: "µs CPU/request"),
        // The closure form (`stub(matcher) { _ in … }`) and the one-liner (`stub(.get, url, data:)`)
        // against the minimal protocol, in CPU time.
        Figure(name: "stubbed/baseline.cpu", value: cpuRatio("stubbed", "baseline"), unit: "ratio", target: target("≤ 1.30") { $0 <= 1.30 }),
        Figure(
            name: "stubbedConstant/baseline.cpu", value: cpuRatio("stubbedConstant", "baseline"), unit: "ratio",
            target: target("≤ 1.15") { $0 <= 1.15 }),
        // The floor of running user code off the loading context (see HopFloorURLProtocol):
        // the one-liner's cost plus one bare round trip to a parked thread. The closure form
        // cannot go below it; when it is above 1.30, so is every design of the closure form.
        Figure(name: "hopFloor.cpu", value: median(cpuSamples["hopFloor"]!), unit: "µs CPU/request"),
        Figure(name: "hopFloor/baseline.cpu", value: cpuRatio("hopFloor", "baseline"), unit: "ratio"),
        // The closure form over the bare hop it cannot avoid.
        Figure(name: "stubbed/hopFloor.cpu", value: cpuRatio("stubbed", "hopFloor"), unit: "ratio"),
        Figure(name: "closureFloor/baseline.cpu", value: closureFloor(), unit: "ratio"),
    ]
}

/// A file streamed to a delegate as fast as it takes it: median throughput, largest growth.
func runStreams(bytes: Int, repetitions: Int, directory: URL) async throws -> [Figure] {
    progress("writing a \(bytes >> 20) MB fixture…")
    let file = try makeFixture(bytes: bytes, in: directory)
    defer { try? FileManager.default.removeItem(at: file) }
    var streams: [StreamResult] = []
    for repetition in 1...repetitions {
        progress("stream \(repetition)/\(repetitions)")
        streams.append(try await runStream(file: file, bytes: bytes))
    }
    return [
        Figure(name: "stream.bytes", value: Double(bytes) / 1e6, unit: "MB"),
        Figure(name: "stream.throughput", value: median(streams.map(\.megabytesPerSecond)), unit: "MB/s"),
        Figure(name: "stream.chunks", value: median(streams.map { Double($0.chunks) }), unit: "didLoad"),
        Figure(
            name: "stream.peakMemoryGrowthMB", value: streams.map(\.peakGrowthMB).max()!, unit: "MB",
            target: target("< 32") { $0 < 32 }),
        Figure(name: "stream.sampledMemoryGrowthMB", value: streams.map(\.sampledGrowthMB).max()!, unit: "MB"),
    ]
}

/// A paced body after a request time, to a delegate: medians of the repetitions.
func runPacings(bytes: Int, requestTime: Double, repetitions: Int) async throws -> [Figure] {
    var pacings: [PacingResult] = []
    for repetition in 1...repetitions {
        progress("pacing \(repetition)/\(repetitions)")
        pacings.append(try await runPacing(bytes: bytes, requestTime: requestTime))
    }
    let rate = median(pacings.map(\.rateBytesPerSecond))
    let requested = DownloadSpeed.threeG.kilobytesPerSecond * 1000
    let requestTimeMs = median(pacings.map(\.requestTimeMs))
    return [
        Figure(name: "pacing.bytes", value: Double(bytes) / 1e6, unit: "MB"),
        Figure(name: "pacing.requestedSeconds", value: median(pacings.map(\.requestedSeconds)), unit: "s"),
        Figure(name: "pacing.measuredSeconds", value: median(pacings.map(\.measuredSeconds)), unit: "s"),
        Figure(name: "pacing.rateKBps", value: rate / 1000, unit: "KB/s"),
        Figure(
            name: "pacing.rateErrorPercent", value: abs(rate - requested) / requested * 100, unit: "%",
            target: target("≤ 3") { $0 <= 3 }),
        Figure(
            name: "pacing.requestTimeErrorMs", value: abs(requestTimeMs - requestTime * 1000), unit: "ms",
            target: target("≤ 15") { $0 <= 15 }),
    ]
}

/// Everything, from a task; returns the exit status.
#endif
