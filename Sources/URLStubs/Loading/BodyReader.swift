import Foundation
import Dispatch

/// Reads a stubbed body in chunks without ever blocking the delivery context.
///
/// On Linux every session's work queue targets one process-wide serial queue: a file read
/// there stalls every session in the process. So stream and file bodies are read on a global
/// queue, one read at a time, and each result hops back to the delivery context. In-memory
/// bodies need no I/O and answer at once, which keeps the common small-body path free of hops.
final class BodyReader: @unchecked Sendable {
    enum Chunk: Sendable {
        case data(Data)
        case end
        case failure(String)
    }

    private enum Source {
        case memory(Data, offset: Int)
        case stream(InputStream)
    }

    // Guards `source` and `closed`: a read on the global queue may meet a close from
    // `stopLoading` on the delivery context.
    private let lock = NSLock()
    private var source: Source
    private var closed = false
    /// The body's length when known (`Content-Length`).
    let length: Int?

    init(_ body: StubBody) throws {
        if let data = body.data {
            source = .memory(data, offset: 0)
            length = data.count
        } else {
            let opened = try body.open()
            opened.stream.open()
            source = .stream(opened.stream)
            length = opened.length
        }
    }

    deinit { close() }

    /// Reads up to `maximum` bytes; `completion` runs on `scheduler` (at once for memory).
    func read(upTo maximum: Int, on scheduler: any DeliveryScheduler, _ completion: @escaping @Sendable (Chunk) -> Void) {
        if case .memory = currentSource {
            completion(readNow(upTo: maximum))
            return
        }
        DispatchQueue.global().async { [self] in
            let chunk = readNow(upTo: maximum)
            scheduler.async { completion(chunk) }
        }
    }

    /// Reads everything up to `limit` bytes as one `Data`; `completion` runs on `scheduler`.
    /// An in-memory body is handed over without a copy.
    func readAll(limit: Int?, on scheduler: any DeliveryScheduler, _ completion: @escaping @Sendable (Chunk) -> Void) {
        if case .memory(let data, 0) = currentSource {
            let whole = limit.map { $0 < data.count ? Data(data.prefix($0)) : data } ?? data
            completion(whole.isEmpty ? .end : .data(whole))
            return
        }
        DispatchQueue.global().async { [self] in
            var whole = Data()
            var outcome = Chunk.end
            while true {
                let wanted = limit.map { min(ResponsePlayer.maximumChunkSize, $0 - whole.count) } ?? ResponsePlayer.maximumChunkSize
                guard wanted > 0 else { break }
                let chunk = readNow(upTo: wanted)
                if case .data(let data) = chunk {
                    whole.append(data)
                    continue
                }
                if case .failure = chunk { outcome = chunk }
                break
            }
            if case .end = outcome, !whole.isEmpty { outcome = .data(whole) }
            let result = outcome
            scheduler.async { completion(result) }
        }
    }

    /// Closes the stream; later reads return `.end`.
    func close() {
        lock.lock(); defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        if case .stream(let stream) = source { stream.close() }
    }

    private var currentSource: Source {
        lock.lock(); defer { lock.unlock() }
        return source
    }

    private func readNow(upTo maximum: Int) -> Chunk {
        lock.lock(); defer { lock.unlock() }
        guard !closed, maximum > 0 else { return .end }
        switch source {
        case .memory(let data, let offset):
            let count = min(maximum, data.count - offset)
            guard count > 0 else { return .end }
            source = .memory(data, offset: offset + count)
            return .data(data.subdata(in: (data.startIndex + offset)..<(data.startIndex + offset + count)))
        case .stream(let stream):
            var chunk = Data(count: maximum)
            let count = chunk.withUnsafeMutableBytes { raw in
                stream.read(raw.bindMemory(to: UInt8.self).baseAddress!, maxLength: maximum)
            }
            if count < 0 {
                return .failure(stream.streamError.map { $0.localizedDescription } ?? "the stream reported an error")
            }
            if count == 0 { return .end }
            chunk.count = count
            return .data(chunk)
        }
    }
}
