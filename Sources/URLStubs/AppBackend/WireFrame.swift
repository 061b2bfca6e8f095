import Foundation

/// Frames on the stream: a 4-byte big-endian length, then that many bytes of JSON.
@_spi(TestRunnerLink) public enum WireFrame {
    /// The largest message either side accepts.
    @_spi(TestRunnerLink) public static let maximumSize = 64 << 20

    /// The frame of `message`, length and JSON in one buffer (one write, one segment).
    @_spi(TestRunnerLink) public static func encode(_ message: WireMessage) throws -> Data {
        let json = try message.encoded()
        var length = UInt32(json.count).bigEndian
        var frame = Data(bytes: &length, count: 4)
        frame.append(json)
        return frame
    }

    /// Reads the next frame's JSON.
    /// - Parameter timeout: The longest wait for the frame; `nil` waits until it comes or the
    ///   connection closes.
    @_spi(TestRunnerLink) public static func read(from socket: LoopbackSocket, timeout: TimeInterval?) throws -> Data {
        let head = try socket.read(count: 4, timeout: timeout)
        let length = head.reduce(0) { ($0 << 8) | Int($1) }
        guard length <= maximumSize else {
            throw WireProtocolError(
                "a frame announced \(length) bytes, more than the \(maximumSize >> 20) MiB limit: "
                    + "the other side does not speak the URLStubs test-runner protocol")
        }
        return try socket.read(count: length, timeout: timeout == nil ? nil : max(timeout ?? 0, 10))
    }

    /// Sends `message`.
    @_spi(TestRunnerLink) public static func send(_ message: WireMessage, on socket: LoopbackSocket) throws {
        try socket.write(try encode(message))
    }
}
