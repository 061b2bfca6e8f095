import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a response does once its moment came, and the hand-over of a head and body bytes to
/// the transport, which records on the exchange what its client received.
extension ExchangePlayer {
    /// Carries out the plan once its moment came: fail, wait for ever, pass through, redirect,
    /// or send.
    func sendHead(of exchange: Exchange) {
        switch exchange.plan.delivery {
        case .never:
            // Stays `waiting` until the timeout or a cancel.
            return
        case .fail(let failure):
            // A failure takes as long as the response would have (OHHTTPStubs' timing).
            continueAt(.now() + exchange.response.pacing.failureDelay) { $0.fail(failure.error) }
        case .refuse(let failure):
            fail(failure.error)
        case .passThrough(let transforms):
            startPassthrough(of: exchange, transforms)
        case .proxy(let base):
            startPassthrough(of: exchange, [], proxyingTo: base)
        case .redirect(let location):
            redirect(exchange, to: location)
        case .stream:
            startStream(of: exchange)
        case .respond(let body):
            if !sendAtOnce(body, of: exchange) { sendBody(of: exchange) }
        case .pace, .failAfterBytes:
            sendBody(of: exchange)
        }
    }

    /// The head of `exchange`'s `response`, for a body of `bodyLength` bytes. A stub's heads are
    /// built into an `HTTPURLResponse` once for as long as they stay the same
    /// (``StubDescriptor/head(_:)``); the network's are not.
    func head(of exchange: Exchange, _ response: StubResponse, bodyLength: Int?) -> ResponseHead {
        var head = ResponseHead(url: exchange.url, response: response, bodyLength: bodyLength)
        if !exchange.plan.isFromNetwork {
            head.reusingHeadsOf = exchange.stub
            head.keptHead = exchange.keptHead
        }
        return head
    }

    /// Stores the response's cookies and hands the head to the client; `false` when there is
    /// no client left (the player has ended).
    func deliver(_ head: ResponseHead, of exchange: Exchange) -> Bool {
        guard let transport else {
            end(.cancelled)
            return false
        }
        // A redirect played as final already stored its cookies when it was announced.
        if !exchange.plan.isAnnouncedRedirect {
            traits.cookies?.store(head.response.cookieLines, from: exchange.url, for: exchange.request.urlRequest)
        }
        exchange.headDelivered(status: head.statusCode)
        lastProgress = .now()
        transport.deliver(head: head)
        return true
    }

    /// Hands body bytes to the client.
    func deliver(_ body: Data, of exchange: Exchange) {
        guard let transport, !body.isEmpty else { return }
        exchange.bodyDelivered(body.count)
        transport.deliver(body: body)
    }
}
