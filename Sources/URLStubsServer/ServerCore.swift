import Foundation
import Dispatch
import URLStubs

/// What a ``StubServer`` runs: its listening sockets, each watched by a DispatchSource, and
/// the connections they accepted. Connections run on queues of their own; this holds them so
/// that ``stop()`` can close them, and counts them against the limit.
final class ServerCore: @unchecked Sendable {
    // @unchecked: the mutable fields are guarded by `lock`.

    let registry: StubRegistry
    let limits: StubServer.Limits
    let access: ServerAccess
    let port: UInt16
    /// `127.0.0.1:PORT`: the `Host` of a request that names none (HTTP/1.0).
    let defaultHost: String
    private let acceptQueue = DispatchQueue(label: "URLStubsServer.accept")
    /// Answers a connection when the process has no descriptor left to accept it into.
    private let spare = SpareDescriptor()
    private let lock = NSLock()
    private var listeners: [Listener] = []
    private var connections: [ObjectIdentifier: ServerConnection] = [:]
    private var isStopped = false
    /// Left when every listening descriptor is closed.
    private let listenersClosed = DispatchGroup()
    /// The connections' read and write sources whose cancel handler has not run: each holds its
    /// connection, and through it the registry, until it runs.
    let connectionSources = DispatchGroup()
    #if os(Linux)
    /// The thread that reads the connections' bytes (`nil`: dispatch read sources do).
    let poller: ReadPoller?
    #endif

    init(registry: StubRegistry, port: UInt16, alsoOnIPv6: Bool, access: ServerAccess, limits: StubServer.Limits) throws {
        self.registry = registry
        self.limits = limits
        descriptorLimit = limits.descriptorLimit ?? ServerSocket.descriptorLimit()
        descriptorCeiling = descriptorLimit - max(16, descriptorLimit / 16)
        let backlog = Int32(clamping: max(128, min(limits.maximumConnections, 4096)))
        let first = try ServerSocket.listen(ipv6: false, port: port, backlog: backlog)
        var descriptors = [first.descriptor]
        if alsoOnIPv6 {
            do {
                descriptors.append(try ServerSocket.listen(ipv6: true, port: first.port, backlog: backlog).descriptor)
            } catch {
                ServerSocket.close(first.descriptor)
                throw error
            }
        }
        self.port = first.port
        self.access = access.bound(to: first.port)
        defaultHost = "127.0.0.1:\(first.port)"
        if let upstream = access.upstream, ServerUpstream.isServerItself(upstream, port: first.port) {
            for descriptor in descriptors { ServerSocket.close(descriptor) }
            throw StubServerError(
                description:
                    "URLStubs: the stub server's upstream \(upstream.absoluteString) is the server itself: every passthrough would come back to it. Name the real service's base URL."
            )
        }
        #if os(Linux)
        // Made once nothing can fail: its thread ends with stop().
        poller = ReadPoller()
        #endif
        for descriptor in descriptors { startAccepting(descriptor) }
    }

    /// The most response bytes that waited for one client at once, on any connection so far:
    /// what a slow reader makes the server hold.
    var largestOutputWaiting: Int {
        lock.lock()
        defer { lock.unlock() }
        return largestWaiting
    }
    private var largestWaiting = 0
    /// The process's descriptor limit (`RLIMIT_NOFILE`, or ``StubServer/Limits/descriptorLimit``).
    private let descriptorLimit: Int
    /// A connection whose descriptor is this or above is refused: 1/16 of the limit (at least
    /// 16 descriptors) stays free for the rest of the process.
    private let descriptorCeiling: Int

    func noteOutputWaiting(_ bytes: Int) {
        lock.lock()
        largestWaiting = max(largestWaiting, bytes)
        lock.unlock()
    }

