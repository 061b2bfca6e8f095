import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// Timing, chunking, timeouts, faults and cancellation. Time bounds are deliberately loose
/// (shared 2-core machines); the benchmark measures accuracy.
@Suite("Network simulation")
struct SimulationTests {
    private func timed(_ body: () async -> FetchResult) async -> (FetchResult, Double) {
        let start = Date()
        let result = await body()
        return (result, Date().timeIntervalSince(start))
    }

    @Test(arguments: FetchAPI.allCases)
    func responseTimeSpreadsTheBody(api: FetchAPI) async {
        let registry = StubRegistry()
        let body = patternData(20_000)
        registry.stub(isPath("/slow")) { _ in StubResponse(data: body).requestTime(0.1, responseTime: 0.5) }
        let (result, elapsed) = await timed { await fetch("https://api.test/slow", from: registry, using: api) }
        #expect(result.data == body)
        #expect(elapsed >= 0.5, "took \(elapsed) s")
        #expect(elapsed < 300, "it ends: generous, for sanitizers on a loaded 2-core machine")
        if api == .delegate {
            #expect(result.chunks.count >= 5, "a paced body arrives in several chunks, got \(result.chunks.count)")
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func downloadSpeedPacesTheBody(api: FetchAPI) async {
        let registry = StubRegistry()
        let body = patternData(12_000)
        registry.stub(isPath("/kbps")) { _ in StubResponse(data: body).downloadSpeed(.kilobytesPerSecond(30)) }
        // OHHTTPStubs' negative response time (URLStubsMigration's `.responseTime(-30)`) is a speed.
        registry.stub(isPath("/negative")) { _ in
            var response = StubResponse(data: body)
            response.pacing.responseTime = -30
            return response
        }
        for path in ["/kbps", "/negative"] {
            let (result, elapsed) = await timed { await fetch("https://api.test\(path)", from: registry, using: api) }
            #expect(result.data == body)
            #expect(elapsed >= 0.35, "12 KB at 30 KB/s takes 0.4 s, took \(elapsed) s")
            if api == .delegate { #expect(result.chunks.count >= 4) }
        }
    }

    @Test func namedSpeeds() {
        #expect(DownloadSpeed.gprs.kilobytesPerSecond == 7)
        #expect(DownloadSpeed.edge.kilobytesPerSecond == 16)
        #expect(DownloadSpeed.threeG.kilobytesPerSecond == 400)
        #expect(DownloadSpeed.threeGPlus.kilobytesPerSecond == 900)
        #expect(DownloadSpeed.wifi.kilobytesPerSecond == 1500)
        #expect(StubResponse(data: Data()).downloadSpeed(.threeG).pacing.responseTime == -400)
    }

    @Test(arguments: FetchAPI.allCases, [0, -400, Double.nan, Double.infinity])
    func aSpeedThatIsNotPositiveFailsAtOnceSayingWhatToType(api: FetchAPI, kilobytesPerSecond: Double) async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/slow"), name: "slow") { _ in
            StubResponse(data: Data(count: 100)).downloadSpeed(.kilobytesPerSecond(kilobytesPerSecond))
        }
        let clock = FinishClock(registry)
        let start = Date()
        let result = await fetch("https://api.test/slow", from: registry, using: api)
        guard case .invalidDownloadSpeed(let speed, let stub)? = result.stubError else {
            Issue.record("expected invalidDownloadSpeed, got \(String(describing: result.error))")
            return
        }
        #expect(speed.isNaN ? kilobytesPerSecond.isNaN : speed == kilobytesPerSecond)
        #expect(stub.contains("\"slow\""))
        #expect(String(describing: result.stubError).contains(".downloadSpeed(.threeG)"))
        // Trickled at the old floor of a byte a second, 100 bytes took 100 s; the bound is
        // generous for sanitizer runs on a loaded machine, and read on the engine's side: the
        // test's own task may wait far longer for a thread while the suite runs.
        let elapsed = try #require(clock.secondsToFirstEnd(since: start), "the exchange ended")
        #expect(elapsed < 30, "fails at once instead of trickling")
    }

    @Test(arguments: FetchAPI.allCases)
    func requestTimeDelaysTheHead(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/late")) { _ in StubResponse(data: Data("late".utf8)).requestTime(0.3, responseTime: 0) }
        let (result, elapsed) = await timed { await fetch("https://api.test/late", from: registry, using: api) }
        #expect(result.body == "late")
        #expect(elapsed >= 0.3)
    }

    @Test(arguments: FetchAPI.allCases, [0, 1, 4_097, 1_000_003, 10_000_000])
    func everyByteArrivesOnceInOrder(api: FetchAPI, size: Int) async {
        let registry = StubRegistry()
        let body = patternData(size, seed: UInt8(size % 251))
        registry.stub(isPath("/fast")) { _ in StubResponse(data: body) }
        // Paced fast enough to keep the suite short, slow enough to cut the body into chunks.
        registry.stub(isPath("/paced")) { _ in StubResponse(data: body).requestTime(0, responseTime: size > 1_000_000 ? 0.4 : 0.1) }
        for path in ["/fast", "/paced"] {
            let result = await fetch("https://api.test\(path)", from: registry, using: api)
            #expect(result.error == nil)
            #expect(result.data?.count ?? 0 == size, "\(path)")
            #expect(result.data == body || (size == 0 && (result.data ?? Data()).isEmpty), "\(path)")
            if api == .delegate, path == "/paced", size > 100_000 {
                #expect(result.chunks.count > 2)
            }
        }
    }

    @Test(arguments: FetchAPI.allCases)
    func requestTimeBeyondTimeoutFailsWithTimedOut(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isPath("/slow-head")) { _ in StubResponse(data: Data("never seen".utf8)).requestTime(600, responseTime: 0) }
        var slow = request("https://api.test/slow-head")
        slow.timeoutInterval = 0.3
        let (result, elapsed) = await timed { await fetch(slow, from: registry, using: api) }
        #expect(result.urlError?.code == .timedOut)
        #expect(elapsed < 120, "the timeout fired at its time, not at the 600 s request time")
    }

