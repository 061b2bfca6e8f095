import Foundation
@testable import URLStubs
@testable import URLStubsTestRunnerLink
@testable import TestSupport

/// One end of the test-runner link spoken by hand, to send what neither real side ever sends
/// (another protocol version, malformed commands, silence). Its calls block: use them
/// ``onItsOwnThread(_:)``.
final class RawLinkPeer: @unchecked Sendable {
    let socket: LoopbackSocket

    init(_ socket: LoopbackSocket) { self.socket = socket }

    /// Sends `json` as one frame, as it is.
    func send(json: String) throws {
        let body = Data(json.utf8)
        var length = UInt32(body.count).bigEndian
        try socket.write(Data(bytes: &length, count: 4) + body)
    }

    /// The next frame: each top-level field's value as text (`"99"`, `"refused"`).
    func receive(timeout: TimeInterval = 60) throws -> [String: String] {
        let frame = try WireFrame.read(from: socket, timeout: timeout)
        let object = try JSONSerialization.jsonObject(with: frame) as? [String: Any] ?? [:]
        return object.mapValues { "\($0)" }
    }
}

/// A listener standing in for a test runner: it accepts one app and then does what the test says.
final class FakeTestRunner: @unchecked Sendable {
    let listener: LoopbackSocket
    let port: UInt16

    init() throws {
        (listener, port) = try LoopbackSocket.listen()
    }

    /// The launch environment pointing at this listener.
    var environment: [String: String] {
        [TestRunnerLink.addressVariable: "127.0.0.1:\(port)", TestRunnerLink.tokenVariable: "fake-token"]
    }

    /// Waits for the app to connect (blocking).
    func accept(timeout: TimeInterval = 60) throws -> RawLinkPeer {
        guard let socket = try listener.accept(timeout: timeout) else { throw ProbeError("no app connected within \(timeout) s") }
        return RawLinkPeer(socket)
    }

    deinit { listener.close() }
}
