#if !URLSTUBS_APPLE_LOADING
import Foundation
import FoundationNetworking

/// The session ``StubRegistry/makeSession(configuration:delegate:delegateQueue:)`` makes on
/// Linux: a plain `URLSession` that notes how each task is created (with or without a
/// completion handler, with which upload body) in its ``MadeSession`` record, and answers
/// through a protocol class of its own, released with the session.
///
/// corelibs' `async` methods (`data(for:)`, `upload(for:from:)`) create their tasks through
/// an internal method no subclass sees: their tasks get the default creation (a completion
/// handler, no upload body noted), which is what they are, except the body of an `async`
/// upload, read then from the task as for a session given by `install(into:)`.
final class MadeURLSession: URLSession, @unchecked Sendable {
    let record: MadeSession
    private let slot: Int

    init(
        configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?, delegateQueue: OperationQueue?,
        record: MadeSession, slot: Int
    ) {
        self.record = record
        self.slot = slot
        super.init(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
    }

    deinit { ProtocolClassPool.release(slot) }

    /// A session of `registry`'s, answered through a class of its own, from a copy of
    /// `configuration` (which the registry was installed into: sessions the caller makes from it
    /// later are the registry's, not this session's).
    static func make(
        for registry: StubRegistry, owner: Int?, configuration: URLSessionConfiguration,
        delegate: (any URLSessionDelegate)?, delegateQueue: OperationQueue?
    ) -> URLSession {
        let own = configuration.copy() as! URLSessionConfiguration
        let (protocolClass, slot) = ProtocolClassPool.acquire()
        var classes = (own.protocolClasses ?? []).filter { !($0 is StubURLProtocol.Type) }
        classes.insert(protocolClass, at: 0)
        own.protocolClasses = classes
        let queue =
            delegateQueue
            ?? {
                // As corelibs does when none is given: a serial queue of the session's own.
                let queue = OperationQueue()
                queue.maxConcurrentOperationCount = 1
                return queue
            }()
        let record = MadeSession(configuration: own, hasDelegate: delegate != nil, delegateQueue: queue)
        let session = MadeURLSession(configuration: own, delegate: delegate, delegateQueue: queue, record: record, slot: slot)
        record.session = session
        ProtocolClassPool.bind(slot, to: registry, owner: owner, session: record)
        return session
    }

    private func noted<Task: URLSessionTask>(_ task: Task, reportsToDelegate: Bool, upload: MadeSession.UploadBody? = nil) -> Task {
        record.noteCreated(task.taskIdentifier, MadeSession.Creation(reportsToDelegate: reportsToDelegate, upload: upload))
        return task
    }

    override func dataTask(with request: URLRequest) -> URLSessionDataTask {
        noted(super.dataTask(with: request), reportsToDelegate: true)
    }

    override func dataTask(with url: URL) -> URLSessionDataTask {
        noted(super.dataTask(with: url), reportsToDelegate: true)
    }

    override func uploadTask(with request: URLRequest, fromFile fileURL: URL) -> URLSessionUploadTask {
        noted(super.uploadTask(with: request, fromFile: fileURL), reportsToDelegate: true, upload: .file(fileURL))
    }

    override func uploadTask(with request: URLRequest, from bodyData: Data) -> URLSessionUploadTask {
        noted(super.uploadTask(with: request, from: bodyData), reportsToDelegate: true, upload: .data(bodyData))
    }

    override func uploadTask(withStreamedRequest request: URLRequest) -> URLSessionUploadTask {
        noted(super.uploadTask(withStreamedRequest: request), reportsToDelegate: true, upload: .streamed)
    }

    override func uploadTask(
        with request: URLRequest, fromFile fileURL: URL,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask {
        noted(
            super.uploadTask(with: request, fromFile: fileURL, completionHandler: completionHandler), reportsToDelegate: false, upload: .file(fileURL)
        )
    }

    override func uploadTask(
        with request: URLRequest, from bodyData: Data?,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask {
        let task = super.uploadTask(with: request, from: bodyData, completionHandler: completionHandler)
        return noted(task, reportsToDelegate: false, upload: bodyData.map { .data($0) })
    }
}
#endif
