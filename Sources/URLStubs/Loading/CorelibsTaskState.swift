#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
import Dispatch

/// Reads swift-corelibs-foundation's private task state with `Mirror`, inside `startLoading`
/// (on the task's work queue, so nothing races it).
///
/// Linux needs three facts the public API does not give: the task's work queue (the only
/// queue where client callbacks are safe), whether the task reports to a delegate (corelibs
/// keeps only the last `didLoad` chunk for completion handlers and async calls), and an upload
/// task's body. Field names are corelibs 6.x's; when one is missing the safe fallback applies
/// (the current queue, the whole body in one chunk, no upload body) and
/// ``CorelibsTaskState/layoutProblems`` says what changed; a test fails loudly on it.
enum CorelibsTaskState {
    static func environment(for task: URLSessionTask?) -> LoadingEnvironment {
        var problems: [String] = []
        let scheduler: any DeliveryScheduler
        if let task, let workQueue = field("workQueue", of: task) as? DispatchQueue {
            scheduler = DispatchQueueScheduler(queue: workQueue)
        } else {
            problems.append("URLSessionTask.workQueue")
            scheduler = InlineScheduler()
        }
        var deliversChunks = false
        var session: URLSession?
        if let task {
            session = field("session", of: task).flatMap(unwrapOptional) as? URLSession
            if task.delegate == nil {
                // No task or session delegate: a completion handler or async call, which keeps
                // only the last chunk. Decided without reading the behaviours table.
            } else if let session, let registry = field("taskRegistry", of: session),
               let behaviours = field("behaviours", of: registry) as? [Int: Any] {
                if let behaviour = behaviours[task.taskIdentifier] {
                    // Only `.callDelegate` forwards every didLoad; the completion kinds keep the last.
                    deliversChunks = "\(behaviour)".hasPrefix("callDelegate")
                }
            } else {
                problems.append("URLSession.taskRegistry.behaviours")
            }
        }
        var uploadBody: Data?
        if let task, task is URLSessionUploadTask {
            if let body = field("knownBody", of: task).flatMap(unwrapOptional) {
                uploadBody = bodyData(body)
            } else {
                problems.append("URLSessionTask.knownBody")
            }
        }
        if !problems.isEmpty { recordProblems(problems) }
        let configuration = session?.configuration
        return LoadingEnvironment(
            scheduler: scheduler,
            deliversChunks: deliversChunks,
            uploadBody: uploadBody,
            cookieStorage: configuration?.httpCookieStorage,
            configurationTimeout: configuration?.timeoutIntervalForRequest,
            isDownloadTask: task is URLSessionDownloadTask,
            followsRedirectsNatively: false,
            delegateQueue: deliversChunks ? session?.delegateQueue : nil)
    }

    private static let problemLock = NSLock()
    nonisolated(unsafe) private static var problemsSeen: Set<String> = []

    /// corelibs fields that could not be found (empty on the toolchains we tested).
    static var layoutProblems: [String] {
        problemLock.lock(); defer { problemLock.unlock() }
        return problemsSeen.sorted()
    }

    private static func recordProblems(_ problems: [String]) {
        problemLock.lock(); defer { problemLock.unlock() }
        problemsSeen.formUnion(problems)
    }

    private static func field(_ name: String, of value: Any) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            for child in current.children where child.label == name { return child.value }
            mirror = current.superclassMirror
        }
        return nil
    }

    private static func unwrapOptional(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }

    /// corelibs' `_Body`: `.none`, `.data(DispatchData)`, `.file(URL)` or `.stream(InputStream)`.
    private static func bodyData(_ body: Any) -> Data? {
        let mirror = Mirror(reflecting: body)
        guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else { return nil }
        switch payload {
        case let data as DispatchData: return Data(data)
        case let data as Data: return data
        case let url as URL: return try? Data(contentsOf: url)
        case let stream as InputStream: return RequestBodyReader.readAll(stream)
        default: return nil
        }
    }
}

/// The fallback when the work queue cannot be found: everything runs at once, inside
/// `startLoading` (the only other place callbacks are known to be safe). Timing is lost, bytes
/// are not.
struct InlineScheduler: DeliveryScheduler {
    func async(_ work: @escaping @Sendable () -> Void) { work() }
    func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) { work() }
}
#endif
