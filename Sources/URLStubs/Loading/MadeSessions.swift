import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What ``StubRegistry/makeSession(configuration:delegate:delegateQueue:)`` knew of a session
/// when it made it: its configuration, whether it has a delegate, the queue that delegate runs
/// on and, on Linux, how each of its tasks was created.
///
/// On Linux every made session answers through a `URLProtocol` class of its own
/// (``ProtocolClassPool``), whose slot holds this record: so a request finds its session's
/// record with the lookup that finds its registry, and reads none of corelibs' private
/// session or task-registry fields (see "How a request travels").
final class MadeSession: @unchecked Sendable {
    // @unchecked: the configuration is never changed once its session exists (a session copies
    // it), OperationQueue is thread-safe, and `created` is behind its lock.
    let configuration: URLSessionConfiguration
    let hasDelegate: Bool
    let delegateQueue: OperationQueue
    /// Weak: the session owns its class's slot, which owns this record.
    weak var session: URLSession?
    private let created = Locked(CreatedTasks())

    /// How a task was created, as far as the loading edge needs it.
    struct Creation: Sendable {
        /// Created by a method without a completion handler: its session's delegate gets every
        /// event, every `didLoad` chunk included (corelibs' `.callDelegate`).
        var reportsToDelegate = false
        /// The body an upload task was created with.
        var upload: UploadBody?
    }

    /// The body an upload task was created with.
    enum UploadBody: Sendable {
        case data(Data)
        case file(URL)
        /// `uploadTask(withStreamedRequest:)`: the delegate hands the body over later.
        case streamed
    }

    /// Creations worth remembering, by task identifier, until the task starts loading.
    private struct CreatedTasks {
        var byIdentifier: [Int: Creation] = [:]
    }

    init(configuration: URLSessionConfiguration, hasDelegate: Bool, delegateQueue: OperationQueue) {
        self.configuration = configuration
        self.hasDelegate = hasDelegate
        self.delegateQueue = delegateQueue
    }

    /// Remembers how the task `identifier` was created. Only creations that differ from the
    /// default (a completion handler or `async` call, no upload body) are kept, so the tasks of
    /// `async` `data(for:)`, which cannot be seen being created, need no entry.
    func noteCreated(_ identifier: Int, _ creation: Creation) {
        guard creation.reportsToDelegate || creation.upload != nil else { return }
        created.withLock { $0.byIdentifier[identifier] = creation }
    }

    /// How the task `identifier` was created (the default when nothing was noted), forgotten
    /// once asked: a task starts loading once.
    func takeCreation(of identifier: Int) -> Creation {
        created.withLock { $0.byIdentifier.removeValue(forKey: identifier) } ?? Creation()
    }
}
