import Foundation
import SyntheticFixtures
import URLStubs
import URLStubsRecording

// Loading speed of the fixture parsers: a `.response` file with 100,000 headers, and a HAR
// archive with 10,000 entries (each with request and response headers, a JSON or base64 body
// and timings), both made in memory. Each figure is the fastest of three loads, in wall-clock
// and in process CPU time (which a busy shared host does not inflate); the HAR's memory figure is the growth of the peak RSS while it loads (the input itself excluded).

/// The fastest of `repetitions` runs of `work`, in wall-clock and in process CPU seconds
/// (the steadier reading on a shared host).
func fastest(_ repetitions: Int, _ work: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    var best = (wall: Double.infinity, cpu: Double.infinity)
    for _ in 0..<repetitions {
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = processCPUTime()
        try work()
        best.cpu = min(best.cpu, processCPUTime() - cpuStart)
        best.wall = min(best.wall, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

func runParsers() throws -> [Figure] {
    progress("parsers: a .response file with 100,000 headers…")
    let message = SyntheticFixtures.responseFile(headers: 100_000)
    let messageSeconds = try fastest(3) { _ = try StubResponse(httpMessageData: message, source: "bench.response") }

    progress("parsers: a HAR with 10,000 entries…")
    let archive = SyntheticFixtures.archive(entries: 10_000)
    // Memory first, on a fresh peak, then the speed.
    let before = Memory.residentKB ?? 0
    let sampler = RSSSampler(intervalMilliseconds: 2)
    let peakReset = Memory.resetPeak()
    var entries = try HAR.read(archive, source: "bench.har")
    let sampled = sampler.stop()
    let peak = peakReset ? max(Memory.peakKB ?? sampled, sampled) : sampled
    let growthMB = Double(max(0, peak - before)) / 1024
    guard entries.count == 10_000 else { throw BenchError("the HAR read \(entries.count) entries, not 10,000") }
    entries = []
    let harSeconds = try fastest(3) { _ = try HAR.read(archive, source: "bench.har") }
    withExtendedLifetime(entries) {}
    return [
        Figure(name: "httpMessage100kHeaders.loadSeconds", value: messageSeconds.wall, unit: "s", target: target("< 1") { $0 < 1 }),
        Figure(name: "httpMessage100kHeaders.cpuSeconds", value: messageSeconds.cpu, unit: "s CPU"),
        Figure(name: "har10k.loadSeconds", value: harSeconds.wall, unit: "s", target: target("< 1") { $0 < 1 }),
        Figure(name: "har10k.cpuSeconds", value: harSeconds.cpu, unit: "s CPU"),
        Figure(name: "har10k.memoryGrowthMB", value: growthMB, unit: "MB", target: target("< 64") { $0 < 64 }),
    ]
}
