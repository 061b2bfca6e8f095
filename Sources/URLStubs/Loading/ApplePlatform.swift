import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Apple's URL Loading System, as the protocol sees it (Apple's `URLProtocol` documentation,
/// and OHHTTPStubs' `HTTPStubs.m`, which has answered these questions on Apple platforms for a
/// decade):
/// - client callbacks belong on the thread that called `startLoading`, through its run loop;
/// - every consumer accumulates `didLoad` chunks (completion handlers included);
/// - the session follows redirects itself after `wasRedirectedTo`;
/// - the protocol cannot see its session: settings come from the configuration the registry
///   was installed into;
/// - an upload task's body (`upload(for:from:)`, `uploadTask(with:fromFile:)`) reaches the
///   protocol in neither `httpBody` nor `httpBodyStream`: it is unknown;
/// - `stopLoading` arrives on the thread every step runs on, so no step can meet a task that
///   is being cancelled: the protocol's own `stopped` flag says it all.
///
/// Compiled on every platform: on Linux the test suite drives this edge through its model of
/// Apple's loading client.
struct ApplePlatform: LoadingPlatform {
    func environment(for task: URLSessionTask?, state: StubRegistry.State, session: MadeSession?) -> LoadingEnvironment {
        let installedConfiguration = state.installedConfiguration
        return LoadingEnvironment(
            scheduler: RunLoopScheduler.current(),
            deliversChunks: true,
            uploadBody: nil,
            hidesUploadBody: task is URLSessionUploadTask,
            configuration: installedConfiguration,
            isDownloadTask: false,
            delegateQueue: nil,
            handsRedirectsToSession: true)
    }

    func isBeingCancelled(_ task: URLSessionTask) -> Bool { false }
}
