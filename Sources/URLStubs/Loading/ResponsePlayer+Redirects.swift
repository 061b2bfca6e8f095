import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirects (followed here on Linux, handed to the session on Apple platforms) and
/// passthrough to the real network.
extension ResponsePlayer {
    // MARK: Redirects

    func redirect(to location: String) {
        guard let item else { return }
        let response = item.response
        guard let target = URL(string: location, relativeTo: currentURL)?.absoluteURL, target.scheme != nil else {
            fail(StubError.invalidRedirect(location: location, stub: item.descriptor.description))
            return
        }
        guard redirectCount < RedirectHop.maximumHops else {
            fail(
                URLError(
                    .httpTooManyRedirects,
                    userInfo: [
                        NSURLErrorFailingURLErrorKey: target,
                        NSLocalizedDescriptionKey: "URLStubs: more than \(RedirectHop.maximumHops) redirects, the last to \(target.absoluteString).",
                    ]))
            return
        }
        guard let http = response.head(for: currentURL, bodyLength: response.body.knownLength) else {
            fail(StubError.invalidStatusCode(response.statusCode, stub: item.descriptor.description))
            return
        }
        // Before the next hop: a cookie this response sets goes out with it.
        cookies.store(response.cookieLines, from: currentURL, for: item.request.urlRequest)
        let next = RedirectHop.nextRequest(after: item.request.requestWithBody, statusCode: response.statusCode, to: target)
        host?.announceRedirect(of: item, to: next)
        redirectCount += 1
        if environment.handsRedirectsToSession {
            guard let sink = liveSink else { return }
            handedOff = true
            playsRedirectAsFinal = true
            sink.playerWasRedirected(to: next, by: http)
            // Apple's loading system expects the 3xx itself next (OHHTTPStubs issue 174, PR 175):
            // it is the final response when the delegate declines; when the session follows the
            // redirect it stops this protocol first, and nothing more is sent.
            guard !ended else { return }
            sendHead()
            return
        }
        guard let approve = environment.approveRedirect else {
            follow(next)
            return
        }
        let scheduler = environment.scheduler
        approve(http, next) { [self] decision in
            scheduler.async { [self] in
                newStep()
                guard !ended else { return }
                if let decision {
                    follow(decision)
                } else {
                    // Declined: the redirect response, with its body, is what the caller gets.
                    playsRedirectAsFinal = true
                    sendHead()
                }
            }
        }
    }

    /// Loads the next hop in this player (Linux): its stub's response closure runs off the
    /// delivery context, like the first hop's.
    private func follow(_ request: URLRequest) {
        guard let previous = item, let target = request.url else {
            fail(StubError.invalidRedirect(location: "", stub: item?.descriptor.description ?? "?"))
            return
        }
        var next = request
        cookies.attach(to: &next)
        guard let host else {
            fail(StubError.registryReleased(url: target.absoluteString))
            return
        }
        let hop = next
        lastProgress = .now()
        let prepareHop: @Sendable () -> PreparedItem = {
            switch host.resolveRedirect(to: hop, from: previous) {
            case .play(let item): return .success(item)
            case .fail(let error): return .failure(SendableError(error: error))
            }
        }
        prepareOffContext(prepareHop) { [self] prepared in
            switch prepared {
            case .failure(let failure):
                fail(failure.error)
            case .success(let nextItem):
                item = nextItem
                currentURL = target
                headSent = false
                startTime = .now()
                play()
            }
        }
    }

    // MARK: Passthrough

    func startPassthrough(_ spec: Passthrough) {
        guard let item else { return }
        let scheduler = environment.scheduler
        let timing = item.response
        let queue = workQueue
        passthrough = NetworkLoader.start(item.request.requestWithBody, on: queue) { [self] result in
            // The transforms are user code: on the request's own queue, not the loader's
            // (shared by every passthrough) nor the delivery context.
            queue.async { [self] in
                let transformed = Self.applying(spec, to: result, timing: timing)
                scheduler.async { [self] in
                    newStep(); passthroughLoaded(transformed)
                }
            }
        }
    }

    private static func applying(
        _ spec: Passthrough, to result: Result<(HTTPURLResponse, Data), SendableError>,
        timing: StubResponse
    ) -> Result<StubResponse, SendableError> {
        switch result {
        case .failure(let failure):
            return .failure(failure)
        case .success(var (response, body)):
            do {
                for transform in spec.transforms {
                    (response, body) = try transform.apply(response, body)
                }
            } catch {
                return .failure(SendableError(error: error))
            }
            return .success(NetworkLoader.stubResponse(from: response, body: body, timing: timing))
        }
    }

    private func passthroughLoaded(_ result: Result<StubResponse, SendableError>) {
        guard !ended else { return }
        passthrough = nil
        lastProgress = .now()
        switch result {
        case .failure(let failure):
            fail(failure.error)
        case .success(let real):
            item?.response = real
            item?.cameFromNetwork = true
            sendHead()
        }
    }
}
