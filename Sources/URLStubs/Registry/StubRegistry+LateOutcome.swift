import Foundation

/// What a client took, learned after its exchange ended: a socket hands bytes to the kernel,
/// and only later learns whether the peer took them or reset the connection.
extension StubRegistry {
    /// Corrects the journal entry numbered `entry` (an ended exchange's
    /// ``Exchange/journalNumber``) with what its client actually took: the head's status
    /// (`nil`: the head never reached it), the body bytes, and the error the client saw (a
    /// reset, a cancel). An entry already pushed out of the journal is left.
    package func correctJournal(entry: UInt64, status: Int?, bodyBytes: Int, error: (any Error)?) {
        guard entry != 0 else { return }
        let errorText = error.map(describeError)
        completeJournalEntry(entry) { entry in
            entry.statusCode = status
            entry.bodyBytesDelivered = bodyBytes
            if let errorText { entry.errorDescription = errorText }
            entry.isInFlight = false
        }
    }
}

extension Exchange {
    /// The number of the exchange's journal entry (for
    /// ``StubRegistry/correctJournal(entry:status:bodyBytes:error:)``); 0 until it has one
    /// (an exchange played at once is recorded when it ends).
    package var journalNumber: UInt64 { journalSequence != 0 ? journalSequence : recordedSequence }
}
