import Foundation

/// What a client took, learned after its exchange ended: a socket hands bytes to the kernel,
/// and only later learns whether the peer took them or reset the connection.
extension StubRegistry {
    /// Corrects the journal entry of `exchange` (ended) with what its client actually took:
    /// the head's status (`nil`: the head never reached it), the body bytes, and the error
    /// the client saw (a reset, a cancel). An entry already pushed out of the journal is left.
    package func correctJournal(of exchange: Exchange, status: Int?, bodyBytes: Int, error: (any Error)?) {
        let sequence = exchange.journalSequence != 0 ? exchange.journalSequence : exchange.recordedSequence
        guard sequence != 0 else { return }
        let errorText = error.map(describeError)
        completeJournalEntry(sequence) { entry in
            entry.statusCode = status
            entry.bodyBytesDelivered = bodyBytes
            if let errorText { entry.errorDescription = errorText }
            entry.isInFlight = false
        }
    }
}
