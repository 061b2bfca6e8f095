import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// The app's end of a UI test's control channel: the test process (its `AppBackend`, in
/// `URLStubsTesting`) adds and removes stubs, switches scenarios, holds requests, feeds live
/// streams and reads the journal of the app it launched, while the app runs.
///
/// One call at launch, in DEBUG builds:
///
/// ```swift
/// #if DEBUG
/// try TestRunnerLink.connectIfLaunchedByTest(into: .shared)
/// #endif
/// ```
///
/// It does nothing, and costs one dictionary lookup, unless the launch environment holds
/// `URLSTUBS_TEST_RUNNER` (which the test's `AppBackend.launchEnvironment` sets). When it does, it
/// connects to the test process on 127.0.0.1, authenticates with `URLSTUBS_TEST_RUNNER_TOKEN`, installs
/// the registry (for `URLSession.shared` when it is `StubRegistry.shared`), and **blocks until
/// the test's first stubs have arrived**, so the requests the app makes at launch are answered
/// by them. Then a thread of its own applies the test's commands.
///
/// Requests never cross to the test process: the stubs live in the app's registry, and a
/// request waits for the test only when the test holds it. Until the stubs arrive, and after
/// a failure, the registry fails unmatched requests instead of passing them to the network; if
/// the test process goes away, every request fails with
/// ``TestRunnerLinkError/testRunnerDisconnected(_:)``, and held requests and live streams end.
public final class TestRunnerLink: @unchecked Sendable {
    // The launch environment is the test side's business: `AppBackend.launchEnvironment` sets
    // both variables and this link reads them, so neither an app nor a test names them.
    /// `URLSTUBS_TEST_RUNNER=127.0.0.1:<port>`: where the test process listens.
    package static let addressVariable = "URLSTUBS_TEST_RUNNER"
    /// `URLSTUBS_TEST_RUNNER_TOKEN=<hex>`: the secret the test process expects.
    package static let tokenVariable = "URLSTUBS_TEST_RUNNER_TOKEN"

    let registry: StubRegistry
    let scenarios: LinkScenarios
    let fixtures: AppFixtures
    private let socket: LoopbackSocket
    let lock = NSLock()
    /// What the test added, by its identifiers.
    var stubs: [String: StubDescriptor] = [:]
    /// The names of the registry's gates the test's stubs hold their answers with.
    var gateNames: Set<String> = []
    /// The live streams the test's stubs answer with, attached to the registry by name.
    var streams: [String: LinkStream] = [:]
    /// The matchers of the stubs that answer through each gate or live stream, by its
    /// identifier: a wait that times out explains each request the app saw by them.
    var waitMatchers: [String: [RequestMatcher]] = [:]
    var offlineStub: StubDescriptor?
    /// Where the test took the app offline.
    var offlineLocation: String?
    private var ended: String?
    /// Signalled when the command thread has ended the link.
    private let finished = DispatchSemaphore(value: 0)
    /// The link itself while its thread runs: the app need not keep the link it was given.
    private var keepAlive: TestRunnerLink?

