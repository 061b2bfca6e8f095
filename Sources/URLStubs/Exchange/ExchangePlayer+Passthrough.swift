import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response fetched from the real network, changed by the stub's transforms, then played
/// like a stub's.
extension ExchangePlayer {
    func startPassthrough(of exchange: Exchange, _ transforms: [ResponseTransform], proxyingTo base: URL? = nil) {
        var outgoing = exchange.request.requestWithBody
        // The app's timeout (its request's, or its session's), not the default the request
        // may carry: the player's own clock ends the request at that time.
        if traits.timeout > 0, traits.timeout.isFinite { outgoing.timeoutInterval = traits.timeout }
        do {
            if let base {
                outgoing.url = Self.proxied(exchange.url, to: base)
                // The client's Host names where it sent the request, not the base.
                outgoing.setValue(nil, forHTTPHeaderField: "Host")
                try traits.proxyTargetCheck?(outgoing)
            } else if let target = traits.passthroughTarget {
                outgoing = try target(exchange.request, outgoing)
            }
        } catch {
            fail(error)
            return
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

    /// `url`'s path and query after `base`'s scheme, authority and path: `https://b/api` and
    /// `http://a/users?page=2` make `https://b/api/users?page=2`.
    static func proxied(_ url: URL, to base: URL) -> URL {
        guard var parts = URLComponents(url: base, resolvingAgainstBaseURL: false),
            let request = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return base }
        var basePath = parts.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let path = request.percentEncodedPath.isEmpty ? "/" : request.percentEncodedPath
        parts.percentEncodedPath = basePath + path
        parts.percentEncodedQuery = request.percentEncodedQuery
        return parts.url ?? base
    }

    private func passthroughLoaded(_ result: Result<StubResponse, SendableError>, of exchange: Exchange) {
        lastProgress = .now()
        switch result {
        case .failure(let failure):
            fail(failure.error)
        case .success(let real):
            exchange.replan(exchange.plan.answeredByNetwork(real, stubName: exchange.stubDescription))
            sendHead(of: exchange)
        }
    }
}
