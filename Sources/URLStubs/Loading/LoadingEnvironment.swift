import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which URL loading system drives a ``StubURLProtocol``.
///
/// Everything a user can observe is decided in shared code; the path only answers where
/// callbacks run, who asks the delegate about a redirect, how an upload body is read and
/// whether chunks reach a completion handler. `URLSTUBS_APPLE_LOADING` (defined for Apple
/// platforms in `Package.swift`) selects Apple's; the test suite also drives the Apple path on
/// Linux through a model of Apple's loading client (`Tests/URLStubsTests/Support/AppleLoadingModel.swift`).
enum LoadingPath: Sendable {
    /// swift-corelibs-foundation: callbacks on the task's work queue, no `wasRedirectedTo`.
    case corelibs
    /// Apple's URL Loading System: callbacks on the run loop of the thread that started
    /// loading, redirects handed to the session with `wasRedirectedTo`, no cookie handling.
    case apple

    /// The path of the platform this was built for.
    static var native: LoadingPath {
        #if URLSTUBS_APPLE_LOADING
        return .apple
        #else
        return .corelibs
        #endif
    }

    /// The `taskDescription` of the tasks the test suite's model of Apple's loading client
    /// runs. (A protocol property would be lost: corelibs drops them when an `NSURLRequest`
    /// becomes a `URLRequest`.)
    static let appleModelTaskDescription = "URLStubs.AppleLoadingModel"

    /// The path that drives `task`: the platform's own, or, on Linux, Apple's for the model's
    /// tasks.
    static func driving(_ task: URLSessionTask?) -> LoadingPath {
        #if URLSTUBS_APPLE_LOADING
        return .apple
        #else
        return task?.taskDescription == appleModelTaskDescription ? .apple : .corelibs
        #endif
    }
}

/// What a loading request needs to know about its task and session, gathered once in
/// `startLoading` by the path's own code (``CorelibsTaskState`` on Linux, ``AppleTaskState``
/// on Apple platforms).
struct LoadingEnvironment: @unchecked Sendable {
    // @unchecked: HTTPCookieStorage, URLSessionConfiguration and OperationQueue are read-only
    // here or thread-safe.

    let path: LoadingPath
    /// Where client callbacks may be made.
    let scheduler: any DeliveryScheduler
    /// `true` when the consumer sees every `didLoad` chunk (a delegate, or any consumer on Apple
    /// platforms). `false` when it keeps only the last one (corelibs' completion-handler and
    /// async tasks): the body is then delivered whole, in one chunk, when the last paced chunk
    /// would have arrived.
    let deliversChunks: Bool
    /// The body of an upload task, which the request does not carry.
    let uploadBody: Data?
    /// An upload task whose body could not be read (Apple does not expose it to protocols):
    /// the request's body is unknown, and body matchers say so instead of guessing.
    let hidesUploadBody: Bool
    /// The task's session, where the platform shows it (Linux, in corelibs' task state).
    let session: URLSession?
    /// The configuration the registry was last installed into (what Apple platforms go by:
    /// a protocol cannot see its session there).
    let installedConfiguration: URLSessionConfiguration?
    /// A download task (Linux cannot stub these).
    let isDownloadTask: Bool
    /// The queue the session's delegate runs on, to wait until it has taken the chunks
    /// already sent (keeps a fast stream to a slow delegate from piling up in memory).
    let delegateQueue: OperationQueue?
    /// Asks the task's delegate whether to follow a redirect, where the platform does not
    /// (Linux): the delegate's answer (`nil`: stop, deliver the 3xx itself) arrives through
    /// the callback, on any queue. `nil` when there is no delegate to ask.
    var approveRedirect: (@Sendable (HTTPURLResponse, URLRequest, @escaping @Sendable (URLRequest?) -> Void) -> Void)?
    /// `true` when the platform itself put the store's cookies in the task's first request
    /// (corelibs does when the task is created; Apple's system does not for custom protocols).
    /// Redirect hops get theirs from URLStubs on every platform.
    var addsCookiesToFirstRequest = false
    /// `true` when everything must happen inside `startLoading` (corelibs' fallback when the
    /// task's work queue cannot be found: no other place is known to be safe for callbacks).
    var preparesInline = false

    /// The configuration of the task's session: its own where the platform shows it, else the
    /// one the registry was installed into. A getter, because corelibs copies the
    /// configuration on every read: only the requests that need it pay for it.
    var configuration: URLSessionConfiguration? { session?.configuration ?? installedConfiguration }

    /// `true` when the session follows redirects itself after `wasRedirectedTo` (Apple).
    var handsRedirectsToSession: Bool { path == .apple }

    /// The timeout that applies to `request`: its own `timeoutInterval` when set to anything
    /// but the default 60 s, else the configuration's `timeoutIntervalForRequest`.
    func timeout(for request: URLRequest) -> TimeInterval {
        if request.timeoutInterval != 60 { return request.timeoutInterval }
        return configuration?.timeoutIntervalForRequest ?? request.timeoutInterval
    }
}
