#if !canImport(FoundationNetworking)
import Foundation

/// Apple platforms: callbacks go to the run loop of the thread that called `startLoading`;
/// every consumer accumulates `didLoad` chunks; the session follows redirects itself.
enum AppleTaskState {
    static func environment(for task: URLSessionTask?) -> LoadingEnvironment {
        var environment = LoadingEnvironment(
            scheduler: RunLoopScheduler.current(),
            deliversChunks: true,
            uploadBody: nil,
            session: nil,
            isDownloadTask: false,
            followsRedirectsNatively: true,
            delegateQueue: nil)
        environment.answersInline = true
        return environment
    }
}
#endif
