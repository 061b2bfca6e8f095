import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a loading request needs to know about its task and session, gathered once in
/// `startLoading` by the platform's own code (``CorelibsTaskState`` on Linux,
/// ``AppleTaskState`` on Apple platforms).
struct LoadingEnvironment: @unchecked Sendable {
    // @unchecked: HTTPCookieStorage and OperationQueue are thread-safe reference types.

    /// Where client callbacks may be made.
    let scheduler: any DeliveryScheduler
    /// `true` when the consumer sees every `didLoad` chunk (a delegate). `false` when it keeps
    /// only the last one (corelibs' completion-handler and async tasks): the body is then
    /// delivered whole, in one chunk, at the time the last paced chunk would arrive.
    let deliversChunks: Bool
    /// The body of an upload task, which the request does not carry on Linux.
    let uploadBody: Data?
    /// The task's session, when the platform code could find it; its configuration is read
    /// only when needed (a copy is made on every read).
    let session: URLSession?
    /// A download task (Linux cannot stub these).
    let isDownloadTask: Bool
    /// The platform follows redirects itself after `wasRedirectedTo` (Apple platforms).
    let followsRedirectsNatively: Bool
    /// The queue the session's delegate runs on, to wait until it has taken the chunks
    /// already sent (keeps a fast stream to a slow delegate from piling up in memory).
    let delegateQueue: OperationQueue?
    /// Asks the task's delegate whether to follow a redirect, where the platform does not
    /// (Linux): the delegate's answer (`nil`: stop, deliver the 3xx itself) arrives through
    /// the callback, on any queue. `nil` when there is no delegate to ask.
    var approveRedirect: (@Sendable (HTTPURLResponse, URLRequest, @escaping @Sendable (URLRequest?) -> Void) -> Void)?
    /// `true` when the platform already knows the task, so a callback may be made inside
    /// `startLoading` itself (corelibs registers a task asynchronously and crashes on a
    /// callback for a task it has not registered yet).
    var answersInline = false

    /// The timeout that applies to `request`: its own `timeoutInterval` when set to anything
    /// but the default 60 s, else the configuration's `timeoutIntervalForRequest`.
    func timeout(for request: URLRequest) -> TimeInterval {
        if request.timeoutInterval != 60 { return request.timeoutInterval }
        return session?.configuration.timeoutIntervalForRequest ?? request.timeoutInterval
    }

    /// The session's cookie store, when it can be known.
    var cookieStorage: HTTPCookieStorage? {
        #if canImport(FoundationNetworking)
        return session?.configuration.httpCookieStorage
        #else
        return HTTPCookieStorage.shared
        #endif
    }
}
