import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

struct StreamResult {
    let megabytesPerSecond: Double
    let peakGrowthMB: Double
    let sampledGrowthMB: Double
    let chunks: Int
}

/// Writes a file of `bytes` bytes (pseudo-random 1 MB blocks) without holding it in memory.
func makeFixture(bytes: Int, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent("stream-\(bytes).bin")
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw BenchError("cannot create \(url.path)")
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let blockSize = 1 << 20
    var block = [UInt8](repeating: 0, count: blockSize)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for index in 0..<blockSize {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        block[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    var written = 0
    while written < bytes {
        let count = min(blockSize, bytes - written)
        block[0] = UInt8(truncatingIfNeeded: written >> 20)  // blocks differ a little
        try handle.write(contentsOf: block[0..<count])
        written += count
    }
    return url
}

/// Streams `file` to a delegate at unlimited speed; throughput and resident memory growth.
func runStream(file: URL, bytes: Int) async throws -> StreamResult {
    let registry = StubRegistry()
    registry.stub(isHost("files.bench.local") && isPath("/big.bin"), name: "big file") { _ in
        StubResponse(bodyFileAt: file)
    }
    let delegate = TimingDelegate()
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let session = registry.makeSession(delegate: delegate, delegateQueue: queue)
    defer { session.finishTasksAndInvalidate() }
    let task = session.dataTask(with: URL(string: "https://files.bench.local/big.bin")!)

    let before = Memory.residentKB ?? 0
    let resetWorked = Memory.resetPeak()
    let sampler = RSSSampler()
    let outcome = await delegate.run(task)
    let sampledPeak = sampler.stop()
    let peak = resetWorked ? (Memory.peakKB ?? sampledPeak) : sampledPeak
    if let error = outcome.error { throw BenchError("stream failed: \(error)") }
    guard outcome.bytes == bytes else { throw BenchError("stream delivered \(outcome.bytes) of \(bytes) bytes") }
    let seconds = outcome.finishedAt - outcome.started
    return StreamResult(
        megabytesPerSecond: Double(bytes) / 1e6 / seconds,
        peakGrowthMB: Double(max(0, peak - before)) / 1024,
        sampledGrowthMB: Double(max(0, sampledPeak - before)) / 1024,
        chunks: outcome.chunks)
}

struct PacingResult {
    let requestedSeconds: Double
    let measuredSeconds: Double
    let requestTimeMs: Double
    let rateBytesPerSecond: Double
}

/// `bytes` at `.threeG` after a `requestTime` wait, to a delegate: the head's delay measures
/// the request time, the span from head to completion measures the rate.
func runPacing(bytes: Int, requestTime: Double) async throws -> PacingResult {
    let registry = StubRegistry()
    let body = Data(repeating: 0x5A, count: bytes)
    registry.stub(isHost("slow.bench.local"), name: "paced") { _ in
        StubResponse(data: body).requestTime(requestTime, responseTime: 0).downloadSpeed(.threeG)
    }
    let delegate = TimingDelegate()
    let session = registry.makeSession(delegate: delegate)
    defer { session.finishTasksAndInvalidate() }
    let outcome = await delegate.run(session.dataTask(with: URL(string: "https://slow.bench.local/2mb")!))
    if let error = outcome.error { throw BenchError("pacing failed: \(error)") }
    guard let headAt = outcome.headAt, outcome.bytes == bytes else {
        throw BenchError("pacing delivered \(outcome.bytes) of \(bytes) bytes")
    }
    let bodySeconds = outcome.finishedAt - headAt
    return PacingResult(
        requestedSeconds: requestTime + Double(bytes) / (DownloadSpeed.threeG.kilobytesPerSecond * 1000),
        measuredSeconds: outcome.finishedAt - outcome.started,
        requestTimeMs: (headAt - outcome.started) * 1000,
        rateBytesPerSecond: Double(bytes) / bodySeconds)
}
