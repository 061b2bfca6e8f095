import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The registry's side of loading a request: resolving it to a response, calling the hooks,
/// writing the journal and storing cookies. ``StubURLProtocol`` calls these.
extension StubRegistry {
    /// Resolves `request` and builds its response, or the error the task must fail with.
    func makeItem(for request: StubRequest) -> Result<PlaybackItem, SendableError> {
        switch resolve(request) {
        case .stub(let descriptor, let matched, let activation):
            do {
                let response = try descriptor.responder(matched, activation)
                hook { $0.activation }?(matched, descriptor, response)
                record(JournalEntry(request: matched, stub: descriptor,
                                    statusCode: response.error == nil && response.passthrough == nil ? response.statusCode : nil,
                                    errorDescription: response.error.map(describeError), date: Date()))
                return .success(PlaybackItem(descriptor: descriptor, request: matched, response: response))
            } catch {
                record(JournalEntry(request: matched, stub: descriptor, statusCode: nil,
                                    errorDescription: describeError(error), date: Date()))
                hook { $0.finish }?(matched, descriptor, nil, error)
                return .failure(SendableError(error: error))
            }
        case .invalid(let descriptor):
            let error = StubError.invalidMatcher(stub: descriptor.description, problems: descriptor.matcher.problems)
            record(JournalEntry(request: request, stub: descriptor, statusCode: nil, errorDescription: "\(error)", date: Date()))
            return .failure(SendableError(error: error))
        case .unmatched:
            reportMissing(request)
            if unmatchedRequestPolicy == .passThrough {
                return .success(PlaybackItem(descriptor: .network, request: request, response: .passthrough()))
            }
            // A URLError, because that is what app code handles; the StubError rides along.
            let error = StubError.unmatchedRequest(report: unmatchedReport(for: request)).asURLError(url: request.url)
            return .failure(SendableError(error: error))
        }
    }

    /// Records an unmatched request and calls the `onMissing` hook.
    func reportMissing(_ request: StubRequest) {
        record(JournalEntry(request: request, stub: nil, statusCode: nil, errorDescription: nil, date: Date()))
        hook { $0.missing }?(request)
    }

    /// The next hop of a redirect chain answered by stubs.
    func resolveRedirect(to next: URLRequest, from previous: PlaybackItem) -> ResponsePlayer.RedirectResolution {
        hook { $0.redirect }?(previous.request, next, previous.descriptor, previous.response)
        hook { $0.finish }?(previous.request, previous.descriptor, previous.response, nil)
        let request = StubRequest(next, body: next.httpBody, pathParameters: [:], isBodyKnown: true)
        if !isEnabled {
            return .play(PlaybackItem(descriptor: .network, request: request, response: .passthrough()))
        }
        switch makeItem(for: request) {
        case .success(let item): return .play(item)
        case .failure(let error): return .fail(error.error)
        }
    }

    /// Calls `afterFinish` once a played response ended.
    func playbackEnded(item: PlaybackItem, outcome: PlaybackOutcome) {
        guard let finish = hook({ $0.finish }) else { return }
        switch outcome {
        case .finished(let response):
            finish(item.request, item.descriptor, response, nil)
        case .failed(let error, let response):
            finish(item.request, item.descriptor, response, error)
        case .cancelled(let response):
            finish(item.request, item.descriptor, response, URLError(.cancelled))
        }
    }

    /// Stores a response's cookies where the session will send them back.
    ///
    /// `HTTPCookieStorage.shared` on Linux is a file in the user's home directory: stubs write
    /// there only when ``storesCookiesInSharedStorage`` says so, so a test never pollutes a
    /// real cookie jar by accident.
    func storeCookies(_ lines: [String], for url: URL, request: URLRequest, storage: HTTPCookieStorage?) {
        guard !lines.isEmpty, request.httpShouldHandleCookies, let storage else { return }
        #if canImport(FoundationNetworking)
        if storage === HTTPCookieStorage.shared, !storesCookiesInSharedStorage { return }
        #endif
        let cookies = lines.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }
        storage.setCookies(cookies, for: url, mainDocumentURL: request.mainDocumentURL ?? url)
    }
}

/// A short, readable description of an error for the journal.
func describeError(_ error: any Error) -> String {
    if let urlError = error as? URLError { return "URLError(\(urlError.code.rawValue))" }
    return "\(error)"
}
