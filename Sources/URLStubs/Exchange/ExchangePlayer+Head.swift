import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a response does once its moment came, and the hand-over of a head and body bytes to
/// the transport, which records on the exchange what its client received.
extension ExchangePlayer {
    /// Does what the response says: fail, wait for ever, pass through, redirect, or send.
    func sendHead(of exchange: Exchange) {
        let response = exchange.response
        switch response.action {
        case .neverRespond:
            // Stays `waiting` until the timeout or a cancel.
            return
        case .fail(let failure):
            // A failure takes as long as the response would have (OHHTTPStubs' timing).
            continueAt(.now() + response.pacing.failureDelay) { $0.fail(failure.error) }
            return
        case .passThrough(let transforms):
            startPassthrough(of: exchange, transforms)
            return
        case .proxy(let base):
            startPassthrough(of: exchange, [], proxyingTo: base)
            return
        case .respond, .failAfterBytes:
            break
        }
        do {
            try response.validate(stubName: exchange.stubDescription)
        } catch {
            fail(error)
            return
        }
        if !exchange.playsRedirectAsFinal, let location = response.redirectLocation {
            redirect(exchange, to: location)
        } else if response.body.isStreamed {
            startStream(of: exchange)
        } else if let data = response.body.data, sendAtOnce(data, response, of: exchange) {
            return
        } else {
            sendBody(of: exchange)
        }
    }

    /// The head of `exchange`'s `response`, for a body of `bodyLength` bytes. A stub's heads are
    /// built into an `HTTPURLResponse` once for as long as they stay the same
    /// (``StubDescriptor/head(_:)``); the network's are not.
    func head(of exchange: Exchange, _ response: StubResponse, bodyLength: Int?) -> ResponseHead {
        var head = ResponseHead(url: exchange.url, response: response, bodyLength: bodyLength)
        if !exchange.cameFromNetwork { head.reusingHeadsOf = exchange.stub }
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
        if !exchange.playsRedirectAsFinal {
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
