import Foundation
import Dispatch

/// A streamed body's writes, pushed by its source or scripted at their moments, sent as they come.
extension ExchangePlayer {
    /// Sends the head and starts the writes. A source that cannot serve this request (a live
    /// stream another request reads, a script with a step that cannot be framed) fails it
    /// before any head.
    func startStream(of exchange: Exchange) {
        let response = exchange.response
        let head = ResponseHead(url: exchange.url, response: response, bodyLength: nil)
        if exchange.request.method == "HEAD" {
            guard deliver(head, of: exchange) else { return }
            finish()
            return
        }
        let playback: StreamPlayback
        switch streamPlayback(of: response.body, for: exchange) {
        case .success(let made): playback = made
        case .failure(let error):
            fail(error)
            return
        }
        phase = .streaming(exchange, playback)
        guard deliver(head, of: exchange) else { return }
        playback.start = .now()
        switch playback.source {
        case .pushed: takePushedWrites(playback, of: exchange)
        case .script: playScript(playback, of: exchange)
        }
    }

    private func streamPlayback(of body: StubBody, for exchange: Exchange) -> Result<StreamPlayback, any Error> {
        let scheduler = scheduler
        // Weak: a stream the test keeps must not keep a finished request alive.
        return StreamPlayback.make(of: body, for: exchange.request, stub: exchange.stubDescription) { [weak self] in
            scheduler.async { [weak self] in
                guard let self else { return }
                asStep { player in
                    if case .streaming(let exchange, let playback) = player.phase { player.takePushedWrites(playback, of: exchange) }
                }()
            }
        }
    }

    /// Delivers what the source pushed since the last call.
    private func takePushedWrites(_ playback: StreamPlayback, of exchange: Exchange) {
        guard case .pushed(let connection) = playback.source else { return }
        for write in connection.take() {
            guard deliverStreamWrite(write, of: playback, exchange) else { return }
        }
    }

    /// Delivers the script's writes that are due, then waits for the next one.
    private func playScript(_ playback: StreamPlayback, of exchange: Exchange) {
        guard case .script(let writes) = playback.source else { return }
        let pacing = exchange.response.pacing
        // A loop, not a chain of calls: a long script of writes due at once must not nest.
        while playback.next < writes.count {
            let timed = writes[playback.next]
            let due = playback.due(of: timed, in: writes, pacing: pacing)
            if due > .now() {
                step(at: due) { $0.playScript(playback, of: exchange) }
                return
            }
            playback.next += 1
            guard deliverStreamWrite(timed.write, of: playback, exchange) else { return }
        }
    }

    /// Delivers one write; `false` once the stream is over (finished or failed).
    private func deliverStreamWrite(_ write: StreamedWrite, of playback: StreamPlayback, _ exchange: Exchange) -> Bool {
        lastProgress = .now()
        switch write {
        case .data(let data):
            guard !data.isEmpty else { return true }
            if traits.deliversChunks {
                deliver(data, of: exchange)
                playback.handedOn(data.count, readOn: traits.consumerQueue)
            } else {
                playback.whole.append(data)
            }
            return true
        case .finish:
            deliverWhole(of: playback, exchange)
            finish()
            return false
        case .failure(let error):
            deliverWhole(of: playback, exchange)
            fail(error)
            return false
        }
    }

    /// Hands a client that keeps only the last chunk everything written.
    private func deliverWhole(of playback: StreamPlayback, _ exchange: Exchange) {
        guard !playback.whole.isEmpty else { return }
        deliver(playback.whole, of: exchange)
        playback.handedOn(playback.whole.count, readOn: nil)
        playback.whole = Data()
    }
}
