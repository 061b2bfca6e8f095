import Foundation
import Dispatch

/// A streamed body being played: the test's writes to a ``LiveStream``, or a script's writes
/// at their moments. Touched on the delivery context only.
final class StreamPlayback: @unchecked Sendable {
    // @unchecked: touched by its player only, on the delivery context.
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
    /// When the first write after the head is due.
    var start = DispatchTime.now()

    init(_ source: Source) { self.source = source }

    /// Lets go of the live stream before its end (`reason` says why, for the test's next write).
    func stop(reason: String) {
        if case .live(let stream, let connection) = source { stream.disconnect(connection, reason: reason) }
    }

    /// Tells a live stream that `bytes` it wrote were handed to the app: taken at once, or, with
    /// `queue` (a delegate's), once the delegate has run the callbacks made so far.
    func handedOn(_ bytes: Int, readOn queue: OperationQueue?) {
        guard bytes > 0, case .live(let stream, let connection) = source else { return }
        if let queue {
            queue.addOperation { stream.consumed(bytes, by: connection) }
        } else {
            stream.consumed(bytes, by: connection)
        }
    }

    /// When the script's write `timed` is due, paced as `pacing` says over the script's bytes.
    func due(of timed: TimedWrite, in writes: [TimedWrite], pacing: ResponsePacing) -> DispatchTime {
        let bytesPerSecond = pacing.bytesPerSecond(forLength: writes.last?.bytesThrough)
        return start + timed.pauses + (bytesPerSecond.map { Double(timed.bytesThrough) / $0 } ?? 0)
    }

    /// The playback of a streamed `body` for `request`: a live stream connects (and calls
    /// `wake`, on any thread, when the test writes), a script is timed. A live stream that
    /// cannot take the request, or a script step that cannot be framed, fails.
    static func make(
        of body: StubBody, for request: StubRequest, stub: String, wake: @escaping @Sendable () -> Void
    ) -> Result<StreamPlayback, StubError> {
        switch body.source {
        case .live(let stream):
            switch stream.connect(request, wake: wake) {
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

    /// A script's steps as writes with their moments; a step that cannot be framed fails.
    static func timedWrites(of steps: [StreamStep], stub: String) -> Result<[TimedWrite], StubError> {
        var writes: [TimedWrite] = []
        var pauses: TimeInterval = 0
        var bytes = 0
        for step in steps {
            switch step.kind {
            case .wait(let seconds):
                pauses += seconds
            case .data(let data):
                bytes += data.count
                writes.append(TimedWrite(pauses: pauses, bytesThrough: bytes, write: .data(data)))
            case .event(let event):
                do {
                    let data = try event.encoded()
                    bytes += data.count
                    writes.append(TimedWrite(pauses: pauses, bytesThrough: bytes, write: .data(data)))
                } catch {
                    return .failure(.invalidStreamStep(stub: stub, reason: "\(error)"))
                }
            case .failure(let failure):
                writes.append(TimedWrite(pauses: pauses, bytesThrough: bytes, write: .failure(failure)))
                return .success(writes)
            }
        }
        writes.append(TimedWrite(pauses: pauses, bytesThrough: bytes, write: .finish))
        return .success(writes)
    }
}
