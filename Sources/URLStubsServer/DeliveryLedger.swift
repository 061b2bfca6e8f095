/// Where one answer's bytes lie in its connection's output (counted from the connection's
/// first byte), so that once the connection fails the server can tell how much of the answer
/// the client took: its head or not, and how many body bytes. The journal then says what the
/// client got, not what the server queued.
struct DeliveryLedger {
    /// The status of the head sent; `nil` before it.
    private(set) var status: Int?
    /// Where the head ends in the output.
    private var headEnd = Int.max
    /// Body bytes sent so far.
    private(set) var bodyBytes = 0
    /// Each run of body bytes: where it starts in the output, the body bytes before it, and
    /// its length. Runs that follow each other in the output are one run. The first is kept
    /// apart: an answer written at once has one run, and then no array to allocate.
    private var firstRun: (start: Int, before: Int, count: Int)?
    private var laterRuns: [(start: Int, before: Int, count: Int)] = []
    /// Where the answer's last byte ends in the output; `Int.max` while it goes on.
    var end = Int.max

    mutating func headSent(status: Int, endingAt offset: Int) {
        self.status = status
        headEnd = offset
    }

    mutating func bodySent(_ count: Int, at start: Int) {
        guard count > 0 else { return }
        defer { bodyBytes += count }
        guard let first = firstRun else {
            firstRun = (start, bodyBytes, count)
            return
        }
        if let last = laterRuns.last {
            if last.start + last.count == start {
                laterRuns[laterRuns.count - 1].count += count
                return
            }
        } else if first.start + first.count == start {
            firstRun?.count += count
            return
        }
        laterRuns.append((start, bodyBytes, count))
    }

    /// What the client took when it took the output's first `offset` bytes.
    func taken(upTo offset: Int) -> (status: Int?, bodyBytes: Int) {
        guard status != nil, offset >= headEnd else { return (nil, 0) }
        for run in laterRuns.reversed() + (firstRun.map { [$0] } ?? []) where run.start < offset {
            return (status, run.before + min(run.count, offset - run.start))
        }
        return (status, 0)
    }

    /// `true` when the client may not have taken all of the answer by `offset`.
    func isOutstanding(at offset: Int) -> Bool { end > offset }
}
