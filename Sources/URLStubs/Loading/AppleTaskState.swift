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
///   protocol in neither `httpBody` nor `httpBodyStream`: it is unknown.
///
/// Compiled on every platform: on Linux the test suite drives this path through its model of
/// Apple's loading client.
enum AppleTaskState {
    static func environment(for task: URLSessionTask?, installedConfiguration: URLSessionConfiguration?) -> LoadingEnvironment {
        LoadingEnvironment(
            path: .apple,
            scheduler: RunLoopScheduler.current(),
            deliversChunks: true,
            uploadBody: nil,
            hidesUploadBody: task is URLSessionUploadTask,
            session: nil,
            installedConfiguration: installedConfiguration,
            isDownloadTask: false,
            delegateQueue: nil)
    }
}
