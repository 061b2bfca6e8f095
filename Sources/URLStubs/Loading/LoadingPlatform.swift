import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The edge between URLStubs and the URL loading system that drives its protocol.
///
/// Everything a user can observe is decided in shared code; a platform only answers where
/// callbacks run, who asks the delegate about a redirect, how an upload body is read, whether
/// chunks reach a completion handler, and whether a task is being cancelled. The platform is
/// chosen at compile time (``nativeLoadingPlatform``, by `URLSTUBS_APPLE_LOADING`, which
/// `Package.swift` defines for Apple platforms); the test suite runs the Apple edge on Linux by
/// handing a protocol instance ``ApplePlatform`` before its model of Apple's loading client
/// starts it (``StubURLProtocol/platform``).
protocol LoadingPlatform: Sendable {
    /// What the loading system tells about `task`, gathered once in `startLoading`, on the
    /// loading context. `state` is the registry's, read when the request was claimed: the
    /// configuration it was last installed into (what platforms that hide a task's session go
    /// by). `session` is what the registry recorded of the task's session when it made it
    /// (``MadeSession``; `nil` for a session given by `install(into:)`).
    func environment(for task: URLSessionTask?, state: StubRegistry.State, session: MadeSession?) -> LoadingEnvironment

    /// `true` once `task` is being cancelled but `stopLoading` has not run yet (corelibs marks
    /// the task first and stops the protocol in a later step: a callback in between crashes it).
    /// Called on the loading context.
    func isBeingCancelled(_ task: URLSessionTask) -> Bool

    /// ``isBeingCancelled(_:)`` with what `startLoading` found of the task's layout, so later
    /// steps look nothing up again.
    func isBeingCancelled(_ task: URLSessionTask, check: CancelCheck) -> Bool
}

extension LoadingPlatform {
    func isBeingCancelled(_ task: URLSessionTask, check: CancelCheck) -> Bool { isBeingCancelled(task) }
}

/// What tells, in a later step, that a task is being cancelled: found once, in `startLoading`.
struct CancelCheck: @unchecked Sendable {
    // @unchecked: a field offset and a metadata pointer, never changed.
    #if !URLSTUBS_APPLE_LOADING
    /// corelibs: the task's `_state` field, when its layout was recognised.
    var stateField: StoredField?
    #endif
}

#if URLSTUBS_APPLE_LOADING
/// The loading system of the platform this was built for.
let nativeLoadingPlatform: any LoadingPlatform = ApplePlatform()
#else
/// The loading system of the platform this was built for.
let nativeLoadingPlatform: any LoadingPlatform = CorelibsPlatform()
#endif

/// What a loading request needs to know about its task and session, gathered once in
/// `startLoading` by its ``LoadingPlatform``.
struct LoadingEnvironment: @unchecked Sendable {
    // @unchecked: URLSessionConfiguration and OperationQueue are read-only here or thread-safe.

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
    /// The configuration of the task's session: its own where the platform shows it (Linux),
    /// else the one the registry was installed into.
    let configuration: URLSessionConfiguration?
    /// A download task (Linux cannot stub these).
    let isDownloadTask: Bool
    /// The queue the session's delegate runs on, to wait until it has taken the chunks
    /// already sent (keeps a fast stream to a slow delegate from piling up in memory).
    let delegateQueue: OperationQueue?
    /// `true` when the session follows redirects itself after `wasRedirectedTo` (Apple); the
    /// player follows them itself otherwise.
    let handsRedirectsToSession: Bool
    /// Asks the task's delegate whether to follow a redirect, where the platform does not
    /// (Linux): the delegate's answer (`nil`: stop, deliver the 3xx itself) arrives through
    /// the callback, on any queue. `nil` when there is no delegate to ask.
    var approveRedirect: (any RedirectAsker)?
    /// `true` when the platform itself put the store's cookies in the task's first request
    /// (corelibs does when the task is created; Apple's system does not for custom protocols).
    /// Redirect hops get theirs from URLStubs on every platform.
    var addsCookiesToFirstRequest = false
    /// `true` when everything must happen inside `startLoading` (corelibs' fallback when the
    /// task's work queue cannot be found: no other place is known to be safe for callbacks).
    var preparesInline = false
    /// How a later step tells that the task is being cancelled.
    var cancelCheck = CancelCheck()

    /// The timeout that applies to `request`: its own `timeoutInterval` when set to anything
    /// but the default 60 s, else the configuration's `timeoutIntervalForRequest`.
    func timeout(for request: URLRequest) -> TimeInterval {
        if request.timeoutInterval != 60 { return request.timeoutInterval }
        return configuration?.timeoutIntervalForRequest ?? request.timeoutInterval
    }

    /// `request` as a server would see it: with the configuration's `httpAdditionalHeaders`,
    /// which no loading system hands a custom protocol (the request's own headers win).
    func addingConfigurationHeaders(to request: inout URLRequest) {
        guard let additional = configuration?.httpAdditionalHeaders, !additional.isEmpty else { return }
        for (key, value) in additional {
            let name = "\(key)"
            guard request.value(forHTTPHeaderField: name) == nil else { continue }
            request.setValue("\(value)", forHTTPHeaderField: name)
        }
    }
}
