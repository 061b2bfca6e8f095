import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// What the app does with each command of the test: registry calls, made on the link's own
/// thread (none blocks); the commands that wait run as tasks and answer when done.
extension TestRunnerLink {
    /// Applies a command that answers at once, and returns its answer.
    func apply(_ command: WireMessage) throws -> WireMessage {
        var done = WireMessage(.done)
        switch try command.knownType() {
        case .addStub:
            try addStub(
                try command.required(command.declaration, "declaration"), id: try command.required(command.stubID, "stubID"),
                expected: try command.expected?.expectedCount())
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
            try scenarios.activate(try command.required(command.scenario, "scenario"), in: registry)
            keepOfflineOnTop()
        case .deactivateScenario:
            done.released = try scenarios.deactivate(try command.required(command.scenario, "scenario"), in: registry)
        case .setOffline:
            setOffline(try command.required(command.offline, "offline"), location: command.location)
        case .releaseHeld:
            let gate = try gate(try command.required(command.gateID, "gateID"))
            if let response = command.response {
                done.released = gate.release(with: try replacement(response))
            } else {
                done.released = gate.release()
            }
        case .failHeld:
            let gate = try gate(try command.required(command.gateID, "gateID"))
            done.released = gate.fail(URLError(urlErrorCode(try command.required(command.errorCode, "errorCode"))))
        case .streamSend:
            try stream(try command.required(command.streamID, "streamID")).write(.data(try command.required(command.data, "data")))
        case .streamFinish:
            try stream(try command.required(command.streamID, "streamID")).write(.finish)
        case .streamFail:
            let code = urlErrorCode(try command.required(command.errorCode, "errorCode"))
            try stream(try command.required(command.streamID, "streamID")).write(.failure(URLError(code)))
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
        let place = command.location.map { " (\($0))" } ?? ""
        switch type {
        case .waitForHeldRequest:
            let id = try command.required(command.gateID, "gateID")
            let gate = try gate(id)
            return waitReporting(for: id, awaiting: "a new request held by the gate \"\(id)\"\(place)", timeout: timeout) {
                try await gate.waitForRequest(timeout: timeout)
            }
        case .waitForStreamConnection:
            let id = try command.required(command.streamID, "streamID")
            let stream = try stream(id)
            return waitReporting(for: id, awaiting: "a request connected to the live stream \"\(id)\"\(place)", timeout: timeout) {
                try await stream.arrivals.next(timeout: timeout) { StreamWaitTimedOut() }
            }
        case .waitForRequests:
            let pattern = try DeclarationForms.pattern(from: try command.required(command.request, "request"), source: "the field \"request\"")
            let count = command.count ?? 1
            let registry = self.registry
            return {
                var done = WireMessage(.done)
                done.entries = try await registry.waitForRequests(matching: RequestMatcher(pattern), count: count, timeout: timeout)
                    .map(WireJournalEntry.init)
                return done
            }
        default:
            return nil
        }
    }

    /// A wait for the request of a gate or live stream, answered with that request. When it
    /// times out, the report lists what the app's registry saw and why the matchers of the
    /// stubs answering through `id` refused each, and names where the test made the gate or
    /// stream (a gate or stream the app makes by name knows no place of its own).
    private func waitReporting(
        for id: String, awaiting awaited: String, timeout: TimeInterval, _ wait: @escaping @Sendable () async throws -> StubRequest
    ) -> @Sendable () async throws -> WireMessage {
        let registry = self.registry
        lock.lock()
        let matchers = waitMatchers[id] ?? []
        lock.unlock()
        return {
            var done = WireMessage(.done)
            do {
                done.entry = WireJournalEntry(unanswered: try await wait(), scrubbing: registry.scrubbing)
            } catch let error where error is StreamWaitTimedOut || (error as? VerificationReport)?.timedOutWait != nil {
                let matcher = matchers.dropFirst().reduce(matchers.first) { combined, next in combined.map { $0 || next } }
                let journal = registry.journal
                throw VerificationReport(
                    awaited: awaited, timeout: timeout, matched: [],
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
}

/// No request connected to a live stream in time.
private struct StreamWaitTimedOut: Error {}

/// The `URLError.Code` of `rawValue` (`.unknown` for a number Foundation does not know here).
func urlErrorCode(_ rawValue: Int) -> URLError.Code {
    // Failable in corelibs, not in Apple's Foundation: the optional suits both.
    let code: URLError.Code? = URLError.Code(rawValue: rawValue)
    return code ?? .unknown
}
