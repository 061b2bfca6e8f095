#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsTestRunnerLink
@testable import URLStubsTesting
@testable import TestSupport

/// The test-runner link's limits: what either end refuses, and that refusing it costs little and
/// leaves the link working (the limits are listed in the Reliability article).
@Suite("AppBackend link limits")
struct AppBackendLinkLimitsTests {
    private func port(of backend: AppBackend) throws -> UInt16 {
        try #require(UInt16(backend.launchEnvironment[TestRunnerLink.addressVariable]?.split(separator: ":").last ?? ""))
    }

    // MARK: Message sizes

    @Test func aStubPastTheLinksMessageLimitIsRefusedAtTheCallAndTheLinkGoesOn() async throws {
        // 49 MiB of bytes are 65.3 MiB of base64.
        let huge = RemoteResponse(data: Data(count: 49 << 20))
        let early = try AppBackend()
        defer { early.close() }
        let declared = await errorText { try await early.stub(.get("/huge"), response: huge) }
        #expect(declared.contains("this matcher or response cannot be sent to the app"), "\(declared)")
        #expect(declared.contains("more than the 64 MiB the link carries in one message"), "\(declared)")

        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        let live = await errorText { try await backend.stub(.get("/huge"), response: huge) }
        #expect(live.contains("more than the 64 MiB the link carries in one message"), "\(live)")
        #expect(live.contains("RemoteResponse(fixture:)"), "what to do instead: \(live)")
        try await backend.stub(.get("/small"), response: RemoteResponse(string: "still linked"))
        #expect(await fetch("https://app.test/small", from: registry).body == "still linked")
        #expect(backend.isAppConnected)
    }

    // MARK: Before the token is checked

