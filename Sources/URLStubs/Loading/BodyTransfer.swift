import Foundation
import Dispatch

/// The arithmetic of one body being sent: how much to read next, when each byte is due, and
/// whether the body keeps the promise of its head. Pure bookkeeping; the player decides.
final class BodyTransfer: @unchecked Sendable {
    // @unchecked: touched by its player only, on the delivery context.
    let reader: BodyReader
    /// The most bytes sent: a truncation, a failure part-way, or 0 for `HEAD`.
    let limit: Int?
    /// The length the head announced, which the body must match (`nil` when unannounced, or
    /// when the body stops short on purpose).
    let announced: Int?
    /// The pace; `nil` for as fast as the body is read.
    let bytesPerSecond: Double?
    /// When the first byte is due.
    let start: DispatchTime
    /// How many bytes one read asks for.
    let chunkSize: Int
    /// Bytes read so far.
    private(set) var read = 0
    /// A consumer that keeps only the last `didLoad` (corelibs' completion handlers and `async`
    /// calls) gets the body whole, at the end: what was read so far.
    var withheld = Data()

    init(reader: BodyReader, limit: Int?, announced: Int?, pacing: ResponsePacing, length: Int?, deliversChunks: Bool) {
        self.reader = reader
        self.limit = limit
        self.announced = announced
        let paced = length.map { min($0, limit ?? $0) }
        bytesPerSecond = pacing.bytesPerSecond(forLength: paced)
        var start = DispatchTime.now()
        if case .spread(let seconds) = pacing.body, bytesPerSecond == nil {
            // Unknown length: the whole body arrives once the response time is over.
            start = start + seconds
        }
        self.start = start
        if !deliversChunks, reader.isInMemory {
            // Withheld and sent whole: one read, which hands the bytes over without a copy.
            chunkSize = Int.max
        } else if deliversChunks, let bytesPerSecond {
            // Paced chunks to a consumer that sees them go out about every pacing interval.
            chunkSize = max(1, min(ExchangePlayer.maximumChunkSize, Int(bytesPerSecond * ExchangePlayer.pacingInterval)))
        } else {
            chunkSize = ExchangePlayer.maximumChunkSize
        }
    }

    /// The bytes the next read asks for: one more than announced at most, so a body longer
    /// than its `Content-Length` is caught rather than silently cut.
    var nextReadSize: Int {
        guard let cap = limit ?? announced.map({ $0 + 1 }) else { return chunkSize }
        return max(0, min(chunkSize, cap &- read))
    }

    /// Counts `count` more bytes read; `false` when they take the body past its announced
    /// length.
    func didRead(_ count: Int) -> Bool {
        read += count
        return announced.map { read <= $0 } ?? true
    }

    /// When the consumer would have received every byte read so far.
    var dueOfBytesRead: DispatchTime {
        bytesPerSecond.map { start + Double(read) / $0 } ?? start
    }

    /// `true` when the body read so far is what the head announced (or nothing was announced).
    var keepsItsAnnouncement: Bool { announced.map { $0 == read } ?? true }

    /// `true` when nothing is left to read: the limit is reached, or the in-memory length is.
    var isComplete: Bool {
        if let limit, read >= limit { return true }
        if let length = reader.length, reader.isInMemory, read >= length, announced == nil || announced == length { return true }
        return false
    }
}
