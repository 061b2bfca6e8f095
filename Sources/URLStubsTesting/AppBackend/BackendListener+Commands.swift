import Foundation
import URLStubs
import URLStubsTestRunnerLink

/// The commands a test sends over the link, and the wait for the app to connect: each command
/// is paired with its reply by ID, and every wait ends at its timeout.
extension BackendListener {
    // MARK: Commands

    /// What the test declared, for the next app: changed by `declare` under the lock.
    typealias Declaration = (inout [(key: String, message: WireMessage)]) -> Void

    /// Sends `command` and returns the app's `done` reply.
    ///
    /// A declaration (stubs, scenarios, offline) is recorded for every app that connects later;
    /// with no app connected yet, that is all it does. Any other command waits for the app
    /// (`connectTimeout`), or fails at once when the app was connected and went away.
    func run(
        _ command: WireMessage, doing task: String, declare: Declaration? = nil, undo: Declaration? = nil,
        connectTimeout: TimeInterval, replyTimeout: TimeInterval = 10
    ) async throws -> WireMessage {
        var command = command
        command.id = locked { () -> Int in
            nextID += 1
            return nextID
        }
        // Encoded before anything is declared: a message past the link's limit is refused at the
        // call, and nothing the app would refuse is kept for it.
        let frame: Data
        do {
            frame = try WireFrame.encode(command)
        } catch let error as WireFrameTooLarge {
            throw TestRunnerLinkError.invalidStub(problems: [Self.describe(error)])
        }
        let socket = try locked { () throws -> LoopbackSocket? in
            if isClosed { throw TestRunnerLinkError.closed }
            declare?(&declared)
            return connection
        }
        guard let socket else {
            if declare != nil { return WireMessage(.done) }
            try await waitForApp(timeout: connectTimeout, evenAfterDisconnect: false)
            return try await run(command, doing: task, connectTimeout: connectTimeout, replyTimeout: replyTimeout)
        }
        try takeSetupProblem()
        let reply = try await send(frame, id: command.id ?? 0, type: command.type, on: socket, timeout: replyTimeout)
        guard reply.type == WireMessageType.done.rawValue else {
            if let undo { locked { undo(&declared) } }
            throw TestRunnerLinkError.appFailed(command: task, message: reply.message ?? "no reason given")
        }
        return reply
    }

    /// Why a message cannot cross: its size, the limit, and what to do instead.
    static func describe(_ error: WireFrameTooLarge) -> String {
        let megabytes = String(format: "%.1f", Double(error.size) / Double(1 << 20))
        return "it is \(megabytes) MiB as the link sends it (bytes cross as base64, 4 for every 3), more than the "
            + "\(WireFrameTooLarge.describe(error.limit)) the link carries in one message: serve a body this large from a fixture "
            + "file the app reads (RemoteResponse(fixture:)), or write a live stream in smaller parts"
    }

    private func send(_ frame: Data, id: Int, type: String, on socket: LoopbackSocket, timeout: TimeInterval) async throws -> WireMessage {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            pending[id] = continuation
            lock.unlock()
            do {
                try socket.write(frame)
            } catch {
                lock.lock()
                let waiting = pending.removeValue(forKey: id)
                let notes = self.notes
                lock.unlock()
                waiting?.resume(throwing: TestRunnerLinkError.appDisconnected(reason: "\(error)", notes: notes))
                return
            }
            backendTimeouts.asyncAfter(deadline: .now() + timeout) { [weak self] in
                guard let self else { return }
                lock.lock()
                let waiting = pending.removeValue(forKey: id)
                lock.unlock()
                waiting?.resume(throwing: TestRunnerLinkError.appDidNotAnswer(command: type, timeout: timeout))
            }
        }
    }

    // MARK: Waiting for the app

    /// Returns once an app has connected and applied the declared stubs.
    /// - Parameter evenAfterDisconnect: `false` fails at once when the app was connected and
    ///   went away (a crash); `true` waits for a relaunched app.
    func waitForApp(timeout: TimeInterval, evenAfterDisconnect: Bool) async throws {
        let id = try locked { () throws -> Int? in
            if isClosed { throw TestRunnerLinkError.closed }
            if isReady { return nil }
            if !evenAfterDisconnect, connection == nil, let reason = disconnectReason {
                throw TestRunnerLinkError.appDisconnected(reason: reason, notes: notes)
            }
            nextID += 1
            return nextID
        }
        guard let id else { return try takeSetupProblem() }
        let environment = environmentDescription
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            lock.lock()
            if isReady {
                lock.unlock()
                return continuation.resume()
            }
            readyWaiters[id] = continuation
            lock.unlock()
            backendTimeouts.asyncAfter(deadline: .now() + timeout) { [weak self] in
                guard let self else { return }
                lock.lock()
                let waiting = readyWaiters.removeValue(forKey: id)
                let notes = self.notes
                lock.unlock()
                waiting?.resume(throwing: TestRunnerLinkError.appNeverConnected(waited: timeout, environment: environment, notes: notes))
            }
        }
        try takeSetupProblem()
    }

    func takeSetupProblem() throws {
        let problem = locked { () -> String? in
            defer { setupProblem = nil }
            return setupProblem
        }
        if let problem { throw TestRunnerLinkError.appFailed(command: "apply what the test declared before it connected", message: problem) }
    }
}
