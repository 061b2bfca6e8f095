import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A streamed body being played: the test's writes to a ``LiveStream``, or a script's writes
/// at their moments. Touched on the delivery context only.
final class StreamPlayback {
    enum Source {
        case live(LiveStream, LiveConnection)
        case script([TimedWrite])
    }

    /// A script's write, with when it is due after the head.
    struct TimedWrite {
        /// Seconds of pauses before it.
        let pauses: TimeInterval
        /// Bytes written up to and including it, for pacing.
        let bytesThrough: Int
        let write: LiveWrite
    }

    let source: Source
    /// The next script write to send.
    var next = 0
    /// What a consumer that keeps only the last `didLoad` (corelibs' completion handlers and
    /// `async` calls) gets at the end, in one piece.
    var whole = Data()

    init(_ source: Source) { self.source = source }

    /// Lets go of the live stream: later writes wait for the next request.
    func stop() {
        if case .live(let stream, let connection) = source { stream.disconnect(connection) }
    }
}

/// Streamed bodies: each write reaches the app when it is made (a live stream) or when it is due
/// (a script), as its own `didLoad`, and the request's timeout bounds the gap between writes.
extension ResponsePlayer {
    /// Sends the head and starts the writes. A live stream that cannot take this request, or a
    /// script with a step that cannot be framed, fails the request before any head.
    func startStream() {
        guard let item else { return }
        let response = item.response
        let stub = item.descriptor.description
        guard let http = response.head(for: currentURL, bodyLength: nil) else {
            fail(StubError.invalidStatusCode(response.statusCode, stub: stub))
            return
        }
        let isHead = item.request.method == "HEAD"
        if !isHead {
            switch makePlayback(of: response.body, for: item.request, stub: stub) {
            case .success(let playback): streamPlayback = playback
            case .failure(let error):
                fail(error)
                return
            }
        }
        guard deliverHead(http, of: item) else { return }
        if isHead {
            conclude(.finished(response)) { $0.playerDidFinish() }
            return
        }
        bodyStart = .now()
        switch streamPlayback?.source {
        case .live?: takeLiveWrites()
        case .script?: playScript()
        case nil: break
        }
    }

    private func makePlayback(of body: StubBody, for request: StubRequest, stub: String) -> Result<StreamPlayback, StubError> {
        switch body.source {
        case .live(let stream):
            let scheduler = environment.scheduler
            // Weak: a stream the test keeps must not keep a finished request alive.
            let connected = stream.connect(request) { [weak self] in
                scheduler.async { [weak self] in
                    guard let self else { return }
                    newStep()
                    takeLiveWrites()
                }
            }
            switch connected {
            case .success(let connection): return .success(StreamPlayback(.live(stream, connection)))
            case .failure(.busy): return .failure(.liveStreamBusy(stream: stream.description, stub: stub))
            case .failure(.ended): return .failure(.liveStreamEnded(stream: stream.description, stub: stub))
            }
        case .script(let steps):
            return timedWrites(of: steps, stub: stub).map { StreamPlayback(.script($0)) }
        case .data, .file, .stream:
            return .failure(.invalidStreamStep(stub: stub, reason: "the body is not a stream"))
        }
    }

    private func timedWrites(of steps: [StreamStep], stub: String) -> Result<[StreamPlayback.TimedWrite], StubError> {
        var writes: [StreamPlayback.TimedWrite] = []
        var pauses: TimeInterval = 0
        var bytes = 0
        for step in steps {
            switch step.kind {
            case .wait(let seconds):
                pauses += seconds
            case .data(let data):
                bytes += data.count
                writes.append(.init(pauses: pauses, bytesThrough: bytes, write: .data(data)))
            case .event(let event):
                do {
                    let data = try event.encoded()
                    bytes += data.count
                    writes.append(.init(pauses: pauses, bytesThrough: bytes, write: .data(data)))
                } catch {
                    return .failure(.invalidStreamStep(stub: stub, reason: "\(error)"))
                }
            case .failure(let failure):
                writes.append(.init(pauses: pauses, bytesThrough: bytes, write: .failure(failure)))
                return .success(writes)
            }
        }
        writes.append(.init(pauses: pauses, bytesThrough: bytes, write: .finish))
        return .success(writes)
    }

    /// Delivers what the test wrote since the last call.
    func takeLiveWrites() {
        guard !ended, headSent, let playback = streamPlayback, case .live(let stream, let connection) = playback.source else { return }
        for write in stream.take(for: connection) {
            guard deliverStreamWrite(write, of: playback) else { return }
        }
    }

    /// Delivers the script's writes that are due, then waits for the next one.
    private func playScript() {
        guard let playback = streamPlayback, case .script(let writes) = playback.source, let response = item?.response else { return }
        var bytesPerSecond: Double?
        if response.responseTime < 0 {
            bytesPerSecond = -response.responseTime * 1000
        } else if response.responseTime > 0, let total = writes.last?.bytesThrough, total > 0 {
            bytesPerSecond = Double(total) / response.responseTime
        }
        // A loop, not a chain of calls: a long script of writes due at once must not nest.
        while !ended, playback.next < writes.count {
            let timed = writes[playback.next]
            let due = bodyStart + timed.pauses + (bytesPerSecond.map { Double(timed.bytesThrough) / $0 } ?? 0)
            if due > .now() {
                environment.scheduler.at(due) { [self] in
                    newStep()
                    playScript()
                }
                return
            }
            playback.next += 1
            guard deliverStreamWrite(timed.write, of: playback) else { return }
        }
    }

    /// Delivers one write; `false` once the player has ended (finished, failed or cancelled).
    private func deliverStreamWrite(_ write: LiveWrite, of playback: StreamPlayback) -> Bool {
        guard !ended, let response = item?.response else { return false }
        lastProgress = .now()
        switch write {
        case .data(let data):
            guard !data.isEmpty else { return true }
            bytesSent += data.count
            if environment.deliversChunks {
                guard let sink = liveSink else { return false }
                sink.playerDidLoad(data)
            } else {
                playback.whole.append(data)
            }
            return !ended
        case .finish:
            guard deliverWhole(of: playback) else { return false }
            conclude(.finished(response)) { $0.playerDidFinish() }
            return false
        case .failure(let failure):
            guard deliverWhole(of: playback) else { return false }
            fail(failure.error)
            return false
        }
    }

    /// Hands a consumer that keeps only the last `didLoad` everything written so far.
    private func deliverWhole(of playback: StreamPlayback) -> Bool {
        guard !environment.deliversChunks, !playback.whole.isEmpty else { return true }
        guard let sink = liveSink else { return false }
        sink.playerDidLoad(playback.whole)
        playback.whole = Data()
        return !ended
    }
}
