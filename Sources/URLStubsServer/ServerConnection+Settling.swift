import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// What the client took of its answers: bytes handed to the connection are in the journal as
/// the player handed them; when the connection fails (the client reset it, or stopped reading
/// and was reset) or the server stops, the journal entries of answers the client did not take
/// whole are corrected to what it took, with the error it saw. On the connection's queue.
extension ServerConnection {
    /// Answers ended longer ago than this many output bytes are taken: no socket holds more
    /// unacknowledged.
    static let settledDistance = 16 * 1024 * 1024

    /// `exchange` wrote its last byte: it stays outstanding until the client took it.
    func noteEnded(_ exchange: WireExchange) {
        guard exchange.ticket != nil else { return }
        exchange.ledger.end = output.appendedTotal
        unsettled.append(exchange)
        let written = output.written
        if unsettled.count > 64 || unsettled[0].ledger.end <= written - Self.settledDistance {
            unsettled.removeAll { $0.ledger.end <= written - Self.settledDistance }
            if unsettled.count > 64 { unsettled.removeFirst(unsettled.count - 64) }
        }
    }

    /// The connection closes at once (`closing` is `.clientGone` or `.serverStopped`): the
    /// answers the client did not take whole, `current` (cancelled just now) among them, are
    /// journaled with what it took. A reset counts as `URLError(.networkConnectionLost)`, a
    /// stop as `URLError(.cancelled)`.
    func settle(_ current: WireExchange?, _ closing: Closing) {
        var outstanding = unsettled
        unsettled = []
        if let current, current.ticket != nil { outstanding.append(current) }
        guard !outstanding.isEmpty else { return }
        let registry = core.registry
        let taken: Int
        let error: URLError
        if closing == .serverStopped {
            // What is written still reaches the client; what waits here never will.
            taken = output.written
            error = URLError(.cancelled)
        } else {
            // Linux keeps the unacknowledged count after a reset: what the peer's kernel took.
            taken = output.written - (descriptorClosed ? 0 : ServerSocket.unacknowledgedBytes(descriptor))
            error = URLError(.networkConnectionLost)
        }
        // An answer that sent nothing yet ended as its player says (cancelled): nothing to correct.
        for exchange in outstanding where exchange.ledger.status != nil && exchange.ledger.isOutstanding(at: taken) {
            guard let recorded = exchange.ticket?.exchange else { continue }
            let got = exchange.ledger.taken(upTo: taken)
            registry.correctJournal(of: recorded, status: got.status, bodyBytes: got.bodyBytes, error: error)
        }
    }
}
