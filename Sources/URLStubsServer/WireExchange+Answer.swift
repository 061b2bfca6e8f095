import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Handing a request that passed the server's checks to the registry: a constant answer the
/// registry hands over whole is written at once (``play(_:on:)``); any other goes to a player,
/// whose host is the request's ``JournalTicket``.
extension WireExchange {
    func answer(_ urlRequest: URLRequest, _ stubRequest: StubRequest, on connection: ServerConnection) {
        seenRequest = urlRequest
        let registry = connection.core.registry
        let claim = registry.claimForServing(
            stubRequest, largestBody: ConstantServing.largestBodyInOnePiece, validated: connection.lastConstantHead?.stub)
        if case .constant(let served) = claim { return play(served, on: connection) }
        var traits = TransportTraits(
            scheduler: connection.scheduler, deliversChunks: true, redirects: .deliveredAsFinal,
            consumerQueue: connection.consumerQueue, cookies: nil, timeout: .infinity)
        let upstream = connection.core.access.upstream
        traits.passthroughTarget = { [weak registry] stubRequest, outgoing in
            guard let registry else { throw StubError.registryReleased(url: outgoing.url?.absoluteString ?? "") }
            return try ServerUpstream.request(for: stubRequest, outgoing, upstream: upstream, registry: registry)
        }
        traits.proxyTargetCheck = { [port = connection.core.port] outgoing in try ServerAccess.refuseProxyToItself(outgoing, port: port) }
        var closure: ClosureServing?
        if case .closure(let claimed) = claim { closure = claimed }
        let ticket = connection.core.makeTicket(closure: closure)
        self.ticket = ticket
        let player = ExchangePlayer(url: urlRequest.url, traits: traits, transport: self, host: ticket)
        self.player = player
        player.start(urlRequest, uploadBody: nil, hidesUploadBody: false)
    }
}
