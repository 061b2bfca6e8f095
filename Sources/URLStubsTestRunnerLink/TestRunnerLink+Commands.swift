import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsScenarios
import URLStubsStreaming

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
        case .expectCount:
            let id = try command.required(command.stubID, "stubID")
            let count = try command.required(command.expected, "expected").expectedCount()
            lock.lock()
            let stub = stubs[id]
            lock.unlock()
            guard let stub else {
                throw WireProtocolError("the app has no stub \"\(id)\" (stubID): it was removed, or never added")
            }
            stub.expect(count)
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
                throw StubError.unknownScenarios([name], known: scenarios.map(\.name).sorted())
            }
            done.released = registry.deactivate(name)
        case .setOffline:
            setOffline(try command.required(command.offline, "offline"), location: command.location)
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
            let id = try command.required(command.gateID, "gateID")
            let gate = try gate(id)
            return waitReporting(for: id, timeout: timeout) { try await gate.waitForRequest(timeout: timeout) }
        case .waitForStreamConnection:
            let id = try command.required(command.streamID, "streamID")
            let stream = try stream(id)
            return waitReporting(for: id, timeout: timeout) { try await stream.waitForConnection(timeout: timeout) }
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

    /// A wait for the request of a gate or live stream, answered with that request. When it
    /// times out, the report lists what the app's registry saw and why the matchers of the
    /// stubs answering through `id` refused each, as a stub's own gate reports in process (a
    /// gate or stream of the app knows no registry).
    private func waitReporting(
        for id: String, timeout: TimeInterval, _ wait: @escaping @Sendable () async throws -> StubRequest
    ) -> @Sendable () async throws -> WireMessage {
        let registry = self.registry
        lock.lock()
        let matchers = waitMatchers[id] ?? []
        lock.unlock()
        return {
            var done = WireMessage(.done)
            do {
                done.entry = WireJournalEntry(unanswered: try await wait(), scrubbing: registry.scrubbing)
            } catch let report as VerificationReport {
                guard let timedOut = report.timedOutWait else { throw report }
                let matcher = matchers.dropFirst().reduce(matchers.first) { combined, next in combined.map { $0 || next } }
                let journal = registry.journal
                throw VerificationReport(
                    awaited: timedOut.awaited, timeout: timeout, matched: [],
                    others: matcher.map { matcher in journal.filter { !matcher.matches($0.request) } } ?? journal, matcher: matcher,
                    hint: VerificationReport.noRequestSeenHint.replacingOccurrences(of: "registry.makeSession()", with: "URLSession.shared"))
            }
            return done
        }
    }

    /// `(file, line)` of `MyAppTests/AppTests.swift:12`, where the test made something.
    static func place(_ location: String) -> (file: String, line: Int) {
        let separator = location.lastIndex(of: ":")
        let file = separator.map { String(location[..<$0]) } ?? location
        let line = separator.flatMap { Int(location[location.index(after: $0)...]) } ?? 0
        return (file, line)
    }

    // MARK: Stubs

    private func addStub(_ stub: WireStub) throws {
        try Self.check(stub.matcher.problems, of: "stub.matcher")
        try Self.check(stub.response.problems, of: "stub.response")
        let response = try stubResponse(stub.response)
        let profile = try stub.response.networkProfile?.profile()
        let expected = try stub.expected?.expectedCount()
        let counter = RequestCounter()
        let (file, line) = Self.place(stub.location)
        let matcher = stub.matcher.requestMatcher
        let descriptor = registry.stub(matcher, name: stub.name, times: stub.times, fileID: file, filePath: file, line: line) {
            request in
            guard let profile else { return response }
            let endpoint = "\(request.method) \(request.urlPath ?? "/")"
            return profile.apply(to: response, endpoint: endpoint, index: counter.next(for: endpoint))
        }
        if let expected { descriptor.expect(expected) }
        lock.lock()
        let replaced = stubs.updateValue(descriptor, forKey: stub.id)
        for id in [stub.response.gateID, stub.response.streamID].compactMap({ $0 }) { waitMatchers[id, default: []].append(matcher) }
        lock.unlock()
        if let replaced { registry.remove(replaced) }
        keepOfflineOnTop()
    }

    /// The response `remote` describes, held by its gate and streaming its live stream.
    func stubResponse(_ remote: WireResponse) throws -> StubResponse {
        var response = try remote.stubResponse(fixtures: fixtures)
        if let streamID = remote.streamID {
            let stream = liveStream(streamID, location: remote.streamLocation)
            switch remote.streamKind {
            case .eventStream:
                response = .stream(stream, statusCode: remote.status, headers: StubResponse.eventStreamHeaders(HeaderFields(remote.headers)))
            case .stream, nil:
                response = .stream(stream, statusCode: remote.status, headers: HeaderFields(remote.headers))
            }
            if let requestTime = remote.requestTime { response = response.requestTime(requestTime, responseTime: 0) }
        }
        if let gateID = remote.gateID {
            lock.lock()
            let (file, line) = Self.place(remote.gateLocation ?? "the UI test")
            let gate = gates[gateID] ?? ResponseGate(name: gateID, fileID: file, filePath: file, line: line)
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

    private func setOffline(_ offline: Bool, location: String?) {
        lock.lock()
        let previous = offlineStub
        offlineStub = nil
        lock.unlock()
        if let previous { registry.remove(previous) }
        guard offline else { return }
        let (file, line) = Self.place(location ?? "the UI test")
        let stub = registry.stub(.any, name: "offline (set by the test)", fileID: file, filePath: file, line: line) { _ in
            StubResponse(error: URLError(.notConnectedToInternet))
        }
        lock.lock()
        offlineStub = stub
        offlineLocation = location
        lock.unlock()
    }

    /// A stub or scenario added while offline goes below the offline stub: offline means no
    /// request gets through until the test says otherwise.
    private func keepOfflineOnTop() {
        lock.lock()
        let isOffline = offlineStub != nil
        let location = offlineLocation
        lock.unlock()
        if isOffline { setOffline(true, location: location) }
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

    private func liveStream(_ id: String, location: String?) -> LiveStream {
        lock.lock(); defer { lock.unlock() }
        if let stream = streams[id] { return stream }
        let (file, line) = Self.place(location ?? "the UI test")
        let stream = LiveStream(name: id, fileID: file, filePath: file, line: line)
        streams[id] = stream
        return stream
    }
}