    @Test func aHelloLargerThanAnAppsIsRefusedBeforeItIsRead() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let port = try port(of: backend)
        let refusal = try await onItsOwnThread { () -> [String: String] in
            let client = try LoopbackSocket.connect(port: port)
            defer { client.close() }
            var length = UInt32(64 << 20).bigEndian
            try client.write(Data(bytes: &length, count: 4) + Data(count: 4096))
            // The rest of the hello never comes: only a refusal read from the length alone arrives.
            return try RawLinkPeer(client).receive(timeout: 30)
        }
        let message = refusal["message"] ?? ""
        #expect(message.contains("announced 67108864 bytes, more than the 1024 bytes a hello may have"), "\(refusal)")
    }

    @Test func anAppsHelloFitsTheLimitWhateverItsProcessName() throws {
        var hello = WireMessage(.hello)
        hello.protocolVersion = WireMessage.protocolVersion
        hello.token = String(repeating: "f", count: 64)
        hello.processID = Int(Int32.max)
        // Control characters: each escaped in 6 bytes.
        hello.processName = String(decoding: String(repeating: "\u{1}", count: 1000).utf8.prefix(WireFrame.helloProcessNameLimit), as: UTF8.self)
        #expect(try hello.encoded().count <= WireFrame.maximumHelloSize)
    }

    /// Hostile connections, each announcing a 64 MiB hello and sending 8 MiB of it: run in a
    /// child process, whose resident memory only this test moves.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["URLSTUBS_TEST_HOSTILE_HELLOS"] != nil))
    func childFacesFortyHostileConnections() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let port = try port(of: backend)
        let before = try #require(residentMemoryKB())
        let chunk = Data(count: 1 << 20)
        let attackers = (0..<40).map { _ in
            StartedOnItsOwnThread { () -> LoopbackSocket? in
                guard let client = try? LoopbackSocket.connect(port: port) else { return nil }
                var length = UInt32(64 << 20).bigEndian
                try? client.write(Data(bytes: &length, count: 4))
                for _ in 0..<8 where (try? client.write(chunk)) != nil {}
                return client
            }
        }
        var clients: [LoopbackSocket?] = []
        for attacker in attackers { clients.append(try await attacker.value) }
        try await Task.sleep(nanoseconds: 500_000_000)
        let growth = (try #require(residentMemoryKB()) - before) / 1024
        print("hostile hellos: resident memory grew by \(growth) MB")
        // Reading every hello whole would take 40 × 8 MiB at least; refused unread, none.
        #expect(growth < 100, "resident memory grew by \(growth) MB")

        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        try await backend.stub(.get("/after"), response: RemoteResponse(string: "the app got in"))
        #expect(await fetch("https://app.test/after", from: registry).body == "the app got in")
        clients.forEach { $0?.close() }
    }

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func fortyHostileHellosCostBoundedMemoryAndTheAppStillConnects() async throws {
        let child = try await runTestInChildProcess(
            "childFacesFortyHostileConnections", environment: ["URLSTUBS_TEST_HOSTILE_HELLOS": "1"], timeLimit: 120)
        #expect(child.status == 0, "\(child.output)")
        #expect(child.output.contains("hostile hellos: resident memory grew by"), "\(child.output)")
    }

    @Test func silentConnectionsPastTheHandshakeLimitAreDroppedAndTheAppStillConnects() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let port = try port(of: backend)
        let silent = try await onItsOwnThread { try (0..<40).map { _ in try LoopbackSocket.connect(port: port) } }
        defer { silent.forEach { $0.close() } }
        // The oldest are dropped at once, not when their hello's 10 s run out.
        let dropped = try await onItsOwnThread { () -> [String] in
            silent.prefix(40 - BackendListener.handshakeLimit).map { client in
                (try? RawLinkPeer(client).receive(timeout: 3))?["message"] ?? "nothing within 3 s"
            }
        }
        #expect(dropped.allSatisfy { $0.contains("it said no hello while 8 newer connections came") }, "\(dropped)")

        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        try await backend.stub(.get("/after"), response: RemoteResponse(string: "the app got in"))
        #expect(await fetch("https://app.test/after", from: registry).body == "the app got in")
    }

    @Test func aSilentConnectionIsRefusedAsTimedOut() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let port = try port(of: backend)
        let refusal = try await onItsOwnThread { () -> [String: String] in
            let client = try LoopbackSocket.connect(port: port)
            defer { client.close() }
            return try RawLinkPeer(client).receive(timeout: 30)
        }
        #expect(refusal["message"]?.hasPrefix("timed out: the connection sent no hello within 10 s") == true, "\(refusal)")
    }

    // MARK: The app's connect

    /// A listener that never accepts, its queue full: the app's connect still ends in its timeout.
    /// Linux drops the connection requests a full queue cannot take (the client retries them
    /// for minutes); other systems may refuse them at once, which tests nothing here.
    @Test(.enabled(if: isLinux, "Linux drops connection requests past a full accept queue"))
    func theAppsConnectHonoursItsTimeoutWhenTheAcceptQueueIsFull() async throws {
        let (listener, port) = try fullListener()
        defer { _ = close(listener) }
        let environment = [TestRunnerLink.addressVariable: "127.0.0.1:\(port)", TestRunnerLink.tokenVariable: "token"]
        let registry = StubRegistry()
        // Timed around the call itself, on the thread that makes it: the test's own resumption
        // waits for a thread of the cooperative pool, which a loaded machine can keep busy for
        // seconds, and that wait says nothing about the link.
        let outcome = try await onItsOwnThread { () -> (text: String, seconds: TimeInterval)? in
            let ended = DispatchSemaphore(value: 0)
            let result = LockedOutcome()
            Thread {
                let started = Date()
                var text: String
                do {
                    _ = try TestRunnerLink.connectIfLaunchedByTest(into: registry, timeout: 1, environment: environment)
                    text = "connected"
                } catch {
                    text = "\(error)"
                }
                result.set((text, Date().timeIntervalSince(started)))
                ended.signal()
            }.start()
            // The system's retries would take more than two minutes.
            return ended.wait(timeout: .now() + 30) == .success ? result.value : nil
        }
        let (text, seconds) = try #require(outcome, "connectIfLaunchedByTest(timeout: 1) did not return within 30 s")
        #expect(seconds < 15)
        #expect(text.contains("the test runner at 127.0.0.1:\(port) sent no stubs within 1 s"), "\(text)")
        #expect(text.contains("a test process too busy to take the connection"), "\(text)")
        #expect(!text.contains("ended"), "the test process has not ended: \(text)")
    }

    /// A listening socket with a queue of one that never accepts, filled by connections that
    /// are never accepted (plain system calls, independent of the link's socket).
    private func fullListener() throws -> (descriptor: Int32, port: UInt16) {
        #if canImport(Darwin)
        let stream = SOCK_STREAM
        #else
        let stream = Int32(SOCK_STREAM.rawValue)
        #endif
        let listener = socket(AF_INET, stream, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(listener, $0, length) == 0, listen(listener, 1) == 0, getsockname(listener, $0, &length) == 0 else {
                    throw ProbeError("could not listen: \(String(cString: strerror(errno)))")
                }
            }
        }
        for _ in 0..<8 {
            let filler = socket(AF_INET, stream, 0)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL, 0) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) } }
        }
        Thread.sleep(forTimeInterval: 0.3)
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    // MARK: What the app sends

    @Test func anOverLongLengthFromTheAppEndsTheConnection() async throws {
        let backend = try AppBackend(connectTimeout: 5)
        defer { backend.close() }
        let port = try port(of: backend)
        let token = backend.launchEnvironment[TestRunnerLink.tokenVariable] ?? ""
        let closed = try await onItsOwnThread { () -> String in
            let app = RawLinkPeer(try LoopbackSocket.connect(port: port))
            defer { app.socket.close() }
            try app.send(json: #"{"type":"hello","protocolVersion":\#(WireMessage.protocolVersion),"token":"\#(token)"}"#)
            _ = try app.receive()
            try app.send(json: #"{"type":"ready"}"#)
            // A length no frame has, then bytes that read as a frame if the reader went on.
            var length = UInt32(0xFFFF_FFF0).bigEndian
            let smuggled = Data(#"{"type":"ready","message":"smuggled"}"#.utf8)
            var inner = UInt32(smuggled.count).bigEndian
            try app.socket.write(Data(bytes: &length, count: 4) + Data(bytes: &inner, count: 4) + smuggled)
            do {
                _ = try app.receive(timeout: 5)
                return "a frame came"
            } catch let error as LoopbackSocketError {
                return error.isClosed ? "closed" : "\(error)"
            }
        }
        #expect(closed == "closed", "the connection stays open: \(closed)")
        let text = await errorText { _ = try await backend.journal() }
        #expect(text.contains("a frame announced 4294967280 bytes"), "\(text)")
        #expect(text.contains("this AppBackend stopped reading it"), "\(text)")
        #expect(!text.contains("smuggled"), "\(text)")
    }

    // MARK: What the test sends

    @Test func aCommandTooDeepToDecodeIsAnsweredUnderItsID() async throws {
        let runner = try FakeTestRunner()
        let link = startApp(runner.environment, registry: StubRegistry())
        let reply = try await onItsOwnThread { () -> [String: String] in
            let peer = try runner.accept()
            _ = try peer.receive()
            try peer.send(json: #"{"type":"welcome","protocolVersion":\#(WireMessage.protocolVersion)}"#)
            _ = try peer.receive()
            let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
            try peer.send(
                json: #"{"type":"addStub","stub":{"id":"s","location":"A.swift:1","response":{"status":200,"headers":{}},"#
                    + #""matcher":{"jsonBody":\#(deep)}},"id":9}"#)
            return try peer.receive(timeout: 30)
        }
        _ = try await link.value
        #expect(reply["type"] == "failed")
        #expect(reply["id"] == "9", "\(reply)")
        #expect(reply["message"]?.hasPrefix("malformed message") == true, "\(reply)")
        // The depth, not "not valid JSON": the message is JSON, only too deep to decode.
        #expect(
            reply["message"]?.contains("it is JSON nested 5003 levels deep, deeper than the 512 levels a message may nest") == true,
            "\(reply)")
        #expect(reply["message"]?.contains("not valid JSON") == false, "\(reply)")
    }

    @Test func theAppServesFixturesFromInsideItsFolderOnly() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: folder.appendingPathComponent("sub/inside.txt"))
        try Data("secret".utf8).write(to: root.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("escape.txt"), withDestinationURL: root.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("linked"), withDestinationURL: root)

        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await startApp(backend.launchEnvironment, registry: registry, fixtures: folder).value)
        for (name, reason) in [
            ("../secret.txt", #"it has a ".." component"#), ("sub/../../secret.txt", #"it has a ".." component"#),
            (root.appendingPathComponent("secret.txt").path, "it is an absolute path"),
            ("escape.txt", "a symbolic link leads to"), ("linked/secret.txt", "a symbolic link leads to"),
        ] {
            let text = await errorText { try await backend.stub(.get("/secret"), response: RemoteResponse(fixture: name)) }
            #expect(text.contains("the fixture \"\(name)\" is outside the app's fixtures folder"), "\(name): \(text)")
            #expect(text.contains(reason), "\(name): \(text)")
        }
        try await backend.stub(.get("/inside"), response: RemoteResponse(fixture: "sub/inside.txt"))
        #expect(await fetch("https://app.test/inside", from: registry).body == "inside")
        #expect(await fetch("https://app.test/secret", from: registry).body != "secret")
    }
}

#if os(Linux)
private let isLinux = true
#else
private let isLinux = false
#endif

/// Text one thread sets and another reads.
private final class LockedOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: (text: String, seconds: TimeInterval)?

    func set(_ value: (text: String, seconds: TimeInterval)) {
        lock.lock(); defer { lock.unlock() }
        outcome = value
    }

    var value: (text: String, seconds: TimeInterval)? {
        lock.lock(); defer { lock.unlock() }
        return outcome
    }
}
