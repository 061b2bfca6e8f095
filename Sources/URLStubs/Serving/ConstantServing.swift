import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request claimed by a stub whose answer is one constant response in memory, played at
/// once: what an ``ExchangePlayer`` would do for it in one step (the head, the whole body, the
/// finish) is left to the transport, which writes the bytes itself. The loopback server's
/// most common request thus costs no player, no phase machine and no timeout.
///
/// Everything a user can watch stays the engine's: the stub's activation is taken as a
/// lookup takes it (so `times:` holds between simultaneous requests), `onActivation` runs,
/// and ``finish(on:then:)`` ends the exchange through the registry's own ending, which writes
/// the journal entry with what the transport says it delivered, tells the exchange checkers
/// and runs `afterFinish`, in that order, before the transport's last step.
package final class ConstantServing: @unchecked Sendable {
    // @unchecked: touched on the transport's delivery context only, like an Exchange.

    /// The head to send (its `Content-Length` is the body's).
    package let head: ResponseHead
    /// The body to send (empty for a `HEAD` request, whose head still announces the length).
    package let body: Data
    private let exchange: Exchange
    private weak var registry: StubRegistry?

    init(head: ResponseHead, body: Data, exchange: Exchange, registry: StubRegistry) {
        self.head = head
        self.body = body
        self.exchange = exchange
        self.registry = registry
    }

    /// The request as the stub saw it (its path parameters included).
    package var request: StubRequest { exchange.request }

    /// The client was handed the head.
    package func headDelivered() { exchange.headDelivered(status: head.statusCode) }

    /// The client was handed `count` body bytes.
    package func bodyDelivered(_ count: Int) {
        if count > 0 { exchange.bodyDelivered(count) }
    }

    /// Ends the exchange as finished: journal, checkers, `afterFinish`; then `then` (the
    /// transport's last step) on `scheduler` once the hooks called so far have run (at once
    /// when the registry has no hook).
    package func finish(on scheduler: any DeliveryScheduler, then: @escaping @Sendable () -> Void) {
        exchange.end(.finished)
        guard let registry else { return then() }
        registry.exchange(exchange, reached: .ended, on: scheduler, then: then)
    }

    /// The exchange's journal entry, once ``finish(on:then:)`` wrote it (0 before), for
    /// ``StubRegistry/correctJournal(entry:status:bodyBytes:error:)``.
    package var journalNumber: UInt64 { exchange.journalNumber }

    /// The largest body a player hands a chunk-reading client in one piece: the most a
    /// transport that reads chunks should claim with (larger ones go out chunk by chunk).
    package static var largestBodyInOnePiece: Int { ExchangePlayer.maximumChunkSize }

    /// The stub that answers (its response never changes: a transport may keep what it made of it).
    package var stub: StubDescriptor { exchange.stub }
}