    @Test func configurationTimeoutApplies() async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in .neverResponding() }
        let (result, elapsed) = await timed {
            await fetch(request("https://api.test/dead"), from: registry) { $0.timeoutIntervalForRequest = 0.3 }
        }
        #expect(result.urlError?.code == .timedOut)
        // Which timeout fired is in the message; the clock only shows that one did.
        #expect(result.error?.localizedDescription.contains("nothing for 0.3 s") == true, "\(String(describing: result.error))")
        #expect(elapsed < 300, "without the timeout this request would never end")
    }

    @Test(arguments: FetchAPI.allCases)
    func neverRespondingStubTimesOut(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(isHost("dead.test")) { _ in .neverResponding() }
        var dead = request("https://dead.test/")
        dead.timeoutInterval = 0.2
        let result = await fetch(dead, from: registry, using: api)
        #expect(result.urlError?.code == .timedOut)
    }

    @Test(arguments: FetchAPI.allCases)
    func errorAfterADelay(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(error: URLError(.notConnectedToInternet)).requestTime(0.2, responseTime: 0) }
        let (result, elapsed) = await timed { await fetch("https://api.test/", from: registry, using: api) }
        #expect(result.urlError?.code == .notConnectedToInternet)
        #expect(elapsed >= 0.2)
    }

    @Test func connectionLostMidBodyDeliversExactlyTheFirstBytes() async {
        let registry = StubRegistry()
        let body = patternData(50_000)
        let log = EventLog()
        registry.stub(.any) { _ in StubResponse(data: body).requestTime(0, responseTime: 0.2).failing(afterBytes: 12_345) }
        registry.afterFinish { _, _, _, error in log.append("\((error as? URLError)?.code.rawValue ?? 0)") }
        let delegate = await fetch("https://api.test/lost", from: registry, using: .delegate)
        #expect(delegate.urlError?.code == .networkConnectionLost)
        #expect(delegate.chunks.reduce(0) { $0 + $1.count } == 12_345)
        #expect(delegate.chunks.reduce(Data(), +) == body.prefix(12_345))
        let completion = await fetch("https://api.test/lost", from: registry, using: .completionHandler)
        #expect(completion.urlError?.code == .networkConnectionLost)
        try? await waitUntil { log.events.count == 2 }
        #expect(log.events == Array(repeating: "\(URLError.Code.networkConnectionLost.rawValue)", count: 2))
    }

    @Test(arguments: FetchAPI.allCases)
    func truncatedBodyEndsEarlyWithFullContentLength(api: FetchAPI) async {
        let registry = StubRegistry()
        let body = patternData(10_000)
        registry.stub(.any) { _ in StubResponse(data: body).truncated(afterBytes: 4_000) }
        let result = await fetch("https://api.test/truncated", from: registry, using: api)
        #expect(result.data == body.prefix(4_000))
        #expect(result.response?.expectedContentLength == 10_000)
    }

    @Test(arguments: FetchAPI.allCases)
    func headRequestGetsNoBody(api: FetchAPI) async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(data: Data("body".utf8)) }
        let result = await fetch(request("https://api.test/", method: "HEAD"), from: registry, using: api)
        #expect(result.data?.isEmpty ?? true)
        #expect(result.response?.expectedContentLength == 4)
    }

    @Test func cancellingMidBodyStopsReadingAndClosesTheStream() async throws {
        let registry = StubRegistry()
        // 2 MB at 20 KB/s takes 100 s: the cancel lands mid-body even on a very slow machine.
        nonisolated(unsafe) let stream = TrackingInputStream(data: patternData(2_000_000))
        let log = EventLog()
        registry.stub(.any) { _ in
            StubResponse(streamLength: 2_000_000) { stream }.downloadSpeed(.kilobytesPerSecond(20))
        }
        registry.afterFinish { _, _, _, error in log.append("finish \((error as? URLError)?.code == .cancelled)") }
        let recorder = DelegateRecorder()
        let session = registry.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request("https://api.test/big"))
        async let outcome = recorder.run(task)
        try await waitUntil(timeout: 120) { recorder.chunkCount >= 2 }
        let cancelledMidBody = recorder.chunkCount >= 2
        task.cancel()
        let result = await outcome
        #expect(result.urlError?.code == .cancelled)
        try #require(cancelledMidBody, "two chunks never arrived: the cancel did not land mid-body")
        #expect(stream.wasOpened)
        let chunksAtCancel = recorder.chunkCount
        // A read already under way when the task was cancelled may still finish (a blocked
        // stream is never waited for); the stream is closed once it has, and nothing is read
        // after that.
        try await waitUntil(timeout: 120) { stream.isClosed }
        #expect(stream.isClosed)
        let bytesReadAtClose = stream.bytesRead
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(recorder.chunkCount == chunksAtCancel, "no callback after stopLoading")
        #expect(stream.bytesRead == bytesReadAtClose, "no read after the stream was closed")
        #expect(stream.bytesRead < 2_000_000)
        try await waitUntil { !log.events.isEmpty }
        #expect(log.events == ["finish true"])
    }

    @Test func streamErrorMidReadFailsClearly() async {
        let registry = StubRegistry()
        registry.stub(.any, name: "flaky stream") { _ in
            StubResponse(streamLength: 1_000) { FailingInputStream(failAfter: 300) }
        }
        let result = await fetch("https://api.test/flaky", from: registry, using: .delegate)
        guard case .bodyStreamFailed(let stub, let bytes, _)? = result.stubError else {
            Issue.record("expected bodyStreamFailed, got \(String(describing: result.error))")
            return
        }
        #expect(stub.contains("flaky stream"))
        #expect(bytes == 300)
    }

    #if !URLSTUBS_APPLE_LOADING
    // Linux-only: corelibs crashes on a custom protocol's download task; Apple's system stubs them.
    @Test func downloadTasksFailClearlyOnLinux() async {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(data: Data("file".utf8)) }
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let error: (any Error)? = await withCheckedContinuation { continuation in
            session.downloadTask(with: URL(string: "https://api.test/file")!) { _, _, error in
                continuation.resume(returning: error)
            }.resume()
        }
        guard case .downloadTasksUnsupported(let url)? = error as? StubError else {
            Issue.record("expected downloadTasksUnsupported, got \(String(describing: error))")
            return
        }
        #expect(url == "https://api.test/file")
        #expect("\(error!)".contains("data task"))
    }
    #endif

    @Test(arguments: FetchAPI.allCases)
    func sixtyFourMegabyteFileArrivesIntact(api: FetchAPI) async throws {
        let size = 64 * 1024 * 1024
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("urlstubs-64mb-\(UUID().uuidString)")
        let body = patternData(size, seed: 99)
        try body.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let registry = StubRegistry()
        registry.stub(isPath("/unlimited")) { _ in try StubResponse(fixture: url) }
        registry.stub(isPath("/paced")) { _ in try StubResponse(fixture: url).downloadSpeed(.kilobytesPerSecond(256_000)) }
        for path in ["/unlimited", "/paced"] {
            let result = await fetch("https://api.test\(path)", from: registry, using: api)
            #expect(result.data?.count == size, "\(path)")
            #expect(result.data == body, "\(path): every byte once, in order")
        }
    }
}