    var connectionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections.count
    }

    /// A listening socket and the source that watches it.
    private final class Listener: @unchecked Sendable {
        // @unchecked: used on the accept queue only, but for `cancel()`, which is thread-safe.
        let descriptor: Int32
        let source: any DispatchSourceRead

        init(descriptor: Int32, queue: DispatchQueue) {
            self.descriptor = descriptor
            source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        }
    }

    private func startAccepting(_ descriptor: Int32) {
        let listener = Listener(descriptor: descriptor, queue: acceptQueue)
        listenersClosed.enter()
        listener.source.setEventHandler { [weak self, weak listener] in
            guard let self, let listener else { return }
            acceptWaiting(on: listener)
        }
        listener.source.setCancelHandler { [listenersClosed, spare] in
            ServerSocket.close(descriptor)
            spare.close()
            listenersClosed.leave()
        }
        listeners.append(listener)
        listener.source.activate()
    }

    /// Accepts the connections waiting (on the accept queue), at most 64 a turn: a connect
    /// flood leaves the queue free between turns for `stop()` to close the listener.
    private func acceptWaiting(on listener: Listener) {
        for _ in 0..<64 {
            switch ServerSocket.accept(listener.descriptor) {
            case .none:
                return
            case .outOfDescriptors:
                // No descriptor left in the process: the spare takes in one waiting connection
                // to refuse, so no client waits unanswered; then the next.
                let refusedOne = spare.giveUp {
                    guard case .connection(let descriptor) = ServerSocket.accept(listener.descriptor) else { return false }
                    refuse(descriptor, because: Self.descriptorLimitMessage(descriptorLimit, inUse: descriptorLimit))
                    return true
                }
                if refusedOne { continue }
                // The source would fire again at once: pause it, and try again shortly.
                listener.source.suspend()
                acceptQueue.asyncAfter(deadline: .now() + 0.1) { listener.source.resume() }
                return
            case .connection(let descriptor):
                lock.lock()
                if isStopped {
                    lock.unlock()
                    ServerSocket.close(descriptor)
                    continue
                }
                guard connections.count < limits.maximumConnections else {
                    lock.unlock()
                    refuse(descriptor, because: Self.connectionLimitMessage(limits.maximumConnections))
                    continue
                }
                guard Int(descriptor) < descriptorCeiling else {
                    lock.unlock()
                    refuse(descriptor, because: Self.descriptorLimitMessage(descriptorLimit, inUse: Int(descriptor)))
                    continue
                }
                let connection = ServerConnection(descriptor: descriptor, core: self)
                connections[ObjectIdentifier(connection)] = connection
                lock.unlock()
                connection.start()
            }
        }
    }

    /// Answers a connection past a limit with 503 and closes it at once: what the client sent
    /// so far is read first (a close with bytes unread would reset the connection before the
    /// client reads the answer), so a connect flood holds no descriptor.
    private func refuse(_ descriptor: Int32, because message: String) {
        let answer = WireAnswer.simple(status: 503, body: message, closes: true, extraFields: [("Retry-After", "1")])
        answer.withUnsafeBytes { _ = ServerSocket.write(descriptor, $0) }
        ServerSocket.shutdownWrites(descriptor)
        ServerSocket.drain(descriptor)
        ServerSocket.close(descriptor)
    }

    private static func connectionLimitMessage(_ limit: Int) -> String {
        "URLStubs: the stub server already has \(limit) connections open (its limit); this one was refused. Raise StubServer.Limits.maximumConnections, or close connections the client no longer uses.\n"
    }

    private static func descriptorLimitMessage(_ limit: Int, inUse: Int) -> String {
        "URLStubs: the stub server refused this connection: the process holds about \(inUse) of its \(limit) file descriptors (ulimit -n), and the server keeps the rest free so that nothing else in the process runs out. Raise the limit (ulimit -n), or close connections the client no longer uses.\n"
    }

    /// Forgets a connection that closed.
    func remove(_ connection: ServerConnection) {
        lock.lock()
        connections[ObjectIdentifier(connection)] = nil
        lock.unlock()
    }

    var stopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isStopped
    }

    /// Closes the listening sockets and every connection, each of which ends its exchange as
    /// cancelled in the journal; returns once all are closed and every request handed to the
    /// registry is journaled, or at ``stopDeadline``, having journaled the exchanges still
    /// open as cancelled (a connection whose queue stays busy closes as soon as it is free).
    func stop() {
        lock.lock()
        if isStopped {
            lock.unlock()
            return
        }
        isStopped = true
        let sources = listeners.map(\.source)
        let open = Array(connections.values)
        connections = [:]
        lock.unlock()
        for source in sources { source.cancel() }
        let closed = DispatchGroup()
        for connection in open {
            closed.enter()
            connection.queue.async {
                connection.close(.serverStopped)
                closed.leave()
            }
        }
        let stopBy = Date().addingTimeInterval(Self.stopDeadline)
        let deadline = DispatchTime.now() + Self.stopDeadline
        _ = listenersClosed.wait(timeout: deadline)
        _ = closed.wait(timeout: deadline)
        // Cancelled by the closes above, the sources' handlers run a moment later: once they have,
        // nothing of this server but the server itself holds a connection or the registry.
        _ = connectionSources.wait(timeout: deadline)
        #if os(Linux)
        poller?.stop()
        #endif
        waitForJournal(until: stopBy)
    }

    /// The longest ``stop()`` waits for busy connections and for their exchanges to be journaled.
    static let stopDeadline: TimeInterval = 5

    // MARK: Journaling

    /// Requests handed to the registry whose outcome is not journaled yet.
    private var openTickets: [ObjectIdentifier: JournalTicket] = [:]
    private let ticketsChanged = NSCondition()

    /// A ticket for a request about to reach the registry: held until it is journaled.
    func makeTicket(closure: ClosureServing?) -> JournalTicket {
        let ticket = JournalTicket(host: registry.exchangeHost, closure: closure, core: self)
        ticketsChanged.lock()
        openTickets[ObjectIdentifier(ticket)] = ticket
        ticketsChanged.unlock()
        return ticket
    }

    func ticketJournaled(_ ticket: JournalTicket) {
        ticketsChanged.lock()
        openTickets[ObjectIdentifier(ticket)] = nil
        ticketsChanged.broadcast()
        ticketsChanged.unlock()
    }

    /// Waits until every request handed to the registry is journaled (the connections are
    /// closed: a cancelled exchange is journaled as its player ends, a running response
    /// closure's or closure matcher's as soon as it returns), or until `deadline`; then
    /// journals the exchanges still open as cancelled, user code still running among them.
    private func waitForJournal(until deadline: Date) {
        ticketsChanged.lock()
        while !openTickets.isEmpty, ticketsChanged.wait(until: deadline) {}
        let left = Array(openTickets.values)
        ticketsChanged.unlock()
        for ticket in left where ticket.journalAsCancelled() {
            ticketJournaled(ticket)
        }
    }
}
