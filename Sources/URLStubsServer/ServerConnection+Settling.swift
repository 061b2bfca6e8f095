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
    /// Answers ended this many output bytes ago are taken: no socket holds more unacknowledged.
    static let settledDistance = 16 * 1024 * 1024
    /// The most answers kept waiting to be settled, past twice as many (a record is a few
    /// words: no request).
    static let maximumUnsettled = 64

    /// `exchange` wrote its last byte: it stays outstanding until the client took it.
    func noteEnded(_ exchange: WireExchange) {
        guard let entry = exchange.journalNumber, entry != 0, exchange.ledger.status != nil else { return }
        var ledger = exchange.ledger
        ledger.end = output.appendedTotal
        unsettled.append((ledger, entry))
        // Trimmed once twice the most are kept, not at every answer: a keep-alive client's
        // answers then cost one append each.
        guard unsettled.count > 2 * Self.maximumUnsettled else { return }
        let settled = output.written - Self.settledDistance
        unsettled.removeAll { $0.ledger.end <= settled }
        if unsettled.count > Self.maximumUnsettled { unsettled.removeFirst(unsettled.count - Self.maximumUnsettled) }
    }

    /// The connection closes at once (`closing` is `.clientGone` or `.serverStopped`): the
    /// answers the client did not take whole, `current` (cancelled just now) among them, are
    /// journaled with what it took. A reset counts as `URLError(.networkConnectionLost)`, a
    /// stop as `URLError(.cancelled)`. An answer that sent nothing yet ended as its player
    /// says (cancelled).
    func settle(_ current: WireExchange?, _ closing: Closing) {
        var outstanding = unsettled
        unsettled = []
        if let current, current.ledger.status != nil, let entry = current.journalNumber {
            outstanding.append((current.ledger, entry))
        }
        guard !outstanding.isEmpty else { return }
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
        let registry = core.registry
        for (ledger, entry) in outstanding where ledger.isOutstanding(at: taken) {
            let got = ledger.taken(upTo: taken)
            registry.correctJournal(entry: entry, status: got.status, bodyBytes: got.bodyBytes, error: error)
        }
    }
}
