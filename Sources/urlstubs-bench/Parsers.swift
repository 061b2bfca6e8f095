import Foundation
import URLStubs

// Loading speed of the fixture parsers: a `.response` file with 100,000 headers, and a HAR
// archive with 10,000 entries (each with request and response headers, a JSON or base64 body
// and timings), both made in memory. Each figure is the fastest of three loads, in wall-clock
// and in process CPU time (which a busy shared host does not inflate); the HAR's memory figure is the growth of the peak RSS while it loads (the input itself excluded).

/// A `.response` file: 100,000 headers, one in ten a repeat of one name, one in a hundred a
/// `Set-Cookie`.
func responseFileWithManyHeaders(_ count: Int) -> Data {
    var text = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
    text.reserveCapacity(count * 32)
    for index in 0..<count {
        if index % 100 == 0 {
            text += "Set-Cookie: c\(index)=v\r\n"
        } else if index % 10 == 0 {
            text += "X-Repeated: r\(index)\r\n"
        } else {
            text += "X-Header-\(index): value \(index)\r\n"
        }
    }
    text += "Content-Length: 5\r\n\r\nhello"
    return Data(text.utf8)
}

/// A HAR archive of `count` typical API entries (about 900 bytes each).
func archiveWithManyEntries(_ count: Int) -> Data {
    var text = #"{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":["#
    text.reserveCapacity(count * 900)
    for index in 0..<count {
        if index > 0 { text += "," }
        let content =
            index % 10 == 0
            ? #"{"size":4,"mimeType":"application/octet-stream","text":"AAECAw==","encoding":"base64"}"#
            : #"{"size":20,"mimeType":"application/json","text":"{\"id\":\#(index),\"ok\":true}"}"#
        let millisecond = String(index % 1000)
        text += """
            {"startedDateTime":"2024-05-01T10:00:00.\(String(repeating: "0", count: 3 - millisecond.count) + millisecond)Z",
            "time":\(index % 50),"request":{"method":"GET","url":"https://api.example.com/items/\(index)?page=\(index % 7)",
            "httpVersion":"HTTP/1.1","headers":[{"name":"Accept","value":"application/json"},{"name":"User-Agent","value":"bench/1.0"},
            {"name":"Authorization","value":"Bearer token-\(index)"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},
            "response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1",
            "headers":[{"name":"Content-Type","value":"application/json"},{"name":"Cache-Control","value":"no-cache"},
            {"name":"X-Request-Id","value":"req-\(index)"},{"name":"Set-Cookie","value":"s=\(index)"}],
            "cookies":[],"content":\(content),"redirectURL":"","headersSize":-1,"bodySize":20},
            "cache":{},"timings":{"send":0,"wait":\(index % 50),"receive":0}}
            """
    }
    text += "]}}"
    return Data(text.utf8)
}

/// The fastest of `repetitions` runs of `work`, in wall-clock and in process CPU seconds
/// (the steadier reading on a shared host).
private func fastest(_ repetitions: Int, _ work: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
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
    let message = responseFileWithManyHeaders(100_000)
    let messageSeconds = try fastest(3) { _ = try StubResponse(httpMessage: message, source: "bench.response") }

    progress("parsers: a HAR with 10,000 entries…")
    let archive = archiveWithManyEntries(10_000)
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