/// A stream that counts what was read and remembers being closed.
final class TrackingInputStream: InputStream {
    private let data: Data
    private let lock = NSLock()
    private var position = 0
    private var status: Stream.Status = .notOpen

    override init(data: Data) {
        self.data = data
        super.init(data: Data())
    }

    var bytesRead: Int { lock.lock(); defer { lock.unlock() }; return position }
    var isClosed: Bool { lock.lock(); defer { lock.unlock() }; return status == .closed }
    /// `true` once opened, even if closed since.
    var wasOpened: Bool { lock.lock(); defer { lock.unlock() }; return status != .notOpen }

    override func open() { lock.lock(); status = .open; lock.unlock() }
    override func close() { lock.lock(); status = .closed; lock.unlock() }
    override var streamStatus: Stream.Status { lock.lock(); defer { lock.unlock() }; return status }
    override var hasBytesAvailable: Bool { bytesRead < data.count }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        lock.lock(); defer { lock.unlock() }
        let count = min(len, data.count - position)
        guard count > 0 else { return 0 }
        data.copyBytes(to: buffer, from: position..<(position + count))
        position += count
        return count
    }
}

/// A stream that fails after `failAfter` bytes.
final class FailingInputStream: InputStream {
    private let failAfter: Int
    private var position = 0

    init(failAfter: Int) {
        self.failAfter = failAfter
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { true }
    override var streamError: (any Error)? { position >= failAfter ? URLError(.cannotDecodeRawData) : nil }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        if position >= failAfter { return -1 }
        let count = min(len, failAfter - position)
        buffer.initialize(repeating: 65, count: count)
        position += count
        return count
    }
}
