#if !URLSTUBS_APPLE_LOADING
@_spi(Reflection) import Swift
import Foundation
import FoundationNetworking
import Dispatch

/// Reads swift-corelibs-foundation's private task state inside `startLoading` (on the task's
/// work queue, so nothing races it).
///
/// Linux needs facts the public API does not give: the task's work queue (the only queue
/// where client callbacks are safe), whether the task reports to a delegate (corelibs keeps
/// only the last `didLoad` chunk for completion handlers and async calls), and an upload
/// task's body. A session the registry made (``MadeSession``) told the last two when its
/// tasks were created, and its configuration and delegate queue when it was made: for it only
/// the work queue is read (no public API names it; "How a request travels" shows the probe),
/// the body of an `async` upload, whose creation no subclass sees, and the task's `_state`
/// (whose public getter costs a queue hop per check). Field names are
/// corelibs 6.x's; when one is missing, or its type is not the one expected, the safe fallback
/// applies (the current queue, the whole body in one chunk, no upload body) and
/// ``CorelibsTaskState/layoutProblems`` says what changed; a test fails loudly on it.
///
/// Speed: this runs once per request, so fields are not found by walking a `Mirror` (which
/// demangles the type of every field it passes, about 400,000 instructions a request).
/// The runtime's field table (`_forEachField`) is read once per class; after that a field is
/// one typed load at a cached offset, after checking that its type is the one expected.
struct CorelibsPlatform: LoadingPlatform {
    func environment(for task: URLSessionTask?, state: StubRegistry.State, session: MadeSession?) -> LoadingEnvironment {
        guard let task, !state.refusesCorelibsLayouts else { return CorelibsTaskState.fallback(recording: task == nil) }
        if let session { return CorelibsTaskState.environment(for: task, madeBy: session) }
        return CorelibsTaskState.environment(for: task)
    }

    func isBeingCancelled(_ task: URLSessionTask) -> Bool {
        CorelibsTaskState.isCanceling(task)
    }

    func isBeingCancelled(_ task: URLSessionTask, check: CancelCheck) -> Bool {
        if let state = check.stateField?.load(URLSessionTask.State.self, from: task) { return state == .canceling }
        return task.state == .canceling
    }
}

enum CorelibsTaskState {
    /// The safe fallback when the task's layout is not known: everything within
    /// `startLoading`, the body whole in one chunk, no upload body, no configuration.
    /// `recording` says the layout was missing (not refused by a test).
    static func fallback(recording: Bool) -> LoadingEnvironment {
        if recording { recordProblems(["URLSessionTask.workQueue"]) }
        var environment = LoadingEnvironment(
            scheduler: InlineScheduler(), deliversChunks: false, uploadBody: nil, hidesUploadBody: false,
            configuration: nil, isDownloadTask: false, delegateQueue: nil, handsRedirectsToSession: false)
        environment.preparesInline = true
        return environment
    }

    /// The scheduler on `task`'s work queue (corelibs' private `workQueue`), and whether it is
    /// the inline fallback. Known here rather than asked of the existential later (a dynamic
    /// cast per request).
    private static func scheduler(
        of task: URLSessionTask, layout: TaskLayout, problems: inout [String]
    ) -> (any DeliveryScheduler, isInline: Bool) {
        if let workQueue = layout.workQueue.flatMap({ $0.load(DispatchQueue.self, from: task) }) {
            return (DispatchQueueScheduler(queue: workQueue), false)
        }
        problems.append("URLSessionTask.workQueue")
        return (InlineScheduler(), true)
    }

