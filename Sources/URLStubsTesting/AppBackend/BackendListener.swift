import Foundation
import URLStubs
import URLStubsTestRunnerLink

/// The test side of the link: listens on 127.0.0.1, lets in one app with the token, keeps
/// what the test declared for the next app to connect, and pairs each command with its reply.
///
/// Threads: one accepts connections; one per connection reads its frames (the handshake, then
/// the replies). Test code never blocks on a read: a command writes its frame and suspends until
/// the reader resumes it, or a timer fails it.
final class BackendListener: @unchecked Sendable {
    let port: UInt16
    let token: String
    private let socket: LoopbackSocket
    private let unmatchedRequests: UnmatchedRequestPolicy

    let lock = NSLock()
    var connection: LoopbackSocket?
    var appName = ""
    var isReady = false
    var disconnectReason: String?
    var isClosed = false
    /// Connections refused, messages the app sent that made no sense: quoted in errors.
    var notes: [String] = []
    /// Problems of the commands declared before launch, reported once by the next call.
    var setupProblem: String?
    /// What a newly connected app gets before anything else, in order.
    var declared: [(key: String, message: WireMessage)] = []
    var pending: [Int: CheckedContinuation<WireMessage, any Error>] = [:]
    var readyWaiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    var nextID = 1
    /// Connections that have not said hello yet, oldest first (see ``handshakeLimit``).
    private var handshaking: [LoopbackSocket] = []
    /// How long a connection may take to say hello.
    private let helloTimeout: TimeInterval

    /// The most connections saying hello at once. A newer one evicts the oldest: an app says
    /// hello the moment it connects, so only a connection that keeps silent is evicted, and
    /// silent or hostile connections, however many, neither hold more than this many threads
    /// and hellos nor keep the app out.
    static let handshakeLimit = 8

    init(unmatchedRequests: UnmatchedRequestPolicy, helloTimeout: TimeInterval = 10) throws {
        (socket, port) = try LoopbackSocket.listen()
        self.helloTimeout = helloTimeout
        var generator = SystemRandomNumberGenerator()
        token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        self.unmatchedRequests = unmatchedRequests
        let thread = Thread { [self] in acceptConnections() }
        thread.name = "URLStubs.AppBackend.accept"
        thread.start()
    }

    /// `URLSTUBS_TEST_RUNNER=127.0.0.1:54321, URLSTUBS_TEST_RUNNER_TOKEN=<64 hex digits>`.
    var environmentDescription: String {
        "\(TestRunnerLink.addressVariable)=127.0.0.1:\(port), \(TestRunnerLink.tokenVariable)=<64 hex digits>"
    }

    var isAppConnected: Bool {
        lock.lock(); defer { lock.unlock() }
        return isReady
    }

    func close() {
        lock.lock()
        guard !isClosed else { lock.unlock(); return }
        isClosed = true
        let current = connection
        let waiters = readyWaiters
        readyWaiters.removeAll()
        lock.unlock()
        socket.shutdown()
        current?.shutdown()
        for waiter in waiters.values { waiter.resume(throwing: TestRunnerLinkError.closed) }
    }

    // MARK: Accepting

