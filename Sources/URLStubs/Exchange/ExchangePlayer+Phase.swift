import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every state an ``ExchangePlayer`` can be in, each carrying what it needs.
extension ExchangePlayer {
    enum Phase {
        /// Not started.
        case idle
        /// The registry builds the answer (a closure runs off the loading context).
        case answering
        /// Held at a ``ResponseGate`` until the test releases it.
        case held(Exchange, ResponseGate, HeldRequest)
        /// Before the head: the request time elapsing, a failure's delay, a response that never
        /// comes; or the step that sends a head and a body in memory at once.
        case waiting(Exchange)
        /// Fetching the response from the real network.
        case passingThrough(Exchange, NetworkLoader.Handle)
        /// The client decides whether to follow a redirect (corelibs' task delegate).
        case askingAboutRedirect(Exchange)
        /// A file or stream body being opened.
        case openingBody(Exchange, BodyReader)
        /// The head is sent; the body is read and sent, paced.
        case sendingBody(Exchange, BodyTransfer)
        /// The head is sent; a live stream's or a script's writes go out as they come.
        case streaming(Exchange, StreamPlayback)
        /// The outcome is known and reported; the client's last callback waits for the hooks.
        case finishing
        /// Nothing more will happen.
        case ended
    }

    /// The exchange being played, if any.
    var current: Exchange? {
        switch phase {
        case .held(let exchange, _, _), .waiting(let exchange), .passingThrough(let exchange, _),
            .askingAboutRedirect(let exchange), .openingBody(let exchange, _), .sendingBody(let exchange, _),
            .streaming(let exchange, _):
            return exchange
        case .idle, .answering, .finishing, .ended:
            return nil
        }
    }
}