    /// `task`'s environment when its session was made by the registry: everything but the
    /// work queue (and an `async` upload's body) comes from what was recorded.
    static func environment(for task: URLSessionTask, madeBy made: MadeSession) -> LoadingEnvironment {
        var problems: [String] = []
        let layout = TaskLayout.of(task)
        let (scheduler, isInline) = scheduler(of: task, layout: layout, problems: &problems)
        let isDataTask = type(of: task) == URLSessionDataTask.self
        let isUploadTask = !isDataTask && task is URLSessionUploadTask
        let isDownloadTask = !isDataTask && task is URLSessionDownloadTask
        // Only a session with a delegate, or an upload, has creations worth asking about.
        let creation = made.hasDelegate || isUploadTask ? made.takeCreation(of: task.taskIdentifier) : MadeSession.Creation()
        let deliversChunks = made.hasDelegate && creation.reportsToDelegate
        var uploadBody: Data?
        if isUploadTask {
            switch creation.upload {
            case .data(let data): uploadBody = data
            case .file(let url): uploadBody = try? Data(contentsOf: url)
            case .streamed: uploadBody = nil
            case nil:
                // `async` `upload(for:from:)`: only the task knows its body.
                if let body = layout.knownBody.flatMap({ unwrapOptional($0.loadAny(from: task)) }) {
                    uploadBody = bodyData(body)
                } else {
                    problems.append("URLSessionTask.knownBody")
                }
            }
        }
        if !problems.isEmpty { recordProblems(problems) }
        var environment = LoadingEnvironment(
            scheduler: scheduler, deliversChunks: deliversChunks, uploadBody: uploadBody,
            hidesUploadBody: isUploadTask && uploadBody == nil, configuration: made.configuration,
            isDownloadTask: isDownloadTask, delegateQueue: deliversChunks ? made.delegateQueue : nil,
            handsRedirectsToSession: false)
        // The stored `_state`, as for any task: the public `state` getter says the same through
        // a private queue's `sync`, about 2.3k instructions per check (the closure stub checks
        // once), and this field is read only when its offset and type were recognised.
        environment.cancelCheck.stateField = layout.state
        environment.preparesInline = isInline
        environment.addsCookiesToFirstRequest = true
        // The task's own delegate, or the session's (public `delegate`; read once).
        if let session = made.session, made.hasDelegate || task.delegate != nil {
            environment.approveRedirect = TaskDelegateRedirectAsker(session: session, task: task)
        }
        return environment
    }

    /// `task`'s environment when its session was given by `install(into:)`: everything is
    /// read from the task and its session.
    static func environment(for task: URLSessionTask) -> LoadingEnvironment {
        var problems: [String] = []
        let layout = TaskLayout.of(task)
        let (scheduler, isInline) = scheduler(of: task, layout: layout, problems: &problems)
        let session = layout.session.flatMap { $0.loadObject(from: task) }.flatMap(asSession)
        if session == nil { problems.append("URLSessionTask.session") }
        // Read once: the getter takes a lock.
        let hasDelegate = task.delegate != nil
        // `is` costs a dynamic cast each; the plain data task that nearly every request is
        // answers both at once.
        let isDataTask = type(of: task) == URLSessionDataTask.self
        let isUploadTask = !isDataTask && task is URLSessionUploadTask
        let isDownloadTask = !isDataTask && task is URLSessionDownloadTask
        // Without a delegate no one sees `didReceive data`, so one whole body is as good as
        // chunks.
        var deliversChunks = false
        if let session, hasDelegate {
            if let taskBehaviour = behaviour(of: task, in: session) {
                deliversChunks = isCallDelegate(taskBehaviour)
            } else {
                problems.append("URLSession.taskRegistry.behaviours")
            }
        }
        var uploadBody: Data?
        if isUploadTask {
            if let body = layout.knownBody.flatMap({ unwrapOptional($0.loadAny(from: task)) }) {
                uploadBody = bodyData(body)
            } else {
                problems.append("URLSessionTask.knownBody")
            }
        }
        if !problems.isEmpty { recordProblems(problems) }
        // Asked through a cache: the configuration getter copies.
        let configuration = session.map(SessionConfigurations.shared.configuration(of:))
        var environment = LoadingEnvironment(
            scheduler: scheduler,
            deliversChunks: deliversChunks,
            uploadBody: uploadBody,
            // A layout change may hide an upload body: unknown, never silently empty.
            hidesUploadBody: isUploadTask && uploadBody == nil,
            configuration: configuration,
            isDownloadTask: isDownloadTask,
            delegateQueue: deliversChunks ? session?.delegateQueue : nil,
            handsRedirectsToSession: false)
        environment.cancelCheck.stateField = layout.state
        environment.preparesInline = isInline
        environment.addsCookiesToFirstRequest = true
        if let session, hasDelegate {
            // As corelibs' own HTTP protocol does: the task's delegate (or the session's), on
            // the session's delegate queue. Read when needed: the delegate is fixed by then.
            environment.approveRedirect = TaskDelegateRedirectAsker(session: session, task: task)
        }
        return environment
    }

    /// `session.taskRegistry.behaviours[task.taskIdentifier]`, boxed.
    private static func behaviour(of task: URLSessionTask, in session: URLSession) -> Any? {
        guard let (registry, behaviours) = taskRegistry(of: session) else { return nil }
        return behaviours.dictionaryType.boxedValue(in: registry, atOffset: behaviours.field.offset, forKey: task.taskIdentifier)
    }

