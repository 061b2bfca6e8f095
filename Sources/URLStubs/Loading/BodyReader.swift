import Foundation
import Dispatch

/// Reads a stubbed body in chunks without ever blocking the delivery context.
///
/// On Linux every session's work queue targets one process-wide serial queue, and on Apple
/// platforms one thread loads every custom protocol: a read there stalls every session in the
/// process. So a file or stream body is opened and read on the registry's user-code lane (see
/// ``UserCodeRunner``), one read at a time, and each result hops back to the delivery context.
/// In-memory bodies need no I/O and answer at once, which keeps the common small-body path
/// free of hops.
///
/// ``close()`` never waits for a read in progress (a stream may block for ever): it marks the
/// reader closed, and whichever side finishes last closes the stream.
final class BodyReader: @unchecked Sendable {
    enum Chunk: Sendable {
        case data(Data)
        case end
        /// The stream failed mid-read.
        case failure(String)
        /// The body could not be opened (a missing file, a stream closure that threw): the
        /// error itself, which the request fails with.
        case unopenable(SendableError)
    }

    private enum Source {
        case memory(Data, offset: Int)
        /// Not opened yet: opening runs user code (a stream's closure) or touches the disk.
        case unopened(StubBody)
        case stream(InputStream)
        case unopenable(SendableError)
    }

    /// Never held during a read or an open.
    private let state: Locked<State>

    /// What the reader's lock guards.
    private struct State {
        var source: Source
        var closed = false
        var busy = false

        var openedStream: InputStream? {
            if case .stream(let stream) = source { return stream }
            return nil
        }
    }
    /// The body's length when known without reading it (`Content-Length`).
    let length: Int?
    /// `true` for a body held in memory: reads answer at once, with no hop.
    let isInMemory: Bool
    /// Runs opening and reading off the loading context (``ExchangeHost/runUserCode(_:)``).
    private let runUserCode: @Sendable (@escaping @Sendable () -> Void) -> Void

    init(_ body: StubBody, runUserCode: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.runUserCode = runUserCode
        isInMemory = body.data != nil
        if let data = body.data {
            state = Locked(State(source: .memory(data, offset: 0)))
        } else {
            state = Locked(State(source: .unopened(body)))
        }
        length = body.knownLength
    }

    deinit { close() }

    /// Opens a file or stream body on the user-code lane (user code, disk); `completion` runs on
    /// `scheduler` with `nil`, or the error that kept the body from opening. Memory bodies
    /// answer at once.
    func open(on scheduler: any DeliveryScheduler, _ completion: @escaping @Sendable ((any Error)?) -> Void) {
        let needsOpening = state.withLock { state in
            if case .unopened = state.source { return true }
            return false
        }
        guard needsOpening else {
            completion(nil)
            return
        }
        runUserCode { [self] in
            let chunk = readFromStream(upTo: 0, openOnly: true)
            scheduler.async {
                if case .unopenable(let failure) = chunk { completion(failure.error) } else { completion(nil) }
            }
        }
    }

    /// Reads up to `maximum` bytes; `completion` runs on `scheduler` (at once for memory).
    func read(upTo maximum: Int, on scheduler: any DeliveryScheduler, _ completion: @escaping @Sendable (Chunk) -> Void) {
        if let chunk = readFromMemory(upTo: maximum) {
            completion(chunk)
            return
        }
        runUserCode { [self] in
            let chunk = readFromStream(upTo: maximum)
            scheduler.async { completion(chunk) }
        }
    }

    /// Closes the stream, now or when the read in progress returns; later reads return `.end`.
    func close() {
        let idleStream = state.withLock { state -> InputStream? in
            guard !state.closed else { return nil }
            state.closed = true
            return state.busy ? nil : state.openedStream
        }
        idleStream?.close()
    }

    /// The next chunk of an in-memory body; `nil` for a stream body (read it on a global queue).
    private func readFromMemory(upTo maximum: Int) -> Chunk? {
        state.withLock { state in
            if state.closed || maximum <= 0 { return .end }
            guard case .memory(let data, let offset) = state.source else { return nil }
            let count = min(maximum, data.count - offset)
            guard count > 0 else { return .end }
            state.source = .memory(data, offset: offset + count)
            // The whole body in one read: handed over as it is, without a copy.
            if offset == 0, count == data.count { return .data(data) }
            return .data(data.subdata(in: (data.startIndex + offset)..<(data.startIndex + offset + count)))
        }
    }

    /// Opens the stream if need be and reads from it, outside the lock. Call off the delivery
    /// context: either may block.
    private func readFromStream(upTo maximum: Int, openOnly: Bool = false) -> Chunk {
        var taken: Source?
        let early = state.withLock { state -> Chunk? in
            if state.closed || (maximum <= 0 && !openOnly) { return .end }
            if case .unopenable(let failure) = state.source { return .unopenable(failure) }
            state.busy = true
            taken = state.source
            return nil
        }
        guard let current = taken else { return early ?? .end }

        var stream: InputStream?
        var opened: Source?
        switch current {
        case .stream(let existing):
            stream = existing
        case .unopened(let body):
            do {
                let made = try body.open().stream
                made.open()
                stream = made
                opened = .stream(made)
            } catch {
                opened = .unopenable(SendableError(error: error))
            }
        case .memory, .unopenable:
            break
        }
        var chunk = Chunk.end
        if openOnly {
            if case .unopenable(let failure)? = opened { chunk = .unopenable(failure) }
        } else if let stream {
            var buffer = Data(count: maximum)
            let count = buffer.withUnsafeMutableBytes { raw in
                stream.read(raw.bindMemory(to: UInt8.self).baseAddress!, maxLength: maximum)
            }
            if count < 0 {
                chunk = .failure(stream.streamError.map { $0.localizedDescription } ?? "the stream reported an error")
            } else if count > 0 {
                buffer.count = count
                chunk = .data(buffer)
            }
        } else if case .unopenable(let failure)? = opened {
            chunk = .unopenable(failure)
        }

        let (wasClosed, closeNow) = state.withLock { state -> (Bool, InputStream?) in
            state.busy = false
            if let opened { state.source = opened }
            return (state.closed, state.closed ? state.openedStream : nil)
        }
        closeNow?.close()
        return wasClosed ? .end : chunk
    }
}
