import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body: paced chunks to a consumer that sees them, one whole body to one that keeps only
/// the last (corelibs' completion handlers and `async` calls), and the length check that keeps
/// a short body from passing as a complete one.
extension ResponsePlayer {
    func startBody(length: Int?) {
        guard let item else { return }
        let response = item.response
        bodyStart = .now()
        if response.responseTime < 0 {
            bytesPerSecond = -response.responseTime * 1000
        } else if response.responseTime > 0 {
            if let length, length > 0 {
                bytesPerSecond = Double(min(length, byteLimit ?? length)) / response.responseTime
            } else {
                // Unknown length: the whole body arrives once the response time is over.
                bodyStart = bodyStart + response.responseTime
            }
        }
        chunkSize =
            bytesPerSecond.map { max(1, min(Self.maximumChunkSize, Int($0 * Self.pacingInterval))) }
            ?? Self.maximumChunkSize
        guard let reader else { return }
        if environment.deliversChunks {
            readNextChunk()
        } else {
            // The consumer keeps only the last didLoad: read it all, deliver it once, when
            // the last paced byte would have arrived.
            reader.readAll(limit: byteLimit ?? announcedLength.map { $0 + 1 }, on: environment.scheduler) { [self] chunk in
                newStep()
                guard !ended else { return }
                switch chunk {
                case .data(let whole):
                    let due = bytesPerSecond.map { bodyStart + Double(whole.count) / $0 } ?? bodyStart
                    if let announced = announcedLength, whole.count != announced {
                        failLength(announced: announced, delivered: whole.count)
                        return
                    }
                    run(at: due) { [self] in
                        guard !ended else { return }
                        guard let sink = liveSink else { return }
                        bytesSent = whole.count
                        sink.playerDidLoad(whole)
                        finishBody()
                    }
                case .end:
                    run(at: bodyStart) { [self] in finishBody() }
                case .failure(let reason):
                    failReading(reason)
                case .unopenable(let failure):
                    fail(failure.error)
                }
            }
        }
    }

    private func readNextChunk() {
        guard !ended, let reader else { return }
        // One byte more than announced is asked for, so a body longer than its
        // Content-Length is caught, not silently cut.
        let limit = byteLimit ?? announcedLength.map { $0 + 1 }
        let wanted = limit.map { min(chunkSize, $0 - bytesSent) } ?? chunkSize
        reader.read(upTo: wanted, on: environment.scheduler) { [self] chunk in
            newStep()
            guard !ended else { return }
            switch chunk {
            case .data(let data):
                guard checkLength(deliveredAfter: bytesSent + data.count) else { return }
                let due = bytesPerSecond.map { bodyStart + Double(bytesSent + data.count) / $0 } ?? bodyStart
                environment.scheduler.at(due) { [self] in
                    newStep(); deliver(data)
                }
            case .end:
                finishBody()
            case .failure(let reason):
                failReading(reason)
            case .unopenable(let failure):
                fail(failure.error)
            }
        }
    }

    private func deliver(_ chunk: Data) {
        guard let sink = liveSink else { return }
        bytesSent += chunk.count
        lastProgress = .now()
        sink.playerDidLoad(chunk)
        guard !ended else { return }
        if bytesPerSecond == nil, let queue = environment.delegateQueue {
            // Let the delegate take this chunk before reading the next one, so a fast stream
            // to a slow delegate does not pile up in memory.
            let scheduler = environment.scheduler
            queue.addOperation {
                scheduler.async { [self] in
                    newStep(); lastProgress = .now(); readNextChunk()
                }
            }
        } else {
            readNextChunk()
        }
    }

    /// `false`, having failed the request, when `count` bytes are more than the head
    /// announced.
    private func checkLength(deliveredAfter count: Int) -> Bool {
        guard let announced = announcedLength, count > announced else { return true }
        failLength(announced: announced, delivered: count)
        return false
    }

    private func failLength(announced: Int, delivered: Int) {
        fail(StubError.bodyLengthMismatch(stub: item?.descriptor.description ?? "?", declared: announced, delivered: delivered))
    }

    private func failReading(_ reason: String) {
        fail(StubError.bodyStreamFailed(stub: item?.descriptor.description ?? "?", bytesDelivered: bytesSent, reason: reason))
    }

    func finishBody() {
        guard !ended, let item else { return }
        reader?.close()
        reader = nil
        let response = item.response
        if let error = response.error, response.failureAfterBytes != nil {
            fail(error)
            return
        }
        if let announced = announcedLength, bytesSent != announced {
            // A file that shrank, a stream that ended early, a Content-Length that lies.
            failLength(announced: announced, delivered: bytesSent)
            return
        }
        conclude(.finished(response)) { $0.playerDidFinish() }
    }
}
