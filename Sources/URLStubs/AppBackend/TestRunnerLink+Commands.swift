import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the app does with each command of the test: registry calls, made on the link's own
/// thread (none blocks); the commands that wait run as tasks and answer when done.
extension TestRunnerLink {
    /// Applies a command that answers at once, and returns its answer.
    func apply(_ command: WireMessage) throws -> WireMessage {
        var done = WireMessage(.done)
        switch try command.knownType() {
        case .addStub:
            try addStub(try command.required(command.stub, "stub"))
        case .removeStub:
            let id = try command.required(command.stubID, "stubID")
            lock.lock()
            let removed = stubs.removeValue(forKey: id)
            lock.unlock()
            done.released = removed.map { registry.remove($0) } ?? false
        case .removeAllStubs:
            lock.lock()
            let all = Array(stubs.values)
            stubs.removeAll()
            lock.unlock()
            all.forEach { registry.remove($0) }
        case .activateScenario:
            try ScenarioLauncher.activate(names: [try command.required(command.scenario, "scenario")], available: scenarios, into: registry)
            keepOfflineOnTop()
        case .deactivateScenario:
            let name = try command.required(command.scenario, "scenario")
            guard scenarios.contains(where: { $0.name == name }) else {
                throw ScenarioError.unknownScenarios([name], known: scenarios.map(\.name).sorted())
            }
            done.released = registry.deactivate(name)
        case .setOffline:
            setOffline(try command.required(command.offline, "offline"))
        case .releaseHeld:
            let gate = try gate(try command.required(command.gateID, "gateID"))
            if let response = command.response {
                done.released = gate.release(with: try stubResponse(response))
            } else {
                done.released = gate.release()
            }
        case .failHeld:
            let gate = try gate(try command.required(command.gateID, "gateID"))
            done.released = gate.fail(URLError(urlErrorCode(try command.required(command.errorCode, "errorCode"))))
        case .streamSend:
            try stream(try command.required(command.streamID, "streamID")).send(try command.required(command.data, "data"))
        case .streamFinish:
            try stream(try command.required(command.streamID, "streamID")).finish()
        case .streamFail:
            let code = urlErrorCode(try command.required(command.errorCode, "errorCode"))
            try stream(try command.required(command.streamID, "streamID")).fail(URLError(code))
        case .journal:
            done.entries = registry.journal.map(WireJournalEntry.init)
        case .verify:
            done.report = WireVerificationReport(registry.verify())
        case .hello, .welcome, .refused, .ready, .done, .failed, .waitForHeldRequest, .waitForStreamConnection, .waitForRequests:
            throw WireProtocolError("\"\(command.type)\" is not a command the app runs (in the field \"type\")")
        }
        return done
    }

    /// For a command that waits, the wait; `nil` for any other command.
    func startWait(_ command: WireMessage) throws -> (@Sendable () async throws -> WireMessage)? {
        guard let type = WireMessageType(rawValue: command.type) else { return nil }
        let timeout = command.timeout ?? 30
        switch type {
        case .waitForHeldRequest:
            let gate = try gate(try command.required(command.gateID, "gateID"))
            let scrubbing = registry.scrubbing
            return {
                var done = WireMessage(.done)
                done.entry = WireJournalEntry(unanswered: try await gate.waitForRequest(timeout: timeout), scrubbing: scrubbing)
                return done
            }
        case .waitForStreamConnection:
            let stream = try stream(try command.required(command.streamID, "streamID"))
            let scrubbing = registry.scrubbing
            return {
                var done = WireMessage(.done)
                done.entry = WireJournalEntry(unanswered: try await stream.waitForConnection(timeout: timeout), scrubbing: scrubbing)
                return done
            }
        case .waitForRequests:
            let matcher = try command.required(command.matcher, "matcher")
            try Self.check(matcher.problems, of: "matcher")
            let count = command.count ?? 1
            let registry = self.registry
            return {
                var done = WireMessage(.done)
                done.entries = try await registry.waitForRequests(matching: matcher.requestMatcher, count: count, timeout: timeout)
                    .map(WireJournalEntry.init)
                return done
            }
        default:
            return nil
        }
    }

