import Foundation
import Dispatch

/// A body in memory, a file or a stream: read, paced, and checked against the length its head
/// announced.
extension ExchangePlayer {
    /// The commonest plan there is (``ExchangePlan/Delivery/respond(_:)``: bytes in memory,
    /// whole) in this very step: head, body, finish. Returns `false`, having done nothing, for a
    /// client that sees chunks and a body too large for one.
    func sendAtOnce(_ body: Data, of exchange: Exchange) -> Bool {
        // A client that sees chunks gets a large body in chunks, at its own pace.
        guard !traits.deliversChunks || body.count <= Self.maximumChunkSize else { return false }
        let head = self.head(of: exchange, exchange.response, bodyLength: body.count)
        guard deliver(head, of: exchange) else { return true }
        if exchange.request.method != "HEAD" { deliver(body, of: exchange) }
        finish()
        return true
    }

    /// Opens a file or stream body (off the loading context), then sends the head and the body.
    /// A missing file fails the request before any head is seen.
    func sendBody(of exchange: Exchange) {
        let host = host
        let reader = BodyReader(exchange.response.body) { work in host.runUserCode(work) }
        if reader.isInMemory {
            sendHead(of: exchange, thenBodyOf: reader)
            return
        }
        phase = .openingBody(exchange, reader)
        reader.open(on: scheduler) { [self] failure in
            asStep { player in
                if let failure { player.fail(failure) } else { player.sendHead(of: exchange, thenBodyOf: reader) }
            }()
        }
    }

    private func sendHead(of exchange: Exchange, thenBodyOf reader: BodyReader) {
        let response = exchange.response
        let length = reader.length
        var limit = response.action.byteLimit.map { min($0, length ?? $0) }
        if exchange.request.method == "HEAD" { limit = 0 }
        let head = self.head(of: exchange, response, bodyLength: length)
        // What the head promised is what the body must deliver, unless it stops short on
        // purpose (`truncated(afterBytes:)`, `failing(afterBytes:)`, `HEAD`).
        let announced = limit == nil ? head.announcedLength : nil
        let transfer = BodyTransfer(
            reader: reader, limit: limit, announced: announced, pacing: response.pacing, length: length,
            deliversChunks: traits.deliversChunks)
        phase = .sendingBody(exchange, transfer)
        guard deliver(head, of: exchange) else { return }
        readNext(transfer, of: exchange)
    }

    private func readNext(_ transfer: BodyTransfer, of exchange: Exchange) {
        transfer.reader.read(upTo: transfer.nextReadSize, on: scheduler) { [self] chunk in
            asStep { $0.bodyRead(chunk, transfer, of: exchange) }()
        }
    }

    private func bodyRead(_ chunk: BodyReader.Chunk, _ transfer: BodyTransfer, of exchange: Exchange) {
        switch chunk {
        case .data(let data):
            guard transfer.didRead(data.count) else {
                failLength(transfer, of: exchange)
                return
            }
            if traits.deliversChunks {
                continueAt(transfer.dueOfBytesRead) { $0.deliverChunk(data, transfer, of: exchange) }
            } else {
                // Withheld until the end; a part the client would have had is progress.
                transfer.withheld.append(data)
                lastProgress = .now()
                readNext(transfer, of: exchange)
            }
        case .end:
            bodyEnded(transfer, of: exchange)
        case .failure(let reason):
            fail(StubError.bodyStreamFailed(stub: exchange.stubDescription, bytesDelivered: transfer.read, reason: reason))
        case .unopenable(let failure):
            fail(failure.error)
        }
    }

    private func deliverChunk(_ chunk: Data, _ transfer: BodyTransfer, of exchange: Exchange) {
        lastProgress = .now()
        deliver(chunk, of: exchange)
        if transfer.isComplete {
            readNext(transfer, of: exchange)
        } else if let queue = traits.consumerQueue {
            // Let the client take this chunk before reading the next one, so a fast body to a
            // slow client does not pile up in memory; a paced one too (its pace is a most).
            let scheduler = scheduler
            queue.addOperation { [self] in
                scheduler.async(
                    asStep { player in
                        player.lastProgress = .now()
                        player.readNext(transfer, of: exchange)
                    })
            }
        } else {
            // A later step: a long body read from memory must not nest one call per chunk.
            step { $0.readNext(transfer, of: exchange) }
        }
    }

    private func bodyEnded(_ transfer: BodyTransfer, of exchange: Exchange) {
        guard transfer.keepsItsAnnouncement else {
            // A file that shrank, a stream that ended early, a Content-Length that lies.
            failLength(transfer, of: exchange)
            return
        }
        guard !transfer.withheld.isEmpty else {
            continueAt(transfer.dueOfBytesRead) { $0.completeBody(transfer, of: exchange) }
            return
        }
        let due = transfer.dueOfBytesRead
        progressPromisedUntil = due
        continueAt(due) { player in
            player.deliver(transfer.withheld, of: exchange)
            transfer.withheld = Data()
            player.completeBody(transfer, of: exchange)
        }
    }

    private func completeBody(_ transfer: BodyTransfer, of exchange: Exchange) {
        transfer.reader.close()
        if case .failAfterBytes(_, let failure) = exchange.plan.delivery {
            fail(failure.error)
        } else {
            finish()
        }
    }

    private func failLength(_ transfer: BodyTransfer, of exchange: Exchange) {
        // A client that gets the body whole has had nothing yet: what was read stays here.
        fail(StubError.bodyLengthMismatch(stub: exchange.stubDescription, declared: transfer.announced ?? 0, delivered: transfer.read))
    }
}
