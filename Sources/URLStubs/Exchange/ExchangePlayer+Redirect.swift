import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response that redirects: followed here (the next hop is matched like any request), handed
/// to a client that follows redirects itself, or delivered as it is.
extension ExchangePlayer {
    func redirect(_ exchange: Exchange, to location: String) {
        let response = exchange.response
        guard let target = URL(string: location, relativeTo: exchange.url)?.absoluteURL, target.scheme != nil else {
            fail(StubError.invalidRedirect(location: location, stub: exchange.stubDescription))
            return
        }
        if case .deliveredAsFinal = traits.redirects {
            // The client follows it, or not: to the engine it is a response like any other.
            exchange.replan(exchange.plan.deliveringRedirect(stubName: exchange.stubDescription))
            sendHead(of: exchange)
            return
        }
        guard redirectCount < RedirectHop.maximumHops else {
            fail(RedirectHop.tooManyRedirects(target: target))
            return
        }
        let head = self.head(of: exchange, response, bodyLength: response.body.knownLength)
        // Before the next hop: a cookie this response sets goes out with it.
        traits.cookies?.store(response.cookieLines, from: exchange.url, for: exchange.request.urlRequest)
        let next = RedirectHop.nextRequest(after: exchange.request.requestWithBody, statusCode: response.statusCode, to: target)
        host.exchange(exchange, reached: .redirecting(to: next), on: scheduler, then: nil)
        redirectCount += 1
        exchange.replan(exchange.plan.deliveringRedirect(stubName: exchange.stubDescription))
        switch traits.redirects {
        case .deliveredAsFinal:
            return
        case .handedToClient:
            guard let transport else {
                end(.cancelled)
                return
            }
            handedToSession = target
            transport.handOver(redirectTo: next, head: head)
            // Apple's loading system expects the 3xx itself next: it is the final response when
            // the delegate declines; when the session follows the redirect it stops this
            // protocol first, and nothing more is sent.
            if case .ended = phase { return }
            sendHead(of: exchange)
        case .followedByPlayer(nil):
            follow(exchange, to: next)
        case .followedByPlayer(let ask?):
            guard let redirectResponse = head.httpURLResponse else {
                fail(StubError.invalidStatusCode(response.statusCode, stub: exchange.stubDescription))
                return
            }
            phase = .askingAboutRedirect(exchange)
            let scheduler = scheduler
            ask.ask(about: redirectResponse, next: next) { [self] decision in
                scheduler.async(
                    asStep { player in
                        if let decision {
                            player.follow(exchange, to: decision)
                        } else {
                            // Declined: the redirect response, with its body, is what the client gets.
                            player.sendHead(of: exchange)
                        }
                    })
            }
        }
    }

    /// Ends the hop that redirected and loads the next one in this player: it is matched like
    /// any request, and any closure it needs runs off the loading context.
    private func follow(_ exchange: Exchange, to request: URLRequest) {
        var next = request
        traits.cookies?.attach(to: &next)
        exchange.headDelivered(status: exchange.response.statusCode)
        close(exchange, .redirected(to: next.url ?? exchange.url))
        lastProgress = .now()
        answer(StubRequest(next, body: next.httpBody, pathParameters: [:], isBodyKnown: true))
    }
}