    /// Connects to the test process that launched the app, if one did, and returns once its
    /// first stubs are installed.
    ///
    /// - Parameters:
    ///   - registry: The registry the test's stubs go into; `StubRegistry.shared` answers
    ///     `URLSession.shared`. Install another into the app's own sessions yourself.
    ///   - scenarios: The app's scenarios the test may activate and deactivate, and how to
    ///     activate one (``LinkScenarios``); `nil` for none.
    ///   - fixtures: Where the fixture files the test names are (the app's bundle by default).
    ///   - timeout: The longest wait for the test's first stubs, in seconds.
    ///   - environment: The launch environment (the process's own by default).
    /// - Returns: The link, or `nil` when the launch environment names no test runner.
    /// - Throws: ``TestRunnerLinkError`` naming what to check. The registry then fails every
    ///   request with that error, so none reaches the network unstubbed.
    @discardableResult
    public static func connectIfLaunchedByTest(
        into registry: StubRegistry = .shared, scenarios: LinkScenarios? = nil, fixtures: AppFixtures = .bundle(.main),
        timeout: TimeInterval = 10, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> TestRunnerLink? {
        guard let address = environment[addressVariable] else { return nil }
        // The test's stubs may carry network conditions: the link answers them itself.
        LinkNetworkProfile.register()
        // Nothing unstubbed goes out while the stubs are on their way, or if they never come.
        registry.unmatchedRequestPolicy = .fail
        if registry === StubRegistry.shared { StubRegistry.activateForSharedSession() }
        do {
            let socket = try handshake(address: address, token: environment[tokenVariable], timeout: timeout)
            let link = TestRunnerLink(
                registry: registry, scenarios: scenarios ?? LinkScenarios(names: []) { _, _ in }, fixtures: fixtures, socket: socket.socket)
            try link.applySetup(socket.welcome, address: address, timeout: timeout)
            link.startReading()
            removeTokenFromTheProcessEnvironment(environment[tokenVariable])
            return link
        } catch let error as TestRunnerLinkError {
            failEveryRequest(of: registry, with: error)
            throw error
        }
    }

    /// The token has let this app in: a child process the app starts, a log of its
    /// environment, and another process of the same user reading the app's launch environment
    /// from the system (`/proc/<pid>/environ` on Linux, `ps -E` on Apple platforms, both read
    /// where the launch environment was written) do not get it. Only when it came from the
    /// process's own environment (a caller passing an environment of its own owns that one).
    /// The address stays, so a child that links URLStubs fails its launch naming the missing
    /// token rather than reaching the network unstubbed.
    ///
    /// The token's bytes are overwritten where they are before the variable is removed:
    /// removing it only takes it out of the list the process reads, and the system would go on
    /// showing the launch environment as written. Worth it: the `AppBackend` lets a new app
    /// in with this token whenever none is connected (the app relaunched, or crashed), so a
    /// process that read it could take the app's place.
    private static func removeTokenFromTheProcessEnvironment(_ token: String?) {
        guard let token, ProcessInfo.processInfo.environment[tokenVariable] == token else { return }
        if let value = getenv(tokenVariable) { memset(value, 0, strlen(value)) }
        unsetenv(tokenVariable)
    }

    private init(registry: StubRegistry, scenarios: LinkScenarios, fixtures: AppFixtures, socket: LoopbackSocket) {
        self.registry = registry
        self.scenarios = scenarios
        self.fixtures = fixtures
        self.socket = socket
    }

    /// `true` until the test runner goes away or ``disconnect()`` is called.
    public var isConnected: Bool {
        lock.lock(); defer { lock.unlock() }
        return ended == nil
    }

    /// Closes the link: from now on every request fails with
    /// ``TestRunnerLinkError/testRunnerDisconnected(_:)``, as when the test process ends.
    /// Returns once the link's thread has let go of it (within about a second).
    public func disconnect() {
        socket.shutdown()
        lock.lock()
        let alreadyEnded = ended != nil
        lock.unlock()
        if !alreadyEnded { _ = finished.wait(timeout: .now() + 2) }
    }

    // MARK: The handshake

    private static func handshake(
        address: String, token: String?, timeout: TimeInterval
    ) throws -> (socket: LoopbackSocket, welcome: WireMessage) {
        let parts = address.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "127.0.0.1", let port = UInt16(parts[1]), port > 0 else {
            throw TestRunnerLinkError.invalidEnvironment(
                "\(addressVariable) is \"\(address)\": expected 127.0.0.1:<port> (the link listens on loopback only)")
        }
        guard let token, !token.isEmpty else {
            throw TestRunnerLinkError.invalidEnvironment("\(addressVariable) is set but \(tokenVariable) is missing")
        }
        // The connect and the welcome share the timeout: a test process too busy to take the
        // connection (its accept queue full) fails the launch as late as a silent one does.
        let deadline = Date().addingTimeInterval(timeout)
        let socket: LoopbackSocket
        do {
            socket = try LoopbackSocket.connect(port: port, timeout: timeout)
        } catch let error as LoopbackSocketError where error.isTimeout {
            throw TestRunnerLinkError.testRunnerDidNotAnswer(address: address, timeout: timeout)
        } catch {
            throw TestRunnerLinkError.cannotConnect(address: address, reason: "\(error)")
        }
        do {
            var hello = WireMessage(.hello)
            hello.protocolVersion = WireMessage.protocolVersion
            hello.token = token
            hello.processID = Int(ProcessInfo.processInfo.processIdentifier)
            hello.processName = String(decoding: ProcessInfo.processInfo.processName.utf8.prefix(WireFrame.helloProcessNameLimit), as: UTF8.self)
            try WireFrame.send(hello, on: socket)
            let answer = try WireMessage.decode(try WireFrame.read(from: socket, timeout: max(0.001, deadline.timeIntervalSinceNow)))
            switch try answer.knownType() {
            case .welcome:
                let version = try answer.required(answer.protocolVersion, "protocolVersion")
                guard version == WireMessage.protocolVersion else {
                    throw TestRunnerLinkError.protocolMismatch(app: WireMessage.protocolVersion, testRunner: version)
                }
                return (socket, answer)
            case .refused:
                throw TestRunnerLinkError.refused(answer.message ?? "no reason given")
            default:
                throw WireProtocolError("expected \"welcome\" or \"refused\", got \"\(answer.type)\"")
            }
        } catch let error as TestRunnerLinkError {
            socket.close()
            throw error
        } catch let error as LoopbackSocketError where !error.isClosed {
            socket.close()
            throw TestRunnerLinkError.testRunnerDidNotAnswer(address: address, timeout: timeout)
        } catch {
            socket.close()
            throw TestRunnerLinkError.broken("during the handshake with \(address): \(error)")
        }
    }

    /// Reads and applies the commands the test declared before the app connected (the
    /// `setupCount` frames after the welcome), then tells the test the app is ready, with the
    /// problems of any that failed, which the test reports.
    /// - Parameter timeout: The longest wait for each frame to start coming.
    private func applySetup(_ welcome: WireMessage, address: String, timeout: TimeInterval) throws {
        registry.unmatchedRequestPolicy = welcome.unmatchedRequests == "passthrough" ? .passthrough : .fail
        var problems: [String] = []
        do {
            for _ in 0..<max(0, welcome.setupCount ?? 0) {
                let frame = try WireFrame.read(from: socket, timeout: timeout)
                do {
                    let command = try WireMessage.decode(frame)
                    do {
                        _ = try apply(command)
                    } catch {
                        problems.append("\(command.type): \(error)")
                    }
                } catch {
                    problems.append("\(error)")
                }
            }
            var ready = WireMessage(.ready)
            ready.message = problems.isEmpty ? nil : problems.joined(separator: "\n")
            try WireFrame.send(ready, on: socket)
        } catch let error as LoopbackSocketError where error.isTimeout {
            socket.close()
            throw TestRunnerLinkError.testRunnerDidNotAnswer(address: address, timeout: timeout)
        } catch {
            socket.close()
            throw TestRunnerLinkError.broken("while taking the stubs declared before launch: \(error)")
        }
    }

    // MARK: The command loop

    private func startReading() {
        // Alive until the loop ends (``keepAlive``), and then only as long as the app keeps it.
        lock.lock()
        keepAlive = self
        lock.unlock()
        let thread = Thread { [weak self] in self?.readCommands() }
        thread.name = "URLStubs.TestRunnerLink"
        thread.start()
    }

    private func readCommands() {
        var reason = "the connection closed"
        while true {
            let frame: Data
            do {
                frame = try WireFrame.read(from: socket, timeout: nil)
            } catch let error as LoopbackSocketError {
                reason = error.isClosed ? "the test process closed the connection" : error.description
                break
            } catch {
                reason = "\(error)"
                break
            }
            do {
                handle(try WireMessage.decode(frame))
            } catch {
                // Answered under the command's id when it can be read, so the test's call fails.
                reply(failed: WireMessage.topLevelID(in: frame), "\(error)")
            }
        }
        end(reason: reason)
        lock.lock()
        keepAlive = nil
        lock.unlock()
        finished.signal()
    }

    /// Runs `command`, and answers it: at once, or when what it waits for has happened.
    private func handle(_ command: WireMessage) {
        do {
            if let waiting = try startWait(command) {
                Task { [self] in
                    do {
                        reply(try await waiting(), to: command)
                    } catch {
                        reply(failed: command.id, "\(error)")
                    }
                }
                return
            }
            reply(try apply(command), to: command)
        } catch {
            reply(failed: command.id, "\(error)")
        }
    }

    private func reply(_ answer: WireMessage, to command: WireMessage) {
        var answer = answer
        answer.id = command.id
        do {
            try WireFrame.send(answer, on: socket)
        } catch let error as WireFrameTooLarge {
            reply(failed: command.id, "its answer is \(error.size) bytes, more than the link's \(WireFrameTooLarge.describe(error.limit)) limit")
        } catch {
            // The connection is gone: the command loop reads its end and ends the link.
        }
    }

    private func reply(failed id: Int?, _ message: String) {
        var failure = WireMessage(.failed, id: id)
        failure.message = message
        try? WireFrame.send(failure, on: socket)
    }

    /// The test runner went away: every request fails from now on, and nothing waits for it.
    private func end(reason: String) {
        lock.lock()
        ended = reason
        let gates = gateNames.map { registry.gate(named: $0) }, streams = Array(self.streams.values)
        lock.unlock()
        socket.close()
        let error = TestRunnerLinkError.testRunnerDisconnected(reason)
        Self.failEveryRequest(of: registry, with: error)
        let failure = Self.urlError(for: error, url: nil)
        for gate in gates { while gate.fail(failure) {} }
        for stream in streams { stream.abandon(failure) }
    }

    /// A stub above all others that fails every request with `error`.
    static func failEveryRequest(of registry: StubRegistry, with error: TestRunnerLinkError) {
        registry.stub(.any, name: "URLStubs test-runner link: \(error.shortName)") { request in
            throw urlError(for: error, url: request.url)
        }
    }

    /// `URLError(.cannotConnectToHost)` whose description is `error`'s.
    static func urlError(for error: TestRunnerLinkError, url: URL?) -> URLError {
        ReportingNSError.urlError(.cannotConnectToHost, named: "cannotConnectToHost", report: error.description, underlying: error, url: url)
    }
}