    private func acceptConnections() {
        while true {
            lock.lock(); let closed = isClosed; lock.unlock()
            if closed { break }
            do {
                guard let client = try socket.accept(timeout: 0.25) else { continue }
                lock.lock()
                handshaking.append(client)
                let evicted = handshaking.count > Self.handshakeLimit ? handshaking.removeFirst() : nil
                lock.unlock()
                if let evicted {
                    refuse(
                        evicted,
                        "it said no hello while \(Self.handshakeLimit) newer connections came (an app says hello as it connects: "
                            + "something else is connecting to this AppBackend's port)")
                    evicted.shutdown()
                }
                let thread = Thread { [self] in serve(client) }
                thread.name = "URLStubs.AppBackend.connection"
                thread.start()
            } catch {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        socket.close()
    }

    private func serve(_ client: LoopbackSocket) {
        defer { client.close() }
        let hello: WireMessage
        do {
            hello = try WireMessage.decode(try WireFrame.read(from: client, timeout: helloTimeout, limit: WireFrame.maximumHelloSize))
        } catch {
            guard endHandshake(of: client) else { return }  // evicted, and told why
            return refuse(client, Self.describeHelloFailure(error, timeout: helloTimeout))
        }
        guard endHandshake(of: client) else { return }
        do {
            guard try hello.knownType() == .hello else {
                throw WireProtocolError("expected \"hello\", got \"\(hello.type)\" (in the field \"type\")")
            }
            let version = try hello.required(hello.protocolVersion, "protocolVersion")
            guard version == WireMessage.protocolVersion else {
                return refuse(
                    client,
                    "protocol version mismatch: the app speaks version \(version) of the test-runner link, this test runner version "
                        + "\(WireMessage.protocolVersion). Build the app and the UI tests with the same URLStubs version.")
            }
            guard Self.constantTimeEquals(try hello.required(hello.token, "token"), token) else {
                return refuse(
                    client,
                    "wrong token (\(TestRunnerLink.tokenVariable)): the app was launched with the launch environment of another "
                        + "AppBackend (an earlier test or run). Launch it with this AppBackend's launchEnvironment.")
            }
            let name = "\(hello.processName ?? "app") (pid \(hello.processID.map(String.init) ?? "?"))"
            lock.lock()
            if isClosed {
                lock.unlock()
                return refuse(client, "this AppBackend is closed")
            }
            if connection != nil {
                let current = appName
                lock.unlock()
                return refuse(
                    client,
                    "another app, \(current), is already connected to this AppBackend. One AppBackend drives one app: "
                        + "make an AppBackend per app, and launch each with its own launchEnvironment.")
            }
            var welcome = WireMessage(.welcome)
            welcome.protocolVersion = WireMessage.protocolVersion
            welcome.unmatchedRequests = unmatchedRequests == .passthrough ? "passthrough" : "fail"
            welcome.setupCount = declared.count
            connection = client
            appName = name
            disconnectReason = nil
            // Under the lock: a command sent meanwhile goes after the setup, and the app applies
            // it after. One frame per declaration, so however much was declared, no frame
            // passes the link's limit (each was checked when it was declared).
            let sent = Result { try ([welcome] + declared.map(\.message)).forEach { try WireFrame.send($0, on: client) } }
            lock.unlock()
            try sent.get()
        } catch {
            let reason = (error as? LoopbackSocketError).map { "the connection ended during the handshake: \($0)" } ?? "\(error)"
            return refuse(client, "malformed hello: \(reason)")
        }
        readReplies(from: client)
    }

    /// Takes `client` off the connections saying hello; `false` when it was evicted meanwhile.
    private func endHandshake(of client: LoopbackSocket) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard let index = handshaking.firstIndex(where: { $0 === client }) else { return false }
        handshaking.remove(at: index)
        return true
    }

    /// Why reading a hello failed, for the refusal: no hello in time, one too large to be an
    /// app's, or one that is not a message.
    private static func describeHelloFailure(_ error: any Error, timeout: TimeInterval) -> String {
        switch error {
        case let error as LoopbackSocketError where error.isTimeout:
            return "timed out: the connection sent no hello within \(TestRunnerLinkError.seconds(timeout)) s "
                + "(an app says hello as it connects: something else connected to this AppBackend's port)"
        case let error as LoopbackSocketError:
            return "the connection ended during the handshake: \(error)"
        case let error as WireFrameTooLarge:
            return "the connection's first message announced \(error.size) bytes, more than the "
                + "\(WireFrameTooLarge.describe(error.limit)) a hello may have, so none of it was read: "
                + "the other side does not speak the URLStubs test-runner protocol"
        default:
            return "malformed hello: \(error)"
        }
    }

    private func refuse(_ client: LoopbackSocket, _ reason: String) {
        lock.lock()
        noteLocked("refused a connection at \(Self.clock()): \(reason)")
        lock.unlock()
        var refused = WireMessage(.refused)
        refused.protocolVersion = WireMessage.protocolVersion
        refused.message = reason
        try? WireFrame.send(refused, on: client)
    }

    private func readReplies(from client: LoopbackSocket) {
        var reason = "the connection closed"
        while true {
            let message: WireMessage
            do {
                message = try WireMessage.decode(try WireFrame.read(from: client, timeout: nil))
            } catch let error as LoopbackSocketError {
                reason = error.isClosed ? "its connection closed at \(Self.clock())" : error.description
                break
            } catch let error as WireFrameTooLarge {
                // The length is not the app's: the bytes after it are no frame boundary either,
                // so nothing more read from this connection can be trusted.
                reason = "the app sent \(error): this AppBackend stopped reading it at \(Self.clock())"
                client.shutdown()
                break
            } catch {
                lock.lock(); noteLocked("the app sent a message that made no sense: \(error)"); lock.unlock()
                continue
            }
            receive(message)
        }
        lock.lock()
        connection = nil
        isReady = false
        disconnectReason = reason
        let waiting = pending
        pending.removeAll()
        let notes = self.notes
        lock.unlock()
        for continuation in waiting.values { continuation.resume(throwing: TestRunnerLinkError.appDisconnected(reason: reason, notes: notes)) }
    }

    private func receive(_ message: WireMessage) {
        lock.lock()
        switch message.type {
        case WireMessageType.ready.rawValue:
            isReady = true
            setupProblem = message.message
            let waiters = readyWaiters
            readyWaiters.removeAll()
            lock.unlock()
            for waiter in waiters.values { waiter.resume() }
        case WireMessageType.done.rawValue, WireMessageType.failed.rawValue:
            let continuation = message.id.flatMap { pending.removeValue(forKey: $0) }
            if continuation == nil { noteLocked("the app reported: \(message.message ?? message.type)") }
            lock.unlock()
            continuation?.resume(returning: message)
        default:
            noteLocked("the app sent an unexpected \"\(message.type)\" message")
            lock.unlock()
        }
    }

    // MARK: Helpers

    /// Keeps the last 20 notes: enough to explain a failure, bounded whatever connects.
    private func noteLocked(_ note: String) {
        notes.append(note.count > 1000 ? note.prefix(1000) + "… (cut)" : note)
        if notes.count > 20 { notes.removeFirst(notes.count - 20) }
    }

    func locked<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock.lock(); defer { lock.unlock() }
        return try body()
    }

    static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
        let left = Array(left.utf8), right = Array(right.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    private static func clock() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter.string(from: Date())
    }
}

/// Where the backend's timeouts fire: a queue of its own, whose thread dispatch makes even when
/// the global queue's threads are all busy (a test blocking them must not delay a timeout).
let backendTimeouts = DispatchQueue(label: "URLStubs.AppBackend.timeouts")