    // MARK: Stubs

    private func addStub(_ stub: WireStub) throws {
        try Self.check(stub.matcher.problems, of: "stub.matcher")
        try Self.check(stub.response.problems, of: "stub.response")
        let response = try stubResponse(stub.response)
        let profile = try stub.response.networkProfile?.profile()
        let counter = RequestCounter()
        let separator = stub.location.lastIndex(of: ":")
        let file = separator.map { String(stub.location[..<$0]) } ?? stub.location
        let line = separator.flatMap { Int(stub.location[stub.location.index(after: $0)...]) } ?? 0
        let descriptor = registry.stub(stub.matcher.requestMatcher, name: stub.name, times: stub.times, fileID: file, filePath: file, line: line) {
            request in
            guard let profile else { return response }
            let endpoint = "\(request.method) \(request.urlPath ?? "/")"
            return profile.apply(to: response, endpoint: endpoint, index: counter.next(for: endpoint))
        }
        lock.lock()
        let replaced = stubs.updateValue(descriptor, forKey: stub.id)
        lock.unlock()
        if let replaced { registry.remove(replaced) }
        keepOfflineOnTop()
    }

    /// The response `remote` describes, held by its gate and streaming its live stream.
    func stubResponse(_ remote: WireResponse) throws -> StubResponse {
        var response = try remote.stubResponse(fixtures: fixtures)
        if let streamID = remote.streamID {
            let stream = liveStream(streamID)
            switch remote.streamKind {
            case .eventStream:
                response = .eventStream(stream, statusCode: remote.status, headers: remote.headers)
            case .stream, nil:
                response = .stream(stream, statusCode: remote.status, headers: remote.headers)
            }
            if let requestTime = remote.requestTime { response = response.requestTime(requestTime, responseTime: 0) }
        }
        if let gateID = remote.gateID {
            lock.lock()
            let gate = gates[gateID] ?? ResponseGate(name: gateID)
            gates[gateID] = gate
            lock.unlock()
            response = response.held(by: gate)
        }
        return response
    }

    private static func check(_ problems: [String], of field: String) throws {
        guard !problems.isEmpty else { return }
        throw WireProtocolError("\(field): " + problems.joined(separator: "; "))
    }

    // MARK: Offline

    private func setOffline(_ offline: Bool) {
        lock.lock()
        let previous = offlineStub
        offlineStub = nil
        lock.unlock()
        if let previous { registry.remove(previous) }
        guard offline else { return }
        let stub = registry.stub(.any, name: "offline (set by the test)") { _ in StubResponse(error: URLError(.notConnectedToInternet)) }
        lock.lock()
        offlineStub = stub
        lock.unlock()
    }

    /// A stub or scenario added while offline goes below the offline stub: offline means no
    /// request gets through until the test says otherwise.
    private func keepOfflineOnTop() {
        lock.lock()
        let isOffline = offlineStub != nil
        lock.unlock()
        if isOffline { setOffline(true) }
    }

    // MARK: Gates and streams

    private func gate(_ id: String) throws -> ResponseGate {
        lock.lock(); defer { lock.unlock() }
        guard let gate = gates[id] else {
            throw WireProtocolError("no stub holds its responses with the gate \"\(id)\" (gateID): add a stub whose response is held by it first")
        }
        return gate
    }

    private func stream(_ id: String) throws -> LiveStream {
        lock.lock(); defer { lock.unlock() }
        guard let stream = streams[id] else {
            throw WireProtocolError("no stub answers with the live stream \"\(id)\" (streamID): add a stub whose response is that stream first")
        }
        return stream
    }

    private func liveStream(_ id: String) -> LiveStream {
        lock.lock(); defer { lock.unlock() }
        if let stream = streams[id] { return stream }
        let stream = LiveStream(name: id)
        streams[id] = stream
        return stream
    }
}
