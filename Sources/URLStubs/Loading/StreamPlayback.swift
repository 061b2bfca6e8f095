import Foundation
import Dispatch

/// A streamed body being played: writes a source pushes (a live stream the test writes), or a
/// script's writes at their moments. Touched on the delivery context only.
final class StreamPlayback: @unchecked Sendable {
    // @unchecked: touched by its player only, on the delivery context.
    enum Source {
        case pushed(any StreamedBodyConnection)
        case script([TimedWrite])
    }

    /// A script's write, with when it is due after the head.
    struct TimedWrite {
        /// Seconds of pauses before it.
        let pauses: TimeInterval
        /// Bytes written up to and including it, for pacing.
        let bytesThrough: Int
        let write: StreamedWrite
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

    /// Lets go of a pushing source before its end (`reason` says why, for the test's next write).
    func stop(reason: String) {
        if case .pushed(let connection) = source { connection.disconnect(reason: reason) }
    }

    /// Tells a pushing source that `bytes` it wrote were handed to the app: taken at once, or,
    /// with `queue` (a delegate's), once the delegate has run the callbacks made so far.
    func handedOn(_ bytes: Int, readOn queue: OperationQueue?) {
        guard bytes > 0, case .pushed(let connection) = source else { return }
        if let queue {
            queue.addOperation { connection.consumed(bytes) }
        } else {
            connection.consumed(bytes)
        }
    }

    /// When the script's write `timed` is due, paced as `pacing` says over the script's bytes.
    func due(of timed: TimedWrite, in writes: [TimedWrite], pacing: ResponsePacing) -> DispatchTime {
        let bytesPerSecond = pacing.bytesPerSecond(forLength: writes.last?.bytesThrough)
        return start + timed.pauses + (bytesPerSecond.map { Double(timed.bytesThrough) / $0 } ?? 0)
    }

    /// The playback of a streamed `body` for `request`: its source says how the writes arrive
    /// (and calls `wake`, on any thread, when pushed writes wait). What the source throws, or a
    /// body that is not streamed, fails the request.
    static func make(
        of body: StubBody, for request: StubRequest, stub: String, wake: @escaping @Sendable () -> Void
    ) -> Result<StreamPlayback, any Error> {
        guard case .streamed(let play) = body.source else {
            return .failure(StubError.invalidResponse(reason: "stream of \(StubError.theStub(stub)): its body is not a stream"))
        }
        do {
            switch try play(request, stub, wake) {
            case .pushed(let connection): return .success(StreamPlayback(.pushed(connection)))
            case .scripted(let steps): return .success(StreamPlayback(.script(timedWrites(of: steps))))
            }
        } catch {
            return .failure(error)
        }
    }

    /// A script's steps as writes with their moments, up to the first that ends the body (a
    /// `.finish` is added when none does).
    static func timedWrites(of steps: [(pause: TimeInterval, write: StreamedWrite)]) -> [TimedWrite] {
        var writes: [TimedWrite] = []
        var pauses: TimeInterval = 0
        var bytes = 0
        for step in steps {
            pauses += max(0, step.pause)
            if case .data(let data) = step.write { bytes += data.count }
            writes.append(TimedWrite(pauses: pauses, bytesThrough: bytes, write: step.write))
            if case .data = step.write { continue }
            return writes
        }
        writes.append(TimedWrite(pauses: pauses, bytesThrough: bytes, write: .finish))
        return writes
    }
}
