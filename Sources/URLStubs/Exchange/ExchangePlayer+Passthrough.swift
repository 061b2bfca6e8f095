import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response fetched from the real network, changed by the stub's transforms, then played
/// like a stub's.
extension ExchangePlayer {
    func startPassthrough(of exchange: Exchange, _ transforms: [ResponseTransform]) {
        guard let host else {
            fail(StubError.registryReleased(url: exchange.url.absoluteString))
            return
        }
        var outgoing = exchange.request.requestWithBody
        if let target = traits.passthroughTarget {
            do {
                outgoing = try target(exchange.request, outgoing)
            } catch {
                fail(error)
                return
            }
        }
        let scheduler = scheduler
        let handle = NetworkLoader.start(outgoing) { [self] result in
            // The transforms are user code: off the loader's queue and the loading context.
            host.runUserCode { [self] in
                // A network error carries the request's URL, secrets and all: scrubbed before
                // the app, a hook or the recorder sees it.
                let result = result.mapError {
                    SendableError(error: exchange.scrubbing.scrubbed(networkError: $0.error, of: exchange.request))
                }
                let transformed = NetworkLoader.applying(transforms, to: result, timing: exchange.response)
                scheduler.async(asStep { $0.passthroughLoaded(transformed, of: exchange) })
            }
        }
        phase = .passingThrough(exchange, handle)
    }

    private func passthroughLoaded(_ result: Result<StubResponse, SendableError>, of exchange: Exchange) {
        lastProgress = .now()
        switch result {
        case .failure(let failure):
            fail(failure.error)
        case .success(let real):
            exchange.response = real
            exchange.cameFromNetwork = true
            sendHead(of: exchange)
        }
    }
}
