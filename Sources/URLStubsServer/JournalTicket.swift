import Foundation
import Dispatch
import URLStubs

/// One request handed to the registry, from the moment its player starts until its outcome is
/// in the journal: the ``URLStubs/ExchangeHost`` its player talks to, passing everything on to
/// the registry's own host and noting the exchange it was given and the moment it was
/// journaled. The server's core holds every ticket not journaled yet, so ``ServerCore/stop()``
/// can wait for them and journal as cancelled those still open at its deadline: an exchange
/// being played, and a response closure or closure matcher still running
/// (``URLStubs/ClosureServing``), whose late answer is then dropped.
final class JournalTicket: ExchangeHost, @unchecked Sendable {
    // @unchecked: `exchange`, `isJournaled` and `status` are guarded by `lock`.

    private let host: any ExchangeHost
    /// The user code that answers this request (a response closure, or a lookup that meets a
    /// closure matcher), when the server claimed it.
    private let closure: ClosureServing?
    private weak var core: ServerCore?
    private let lock = NSLock()
    private var exchangeValue: Exchange?
    private var journaled = false
    private var statusSent: Int?
    private var bodySent = 0

    init(host: any ExchangeHost, closure: ClosureServing?, core: ServerCore) {
        self.host = host
        self.closure = closure
        self.core = core
    }

    /// The exchange the registry answered with, once it did.
    var exchange: Exchange? {
        lock.lock()
        defer { lock.unlock() }
        return exchangeValue
    }

    var isJournaled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return journaled
    }

    /// Notes what went on the wire so far, for an outcome journaled at ``ServerCore/stop()``'s deadline.
    func noteSent(status: Int?, bodyBytes: Int) {
        lock.lock()
        statusSent = status
        bodySent = bodyBytes
        lock.unlock()
    }

    /// The outcome is in the journal: the core stops waiting for it.
    private func markJournaled() {
        lock.lock()
        let first = !journaled
        journaled = true
        lock.unlock()
        if first { core?.ticketJournaled(self) }
    }

    /// The server stops and this request is still open past the deadline: its exchange, if the
    /// registry gave one, is journaled as cancelled now, and so is a response closure or a
    /// closure matcher still running (its late answer is dropped). Returns `false` when neither
    /// was there.
    func journalAsCancelled() -> Bool {
        lock.lock()
        let exchange = exchangeValue, status = statusSent, bytes = bodySent
        let open = !journaled
        let first = open && exchange != nil
        if first { journaled = true }
        lock.unlock()
        guard first, let exchange, let registry = core?.registry else {
            guard open, exchange == nil, let closure, closure.abandon() else { return false }
            lock.lock()
            journaled = true
            lock.unlock()
            return true
        }
        registry.correctJournal(entry: exchange.journalNumber, status: status, bodyBytes: bytes, error: URLError(.cancelled))
        return true
    }

    // MARK: ExchangeHost

    func answer(_ request: StubRequest) -> ExchangeAnswer {
        // A claimed closure answers the request the claim matched (this one, built alike).
        if let closure { return .needsUserCode { [self] in noting(closure.respond()) } }
        return noting(host.answer(request))
    }

    /// `answer`, noting the exchange or the failure it brings (the registry journals a failure
    /// before answering with it).
    private func noting(_ answer: ExchangeAnswer) -> ExchangeAnswer {
        switch answer {
        case .exchange(let exchange):
            lock.lock()
            exchangeValue = exchange
            lock.unlock()
        case .failure:
            markJournaled()
        case .needsUserCode(let work):
            return .needsUserCode { [self] in noting(work()) }
        }
        return answer
    }

    func runUserCode(_ work: @escaping @Sendable () -> Void, watch: UserCodeWatch?) {
        host.runUserCode(work, watch: watch)
    }

    func exchange(
        _ exchange: Exchange?, reached event: ExchangeEvent, on scheduler: any DeliveryScheduler, then: (@Sendable () -> Void)?
    ) {
        host.exchange(exchange, reached: event, on: scheduler, then: then)
        if case .ended = event, exchange != nil { markJournaled() }
    }
}