    /// The session's task registry and where its behaviours are kept.
    private static func taskRegistry(of session: URLSession) -> (AnyObject, SessionLayout.Behaviours)? {
        let layout = SessionLayout.of(session)
        guard let registryField = layout.taskRegistry, let behaviours = layout.behaviours,
            let registry = registryField.loadObject(from: session)
        else { return nil }
        return (registry, behaviours)
    }

    /// `object as? URLSession`, without the general dynamic cast for the usual exact class.
    private static func asSession(_ object: AnyObject) -> URLSession? {
        if type(of: object) == URLSession.self { return unsafeDowncast(object, to: URLSession.self) }
        return object as? URLSession
    }

    /// `task.state == .canceling`. Call on the task's work queue (inside `startLoading`, or a
    /// step of its ``DeliveryScheduler``): corelibs changes the state only there (`resume`,
    /// `cancel`) until the task completes, after which nothing asks. So the stored field is
    /// read directly, saving the public getter's hop through a private queue; when the field
    /// cannot be found, the getter is used.
    static func isCanceling(_ task: URLSessionTask) -> Bool {
        if let state = TaskLayout.of(task).state?.load(URLSessionTask.State.self, from: task) {
            return state == .canceling
        }
        return task.state == .canceling
    }

    /// Only `.callDelegate` forwards every didLoad; the completion kinds keep the last. It is
    /// the one case without a payload, so it is told apart without printing a payload
    /// (a closure, whose description is costly).
    private static func isCallDelegate(_ behaviour: Any) -> Bool {
        let mirror = Mirror(reflecting: behaviour)
        if let label = mirror.children.first?.label { return label.hasPrefix("callDelegate") }
        return "\(behaviour)".hasPrefix("callDelegate")
    }

    private static let problemsSeen = Locked<Set<String>>([])

    /// corelibs fields that could not be found (empty on the toolchains we tested).
    static var layoutProblems: [String] {
        problemsSeen.withLock { $0.sorted() }
    }

    private static func recordProblems(_ problems: [String]) {
        problemsSeen.withLock { $0.formUnion(problems) }
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

/// One copy of each session's configuration. corelibs copies the whole configuration on every
/// read of `URLSession.configuration`, and a session's configuration never changes once the
/// session is made: so it is read once per session, not once per request.
final class SessionConfigurations: @unchecked Sendable {
    static let shared = SessionConfigurations()

    private struct Entry {
        weak var session: URLSession?
        let configuration: URLSessionConfiguration
    }

    private let table = Locked(Table())

    /// What the cache's lock guards.
    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The session asked for last: a test's requests come one session at a time, and
        /// comparing one reference costs less than hashing it.
        var last: Entry?
        /// Entries of released sessions are swept when the table doubles past this.
        var sweepAt = 64
    }

    func configuration(of session: URLSession) -> URLSessionConfiguration {
        let key = ObjectIdentifier(session)
        let known = table.withLock { table -> URLSessionConfiguration? in
            if let last = table.last, last.session === session { return last.configuration }
            if let entry = table.entries[key], entry.session === session {
                table.last = entry
                return entry.configuration
            }
            return nil
        }
        if let known { return known }
        let configuration = session.configuration
        table.withLock { table in
            table.last = Entry(session: session, configuration: configuration)
            table.entries[key] = table.last
            if table.entries.count > table.sweepAt {
                table.entries = table.entries.filter { $0.value.session != nil }
                table.sweepAt = max(64, table.entries.count * 2)
            }
        }
        return configuration
    }
}

/// The fallback when the work queue cannot be found: everything runs at once, inside
/// `startLoading` (the only other place callbacks are known to be safe). Timing is lost, bytes
/// are not.
struct InlineScheduler: DeliveryScheduler {
    func async(_ work: @escaping @Sendable () -> Void) { work() }
    func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) { work() }
}
/// As corelibs' own HTTP protocol asks: the task's delegate (or the session's), on the
/// session's delegate queue. Read when asked: the delegate is fixed by then. A struct of two
/// references, so making one for each task allocates nothing.
struct TaskDelegateRedirectAsker: RedirectAsker, @unchecked Sendable {
    // @unchecked: the session and the task are only read, on their own queues.
    let session: URLSession
    let task: URLSessionTask

    func ask(about response: HTTPURLResponse, next: URLRequest, decide: @escaping @Sendable (URLRequest?) -> Void) {
        let session = session, task = task
        session.delegateQueue.addOperation {
            guard let delegate = task.delegate else { return decide(next) }
            delegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: next, completionHandler: decide)
        }
    }
}
#endif
